// The public surface of src/mcp: the rest of the program imports this folder only through here.
export { createMcpClient, REQUEST_TIMEOUT_MS, type CallToolOptions, type LogLevel, type McpClient, type McpClientOptions, type RequestOptions } from "./client.js";
export type { CallToolOutcome, ContentBlock } from "./call-result.js";
export { negotiateEra, type DiscoverInfo, type Era, type LegacyServerInfo, type NegotiatedEra } from "./era.js";
export { decodeHeaderValue, encodeHeaderValue } from "./http/headers.js";
export { createHttpTransport, type HttpTransportOptions } from "./http/transport.js";
export {
  callToolToCompletion,
  clientCapabilities,
  type InputAnswer,
  type InputAskContext,
  type InputRequest,
  type InputRequestKind,
  type InputResponder,
  type InputSupport,
} from "./input.js";
export {
  isJsonObject,
  McpError,
  type JsonObject,
  type JsonRpcFailure,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type McpErrorKind,
  type Transport,
  type TransportHandlers,
} from "./jsonrpc.js";
export { createLineFramer, MAX_LINE_BYTES, type LineFramer } from "./line-framer.js";
export { mountServers, type McpConfig, type MountDeps, type MountedServers } from "./mount-servers.js";
export { buildNamespace, sanitizeAlias, toolPrefix, type Namespace, type ToolRef } from "./namespace.js";
export {
  ServerConnection,
  stdioServerCwd,
  type HttpServerConfig,
  type McpServerConfig,
  type ServerState,
  type ServerStatus,
  type StdioServerConfig,
  type TransportSeams,
} from "./server-connection.js";
export { createStdioTransport, killAllChildrenSync, registerChild, signalProcessGroup, StdioTransport, unregisterChild, type StdioTransportOptions } from "./stdio-transport.js";
export type { RemoteToolInfo } from "./tool-list.js";
export { isLegacyVersion, LATEST_VERSION } from "./versions.js";
