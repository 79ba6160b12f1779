// The public surface of src/cli: the rest of the program imports this folder only through here.
export * from "./chat.js";
export * from "./input-answers-file.js";
export * from "./input-responder.js";
export * from "./mcp-mount.js";
export * from "./package-version.js";
export * from "./pipe-mode.js";
export * from "./program.js";
export * from "./server-status.js";
export * from "./session-io.js";
export * from "./session-setup.js";
export * from "./shutdown.js";
export * from "./subcommands.js";
