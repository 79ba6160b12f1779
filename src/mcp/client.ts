// The MCP client for one server: every request gets a fresh `_meta`, -32022 is answered by switching to a
// mutual version once, lists are followed to their end, and tool results come back as typed outcomes.
import type { ToolArgs } from "../kernel/index.js";
import { parseCallOutcome, type CallToolOutcome } from "./call-outcome.js";
import { parseDiscoverResult, type DiscoverInfo } from "./discover-info.js";
import { judgeDiscoverResult, judgeProbeFailure, type ProbeVerdict } from "./era-probe.js";
import { McpError } from "./errors.js";
import { UNSUPPORTED_PROTOCOL_VERSION, type JsonObject } from "./jsonrpc.js";
import { runLegacyHandshake, type LegacyServerInfo } from "./legacy-handshake.js";
import { answerLegacyServerRequest } from "./legacy-server-requests.js";
import { collectPages } from "./list-pages.js";
import { buildRequestMeta, withMeta, type LogLevel } from "./meta.js";
import { createNotificationRouter, type NotificationListener } from "./notification-router.js";
import { paramHeaderValues, readParamHeaderSpecs, type ParamHeaderSpec } from "./param-headers.js";
import { createPeer } from "./peer.js";
import { LATEST_VERSION, pickMutualVersion, readSupportedVersions, SUPPORTED_VERSIONS } from "./protocol-version.js";
import { parseRemoteTool, type RemoteToolInfo } from "./remote-tool.js";
import type { ParamHeader, Transport } from "./transport.js";

export const REQUEST_TIMEOUT_MS = 60_000;

export interface McpClientOptions {
  readonly transport: Transport;
  /** mca's own version (from package.json, read by whoever composes); display only. */
  readonly clientVersion: string;
  /** Sent as `clientCapabilities` on every request; `{}` declares no optional capability. */
  readonly capabilities?: JsonObject;
  readonly requestTimeoutMs?: number;
  readonly onWarning?: (message: string) => void;
  /** Notifications that belong to no call in flight (or to a call that did not ask for them). */
  readonly onNotification?: NotificationListener;
}

export interface RequestOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  /** Receives this request's own notifications: its progress, and log messages if it set `logLevel`. */
  readonly onNotification?: NotificationListener;
  /** Adds a fresh `progressToken` to `_meta`. */
  readonly wantProgress?: boolean;
  readonly logLevel?: LogLevel;
}

export interface CallToolOptions extends RequestOptions {
  /** A retry after `input_required` (spec §3): the answers, and the server's `requestState` echoed untouched. */
  readonly inputResponses?: JsonObject;
  readonly requestState?: string;
}

export interface McpClient {
  readonly label: string;
  start(): Promise<void>;
  close(): Promise<void>;
  /** The version requests carry now: LATEST_VERSION until a server makes us pick another. */
  protocolVersion(): string;
  discover(): Promise<DiscoverInfo>;
  /** Spec §8 "Detection rules": asks `server/discover` which era the server speaks; a modern one's version is adopted. */
  probe(options?: { readonly timeoutMs?: number }): Promise<ProbeVerdict>;
  /** The 2025-11-25 lifecycle; afterwards requests speak the agreed version and the server's own requests are answered. */
  initializeLegacy(): Promise<LegacyServerInfo>;
  listTools(): Promise<RemoteToolInfo[]>;
  callTool(name: string, args: ToolArgs, options?: CallToolOptions): Promise<CallToolOutcome>;
  /** Any other request (resources/list, resources/read, prompts/get…): the raw result object. */
  request(method: string, params?: JsonObject, options?: RequestOptions): Promise<JsonObject>;
}

/** Re-sending is safe only where a request has no side effects: never a tools/call. */
function resendableWhenBroken(method: string): boolean {
  return method === "server/discover" || method.endsWith("/list");
}

