// The public surface of src/session: the rest of the program imports this folder only through here.
export * from "./session-list.js";
export * from "./snapshot-files.js";
export * from "./transcript-file.js";
