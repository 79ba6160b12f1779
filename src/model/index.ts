// The public surface of src/model: the rest of the program imports this folder only through here.
export * from "./anthropic-model.js";
export * from "./mock-model.js";
export * from "./scripted-model.js";
