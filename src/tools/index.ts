// The public surface of src/tools: the rest of the program imports this folder only through here.
export * from "./local-tools.js";
