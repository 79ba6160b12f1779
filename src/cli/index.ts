// The public surface of src/cli: the rest of the program imports this folder only through here. Only the
// process's edges are loaded with it; every mode is imported by main.ts when chosen (the lazy seams), so
// the rest is exported here as types.
export * from "./program.js";
export type { InputAnswers } from "./input/answers-file.js";
export type { CliInputResponder } from "./input/responder.js";
export type { ServerReconnect, ServerStatus, ServerStatusProvider } from "./mcp-servers.js";
export type { AgentFactory, SessionIo } from "./session.js";
export type { TerminalLender } from "./terminal.js";
export type { SettledTrust } from "./trust.js";