export function createMcpClient(options: McpClientOptions): McpClient {
  const { transport, clientVersion } = options;
  const label = transport.label;
  const clientCapabilities = options.capabilities ?? {};
  const warn = (message: string): void => options.onWarning?.(message);
  const router = createNotificationRouter((notification) => options.onNotification?.(notification));
  const peer = createPeer({
    transport,
    requestTimeoutMs: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    onNotification: (notification) => {
      try {
        router.route(notification);
      } catch (error) {
        warn(`${label}: a notification listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    // Only a legacy server may send requests; a 2026 server's are a violation, warned about and left unanswered.
    onRequest: (request) => (legacy ? answerLegacyServerRequest(request) : undefined),
    onWarning: warn,
  });
  const paramHeaderSpecs = new Map<string, readonly ParamHeaderSpec[]>();
  let protocolVersion = LATEST_VERSION;
  let legacy = false;
  let progressTokens = 0;
  let closing: Promise<void> | undefined;

  async function exchange(method: string, params: JsonObject, requestOptions: RequestOptions, paramHeaders?: readonly ParamHeader[]): Promise<JsonObject> {
    const { signal, timeoutMs, wantProgress, logLevel } = requestOptions;
    // One token per logical request: an attempt that failed is no longer active, so a retry may reuse it.
    const progressToken = wantProgress ? `mca-${(progressTokens += 1)}` : undefined;
    const detach = requestOptions.onNotification
      ? router.attach({ progressToken, wantsLogs: logLevel !== undefined }, requestOptions.onNotification)
      : () => undefined;
    let versionRetried = false;
    let resent = false;
    try {
      for (;;) {
        const meta = buildRequestMeta({ protocolVersion, clientCapabilities, clientVersion, progressToken, logLevel });
        try {
          return await peer.request(method, withMeta(params, meta), { signal, timeoutMs, paramHeaders });
        } catch (error) {
          if (!(error instanceof McpError)) throw error;
          if (error.kind === "server" && error.code === UNSUPPORTED_PROTOCOL_VERSION && !versionRetried) {
            const offered = readSupportedVersions(error.data) ?? [];
            const mutual = pickMutualVersion(offered, protocolVersion);
            if (mutual === undefined) {
              const theirs = offered.join(", ") || "none listed";
              throw new McpError("server", `${error.message}; the server supports ${theirs}, mca supports ${SUPPORTED_VERSIONS.join(", ")}`, error.code, error.data);
            }
            versionRetried = true;
            protocolVersion = mutual;
            continue;
          }
          if (error.kind === "broken" && resendableWhenBroken(method) && !resent) {
            resent = true;
            continue;
          }
          throw error;
        }
      }
    } finally {
      detach();
    }
  }

  async function discover(): Promise<DiscoverInfo> {
    const info = parseDiscoverResult(await exchange("server/discover", {}, {}), protocolVersion);
    if (info instanceof Error) throw new McpError("protocol", `${label}: server/discover: ${info.message}`);
    protocolVersion = info.protocolVersion;
    return info;
  }

  async function probe(probeOptions: { readonly timeoutMs?: number } = {}): Promise<ProbeVerdict> {
    let verdict: ProbeVerdict | McpError;
    try {
      verdict = judgeDiscoverResult(await exchange("server/discover", {}, probeOptions), protocolVersion, label);
    } catch (error) {
      if (!(error instanceof McpError)) throw error;
      verdict = judgeProbeFailure(error, transport.kind);
    }
    if (verdict instanceof McpError) throw verdict;
    if (verdict.era === "modern") protocolVersion = verdict.info.protocolVersion;
    return verdict;
  }

  async function initializeLegacy(): Promise<LegacyServerInfo> {
    legacy = true;
    const channel = { request: (method: string, params: JsonObject) => peer.request(method, params), notify: (method: string) => peer.notify(method) };
    const info = await runLegacyHandshake(channel, clientVersion, label);
    // From here on `_meta` names the agreed version; over HTTP it is also the MCP-Protocol-Version header.
    protocolVersion = info.protocolVersion;
    return info;
  }

  /** On HTTP, `x-mcp-header` declarations decide headers; a tool whose declarations are invalid is dropped. */
  function acceptParamHeaders(tool: RemoteToolInfo): boolean {
    if (transport.kind !== "http") return true;
    const specs = readParamHeaderSpecs(tool.inputSchema);
    if (specs instanceof Error) {
      warn(`${label}: dropping tool "${tool.name}": ${specs.message}`);
      return false;
    }
    paramHeaderSpecs.set(tool.name, specs);
    return true;
  }

  async function listTools(): Promise<RemoteToolInfo[]> {
    const items = await collectPages({
      label,
      method: "tools/list",
      itemsKey: "tools",
      fetchPage: (cursor) => exchange("tools/list", cursor === undefined ? {} : { cursor }, {}),
    });
    paramHeaderSpecs.clear();
    const tools: RemoteToolInfo[] = [];
    const names = new Set<string>();
    for (const item of items) {
      const tool = parseRemoteTool(item);
      if (tool instanceof Error) {
        warn(`${label}: dropping a tool from tools/list: ${tool.message}`);
      } else if (names.has(tool.name)) {
        warn(`${label}: dropping a second tool named "${tool.name}": tool names must be unique per server`);
      } else if (acceptParamHeaders(tool)) {
        names.add(tool.name);
        tools.push(tool);
      }
    }
    return tools;
  }

  async function callTool(name: string, args: ToolArgs, callOptions: CallToolOptions = {}): Promise<CallToolOutcome> {
    const paramHeaders = transport.kind === "http" ? paramHeaderValues(paramHeaderSpecs.get(name) ?? [], args) : undefined;
    const { inputResponses, requestState } = callOptions;
    const params: JsonObject = { name, arguments: args };
    if (inputResponses !== undefined) params.inputResponses = inputResponses;
    if (requestState !== undefined) params.requestState = requestState;
    const result = await exchange("tools/call", params, callOptions, paramHeaders);
    const outcome = parseCallOutcome(result);
    if (outcome instanceof Error) throw new McpError("protocol", `${label}: tools/call ${name}: ${outcome.message}`);
    return outcome;
  }

  return {
    label,
    start: () => peer.start(),
    close: () => (closing ??= peer.close()),
    protocolVersion: () => protocolVersion,
    discover,
    probe,
    initializeLegacy,
    listTools,
    callTool,
    request: (method, params = {}, requestOptions = {}) => exchange(method, params, requestOptions),
  };
}
