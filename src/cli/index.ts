// The public surface of src/cli: the rest of the program imports this folder only through here. Only the
// process's edges are loaded with it (the command line, the runtime, and runInvocation, which imports each
// step and mode when it is taken), so the rest is exported here as types.
export * from "./program.js";
export { runInvocation } from "./run-invocation.js";
export { createRuntime, type Runtime } from "./runtime.js";
export type { InputAnswers } from "./input/answers-file.js";
export type { CliInputResponder } from "./input/responder.js";
export type { ServerStatus } from "./mcp-servers.js";
export type { Session, SessionIo } from "./session-seam.js";
export type { TerminalLender } from "./terminal.js";
export type { SettledTrust } from "./trust.js";
export type { McpEditDeps } from "./mcp-edit-commands.js";
export type { McpEditCommand } from "./mcp-edit-program.js";
