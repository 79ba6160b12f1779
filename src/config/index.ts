// The public surface of src/config: the rest of the program imports this folder only through here.
export * from "./config-reader.js";
export * from "./json-reader.js";
export * from "./mcp-config.js";
export * from "./pins.js";
export * from "./project-root.js";
export * from "./project-trust.js";
export * from "./protected-paths.js";
export * from "./settings.js";
// The server specs are src/mcp's own; named here too for the callers that read them from the config.
export type { HttpServerConfig, McpConfig, McpServerConfig, StdioServerConfig } from "../mcp/index.js";
export * from "./git-surface.js";
export { findGitProbe, GIT_PROBE_TIMEOUT_MS, type GitAnswer, type GitProbe } from "./git-probe.js";
export { toJsonValue, type JsonValue } from "./jsonc-edit.js";
export {
  addServer,
  checkServerEntry,
  findServer,
  localMcpFile,
  MCP_SCOPES,
  PROJECT_MCP_FILES,
  removeServer,
  scopePlaces,
  userMcpFile,
  type CheckedEntry,
  type EditContext,
  type FoundServer,
  type McpScope,
  type ServersPlace,
} from "./mcp-edit.js";
export { HOST_NAMES, readHostServers, type HostName, type HostServer, type HostServers, type HostSkipped, type HostWhere } from "./host-servers.js";
export * from "./mcp-scopes.js";
export { hostVariables, readInputs, referencedInputs, type InputAnswers, type McpInput } from "./host-variables.js";
export { addAllowRule, type AllowRuleAdded } from "./settings-edit.js";
