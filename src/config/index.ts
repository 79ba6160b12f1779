// The public surface of src/config: the rest of the program imports this folder only through here.
export * from "./config-error.js";
export * from "./json-reader.js";
export * from "./json-tokenizer.js";
export * from "./load-mcp-config.js";
export * from "./mcp-config.js";
export * from "./parse-mcp-config.js";
export * from "./read-fields.js";
