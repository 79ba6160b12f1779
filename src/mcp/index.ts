// The public surface of src/mcp: the rest of the program imports this folder only through here.
export { createOAuthSession, MAX_AUTHORIZATIONS_WITHOUT_SUCCESS, type Authorizer, type HttpAuth, type OAuthSession, type OAuthSessionOptions } from "./auth/oauth-session.js";
export { LOGIN_WAIT_MS, startLoopbackAuthorizer, type LoopbackAuthorizer, type LoopbackOptions } from "./auth/loopback-redirect.js";
export { createMemoryTokenStore, createTokenStore, type StoredLogin, type TokenStore } from "./auth/token-store.js";
export type { McpClient } from "./client.js";
export { negotiateEra, openModernClient } from "./era.js";
export { createModernClient } from "./modern-client.js";
export { createWire, type Wire } from "./wire.js";
export { decodeHeaderValue, encodeHeaderValue } from "./http/headers.js";
export { createHttpTransport } from "./http/transport.js";
export {
  callToolToCompletion,
  clientCapabilities,
  type InputAnswer,
  type InputAskContext,
  type InputRequest,
  type InputResponder,
  type InputSupport,
} from "./input.js";
export { isJsonObject, McpError, type JsonObject, type JsonRpcFailure, type JsonRpcId, type JsonRpcMessage, type Transport, type TransportHandlers } from "./jsonrpc.js";
export { createLineFramer, type LineFramer } from "./line-framer.js";
export type { ListChange, ListKind } from "./list-changes.js";
export { definitionChanges, type DefinitionChanges, type DefinitionHashes } from "./definition-hash.js";
export { mountServers, type McpConfig, type MountedServers } from "./mount-servers.js";
export { buildNamespace, sanitizeAlias, toolPrefix } from "./namespace.js";
export { fenceFor, getPrompt, listPrompts, offersPrompts, type PromptArgument, type PromptInfo, type PromptSource, type PromptTurn } from "./prompts.js";
export { contentsPart, createResourceTools, listResources, offersResources, READ_RESOURCE_RULE_NAME, READ_RESOURCE_TOOL, readFailureText, readResource, type ResourceContents, type ResourceSource } from "./resources.js";
export { rootsPerServer, rootsResult } from "./roots.js";
export { ServerConnection, type LoginDeps, type ServerState, type ServerStatus, type TransportSeams } from "./server-connection.js";
export { loginSettings, stdioServerCwd, type HttpServerConfig, type McpServerConfig, type OAuthClientConfig, type ServerRoots, type StdioServerConfig } from "./server-spec.js";
export { DEFAULT_LOG_LEVEL, isLogLevel, LOG_LEVELS, type LogLevel, type ServerLogEntry } from "./server-log.js";
export { createStdioTransport, killAllChildrenSync, registerChild, signalProcessGroup, unregisterChild } from "./stdio-transport.js";
export type { RemoteToolInfo } from "./tool-list.js";
export { lintTools, type LintCheck, type LintFinding, type LintSeverity } from "./tool-lint.js";
export { isLegacyVersion } from "./versions.js";
export { checkImage, MAX_IMAGE_BASE64_BYTES } from "./image-content.js";
export { aliasOverlapWarnings } from "./namespace.js";
export { describeIssuer, issuerProblem, type IssuerQuestion } from "./auth/secret-destination.js";
export { pidNamespaceLauncher, type Bubblewrap } from "./stdio-isolation.js";
export type { StdioLauncher } from "./stdio-transport.js";
export { formatLogEntry, isShownAsItComes } from "./server-log.js";
export { generateSigningKey, jwkThumbprint, readSigningKey, signingKeyFromPem, signJwt, type SigningAlgorithm, type SigningKey } from "./auth/jwt.js";
export { createDpopProver, type DpopProver } from "./auth/dpop.js";
export { machineGrantParams, type IdentityProvider, type MachineGrant } from "./auth/grants.js";
export { NoOAuthMetadata } from "./auth/oauth-session.js";
export { checkStructuredContent, outputSchemaProblem, type OutputCheck } from "./output-schema.js";
export { expandValue, MAX_COMPLETION_VALUES, offersCompletions, requestCompletion, templatePosition, templateStart, type CompletionQuestion, type CompletionRef, type CompletionSource } from "./completion.js";
export { sanitizeIcons, type Icon } from "./icons.js";
export { toolTitle } from "./tool-list.js";
export { APP_VIEW_NOTE, isAppOnly, isAppResource } from "./apps.js";
export { createHeaderTable, type HeaderTable } from "./http/headers.js";
