// The MCP client for one server: it speaks one era at a time (what differs is asked of era-rules.ts, never
// tested here), owns the protocol version its requests speak
// and the `_meta` every request carries, retries a request once for each reason that allows it (-32022, a
// lost legacy session, a broken read-only exchange), follows lists to their end, and returns tool results as
// typed outcomes. Its failures are thrown McpErrors; the server's connection turns them into values.
import { describeError, type ToolArgs } from "../kernel/index.js";
import { parseCallOutcome, type CallToolOptions, type CallToolOutcome } from "./call-result.js";
import { parseDiscoverResult, type DiscoverInfo } from "./discover.js";
import { createHeaderTable, type HeaderTable } from "./http/headers.js";
import type { InputResponder } from "./input.js";
import { McpError, METHOD_NOT_FOUND, UNSUPPORTED_PROTOCOL_VERSION, type JsonObject, type Transport } from "./jsonrpc.js";
import { createLegacyRules, createModernRules, LOG_LEVEL_KEY, type EraRules } from "./era-rules.js";
import { createLegacyLifecycle, type LegacyServerInfo } from "./legacy-lifecycle.js";
import { changingLists, LISTEN_METHOD, openListSubscription, type ListKind, type ListSubscription } from "./list-changes.js";
import { createNotificationRouter, createPeer, type NotificationListener, type RequestOptions } from "./peer.js";
import { createResourceSubscriptions } from "./resource-subscriptions.js";
import type { LogLevel } from "./server-log.js";
import { listServerTools, type RemoteToolInfo } from "./tool-list.js";
import { LATEST_VERSION, pickMutualVersion, PROTOCOL_VERSION_KEY, readSupportedVersions, SUPPORTED_VERSIONS } from "./versions.js";

export type { CallToolOptions } from "./call-result.js";
export type { RequestOptions } from "./peer.js";

const REQUEST_TIMEOUT_MS = 60_000;

const CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
const CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo";


export interface McpClientOptions {
  readonly transport: Transport;
  /**
   * The table an HTTP transport was built with: the client tells it the version in use and the `x-mcp-header`
   * declarations of each tools/list, and the transport reads from it what to send beside each message.
   */
  readonly headerTable?: HeaderTable;
  /** mca's own version (from package.json, read by whoever composes); display only. */
  readonly clientVersion: string;
  /** Sent as `clientCapabilities` on every request; `{}` declares no optional capability. */
  readonly capabilities?: JsonObject;
  readonly requestTimeoutMs?: number;
  /**
   * The versions this client says it speaks, newest first; requests start with the first. SUPPORTED_VERSIONS
   * unless the self-test claims one no server supports, to meet a real server's -32022.
   */
  readonly versions?: readonly string[];
  /** Warnings of this connection (a dropped tool, a stray line); the composer says which server they are about. */
  readonly onWarning?: (message: string) => void;
  /** Answers a legacy server's own requests for input (elicitation, sampling, roots); ping is answered without it. */
  readonly inputResponder?: InputResponder;
  /**
   * The least severe log message the server is asked to send: in the 2026 era it goes in every request's
   * `_meta` (a request may ask for another); in the legacy era, by `logging/setLevel` once after
   * `initialize` when the server declares logging. Absent: no log messages are asked for.
   */
  readonly logLevel?: LogLevel;
  /** Every `notifications/message`, whichever request it belongs to, before it is routed. */
  readonly onLog?: (params: JsonObject | undefined) => void;
  /** Notifications that belong to no call in flight (or to a call that did not ask for them). */
  readonly onNotification?: NotificationListener;
  /** The connection ended on its own (the child exited, the transport gave up); not called for close(). */
  readonly onClose?: (reason: McpError) => void;
}

export interface McpClient {
  /** The alias of the server: the `server` of every McpError of this client. */
  readonly server: string;
  start(): Promise<void>;
  close(): Promise<void>;
  /** The version requests carry now: LATEST_VERSION until a server makes us pick another. The one source of it. */
  protocolVersion(): string;
  /** `server/discover`; the version it agrees on is adopted. */
  discover(): Promise<DiscoverInfo>;
  /** The server answered the era probe as a modern server: requests speak its version, and the legacy lifecycle ends. */
  adoptModern(info: DiscoverInfo): void;
  /**
   * The 2025-11-25 lifecycle; afterwards requests speak the agreed version and the server's own requests are
   * answered. Aborted by `signal` (a late modern answer to the probe won), it changes nothing.
   */
  initializeLegacy(signal?: AbortSignal): Promise<LegacyServerInfo>;
  /**
   * What the server said of itself when the era was settled (`server/discover`, or `initialize`): the
   * capabilities it declares (`{}` before that) and its instructions for the model.
   */
  serverCapabilities(): JsonObject;
  instructions(): string | undefined;
  /** Every page, then the first `maxTools` tools (MAX_TOOLS_PER_SERVER by default); the rest refused with one warning. */
  listTools(maxTools?: number): Promise<RemoteToolInfo[]>;
  callTool(name: string, args: ToolArgs, options?: CallToolOptions): Promise<CallToolOutcome>;
  /** How many times a legacy HTTP server's lost session was replaced by a new one. */
  sessionRenewals(): number;
  /** Any other request (resources/list, resources/read, prompts/get…): the raw result object. */
  request(method: string, params?: JsonObject, options?: RequestOptions): Promise<JsonObject>;
  /**
   * Tells `onChange` each time one of the server's lists changes, from now until close(): a legacy server's
   * `notifications/<kind>/list_changed`; for a 2026-07-28 server, one subscriptions/listen for the kinds its
   * capabilities say may change (none: nothing is opened).
   */
  watchLists(onChange: (kind: ListKind) => void): void;
  /** The kinds an open subscription's acknowledgement accepted: the changes a 2026-07-28 server reports now. */
  subscribedLists(): readonly ListKind[];
  /**
   * Hears from now until close() when `uri` (read by mca) changes, if the server declares
   * `resources.subscribe` (resource-subscriptions.ts); close() unsubscribes. Never rejects.
   */
  watchResource(uri: string, onUpdated: (uri: string) => void): Promise<void>;
  /** The resources watched now. */
  watchedResources(): readonly string[];
}

export interface RequestMetaInput {
  readonly protocolVersion: string;
  readonly clientCapabilities: JsonObject;
  /** Display only: "self-reported; display/logging only", never a security input. */
  readonly clientVersion: string;
  /** The connection's own log level, asked for on every request. */
  readonly logLevel?: LogLevel;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * The `_meta` every 2026-07-28 request carries in its params (it replaces `initialize`): version,
 * capabilities, client info and the connection's log level. It is the same for every request of a connection until the version
 * changes, so it is built once, frozen, and shared: nothing one request carries can leak into another.
 */
export function buildRequestMeta(input: RequestMetaInput): JsonObject {
  return deepFreeze({
    [PROTOCOL_VERSION_KEY]: input.protocolVersion,
    [CLIENT_CAPABILITIES_KEY]: structuredClone(input.clientCapabilities),
    [CLIENT_INFO_KEY]: { name: "mca", version: input.clientVersion },
    ...(input.logLevel === undefined ? {} : { [LOG_LEVEL_KEY]: input.logLevel }),
  });
}

export function createMcpClient(options: McpClientOptions): McpClient {
  const { transport, clientVersion } = options;
  const server = transport.label;
  const clientCapabilities = structuredClone(options.capabilities ?? {});
  const logLevelOfConnection = options.logLevel === undefined ? {} : { logLevel: options.logLevel };
  const versions = options.versions ?? SUPPORTED_VERSIONS;
  const warn = (message: string): void => options.onWarning?.(message);
  const router = createNotificationRouter((notification) => options.onNotification?.(notification));
  let protocolVersion = versions[0] ?? LATEST_VERSION;
  let baseMeta = buildRequestMeta({ protocolVersion, clientCapabilities, clientVersion, ...logLevelOfConnection });
  let progressTokens = 0;
  /** The tools being called, latest last: a legacy server's request for input names none, so it is taken to be about the latest. */
  const toolsInFlight: string[] = [];
  /** Where the transport reads the version in use and the `x-mcp-header` declarations of the tools listed last. */
  const headerTable = options.headerTable ?? createHeaderTable();
  headerTable.speak(protocolVersion);
  const paramHeaders = headerTable.params;
  let closing: Promise<void> | undefined;
  /** The server's own description, from the answer that settled its era. */
  let described: { readonly capabilities: JsonObject; readonly instructions?: string } = { capabilities: {} };
  /** Who hears a legacy server's list changes, and the subscriptions open on a modern one: all ended by close(). */
  const listWatchers = new Set<(kind: ListKind) => void>();
  const subscriptions = new Set<ListSubscription>();

  function useVersion(version: string): void {
    if (version === protocolVersion) return;
    protocolVersion = version;
    headerTable.speak(version);
    baseMeta = buildRequestMeta({ protocolVersion, clientCapabilities, clientVersion, ...logLevelOfConnection });
  }

  const peer = createPeer({
    transport,
    requestTimeoutMs: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    onNotification: (notification) => {
      try {
        if (notification.method === "notifications/message") options.onLog?.(notification.params);
        if (resources.take(notification)) return;
        // A legacy server's list changes come by themselves; a modern one's only on a subscription (routed).
        const changed = rules.listChangeOf(notification);
        if (changed === undefined) router.route(notification);
        else for (const watcher of listWatchers) watcher(changed);
      } catch (error) {
        warn(`a notification listener failed: ${describeError(error)}`);
      }
    },
    // Only a legacy server may send requests; a 2026 server's are a violation, warned about and left unanswered.
    onRequest: (request) => rules.answer(request, toolsInFlight.at(-1) ?? ""),
    onWarning: warn,
    ...(options.onClose === undefined ? {} : { onClose: options.onClose }),
  });
  const resources = createResourceSubscriptions({
    era: () => rules.era,
    capabilities: () => described.capabilities,
    request: (method, params, requestOptions) => exchange(method, params, requestOptions),
    listen: (params, onNotification, signal) => listen(params, onNotification, signal),
    warn,
  });
  /**
   * The version `initialize` agreed: while requests speak it, they carry only what its revision defines (a
   * -32022 may move a legacy server's connection to a 2026 version, and `_meta` with it).
   */
  let agreedVersion: string | undefined;
  const agreeVersion = (version: string): void => {
    agreedVersion = version;
    useVersion(version);
  };
  const legacy = createLegacyLifecycle({ peer, server, clientVersion, capabilities: clientCapabilities, ...logLevelOfConnection, warn, useVersion: agreeVersion });
  const modernRules = createModernRules({ meta: () => baseMeta, ...logLevelOfConnection });
  const legacyRules = createLegacyRules({
    server,
    lifecycle: legacy,
    ...(options.inputResponder === undefined ? {} : { inputResponder: options.inputResponder }),
    speaksAgreedVersion: () => protocolVersion === agreedVersion,
    modern: modernRules,
  });
  /** One era at a time: the legacy rules from the handshake on, until a late modern answer to the probe wins. */
  let rules: EraRules = modernRules;

  /** -32022 UnsupportedProtocolVersion: once, switch to a version both sides speak, else say what each side speaks. */
  async function retryOnOtherVersion(attempt: () => Promise<JsonObject>): Promise<JsonObject> {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof McpError) || error.kind !== "server" || error.code !== UNSUPPORTED_PROTOCOL_VERSION) throw error;
      const offered = readSupportedVersions(error.data) ?? [];
      const mutual = pickMutualVersion(offered.filter((version) => versions.includes(version)), protocolVersion);
      if (mutual === undefined) {
        const theirs = offered.join(", ") || "none listed";
        const text = `${error.message}; the server supports ${theirs}, mca supports ${versions.join(", ")}`;
        throw new McpError("server", text, { server, code: error.code, data: error.data });
      }
      useVersion(mutual);
      return attempt();
    }
  }

  /** A failure the era can mend (a legacy HTTP server that lost the session: a new one): once, then the request again. */
  async function retryInNewSession(attempt: () => Promise<JsonObject>): Promise<JsonObject> {
    try {
      return await attempt();
    } catch (error) {
      if (!(await rules.recover(error))) throw error;
      return attempt();
    }
  }

  /** An exchange broken before its answer: sent once more, only where a request has no side effects (never a tools/call). */
  async function resendWhenBroken(method: string, attempt: () => Promise<JsonObject>): Promise<JsonObject> {
    try {
      return await attempt();
    } catch (error) {
      const resendable = method === "server/discover" || method.endsWith("/list");
      if (!(error instanceof McpError) || error.kind !== "broken" || !resendable) throw error;
      return attempt();
    }
  }

  async function exchange(method: string, params: JsonObject, requestOptions: RequestOptions): Promise<JsonObject> {
    const { signal, timeoutMs, wantProgress, onNotification } = requestOptions;
    const logLevel = requestOptions.logLevel ?? options.logLevel;
    // One token per logical request: an attempt that failed is no longer active, so a retry may reuse it.
    const progressToken = wantProgress ? `mca-${(progressTokens += 1)}` : undefined;
    const detach = onNotification && router.attach({ progressToken, wantsLogs: logLevel !== undefined }, onNotification);
    const peerOptions = signal === undefined && timeoutMs === undefined ? undefined : { signal, timeoutMs };
    // Each attempt builds `_meta` anew: a version switch changes it.
    const send = (): Promise<JsonObject> => peer.request(method, rules.withMeta(params, progressToken, logLevel), peerOptions);
    try {
      const result = await retryOnOtherVersion(() => retryInNewSession(() => resendWhenBroken(method, send)));
      // A tool whose header declarations are invalid is dropped as the page arrives; a first page starts the table over.
      return method === "tools/list" ? paramHeaders.screen(result, params.cursor === undefined, warn) : result;
    } finally {
      detach?.();
    }
  }

  async function discover(): Promise<DiscoverInfo> {
    const info = parseDiscoverResult(await exchange("server/discover", {}, {}), protocolVersion);
    if (info instanceof Error) throw new McpError("protocol", `server/discover: ${info.message}`, { server });
    described = info;
    useVersion(info.protocolVersion);
    return info;
  }

  function adoptModern(info: DiscoverInfo): void {
    rules = modernRules;
    described = info;
    useVersion(info.protocolVersion);
  }

  async function initializeLegacy(signal?: AbortSignal): Promise<LegacyServerInfo> {
    rules = legacyRules;
    const info = await legacy.initialize(signal);
    described = info;
    return info;
  }

  /**
   * A server that offers only resources or prompts declares no `tools` and may refuse `tools/list` with
   * -32601: it then has no tools, and still comes up. One that declares tools and refuses has failed.
   */
  async function listTools(maxTools?: number): Promise<RemoteToolInfo[]> {
    const fetchPage = (cursor: string | undefined): Promise<JsonObject> => exchange("tools/list", cursor === undefined ? {} : { cursor }, {});
    try {
      return await listServerTools({ server, maxTools, fetchPage, warn });
    } catch (error) {
      const declaresTools = described.capabilities.tools !== undefined;
      if (!declaresTools && error instanceof McpError && error.kind === "server" && error.code === METHOD_NOT_FOUND) return [];
      throw error;
    }
  }

  async function callTool(name: string, args: ToolArgs, callOptions: CallToolOptions = {}): Promise<CallToolOutcome> {
    const { inputResponses, requestState } = callOptions;
    const params: JsonObject = { name, arguments: args };
    if (inputResponses !== undefined) params.inputResponses = inputResponses;
    if (requestState !== undefined) params.requestState = requestState;
    toolsInFlight.push(name);
    let result: JsonObject;
    try {
      result = await exchange("tools/call", params, callOptions);
    } finally {
      toolsInFlight.splice(toolsInFlight.lastIndexOf(name), 1);
    }
    const outcome = parseCallOutcome(result);
    if (outcome instanceof Error) throw new McpError("protocol", `tools/call ${name}: ${outcome.message}`, { server });
    return outcome;
  }

  /** One subscriptions/listen: no deadline, and its notifications (they name its id) routed to `onNotification`. */
  function listen(params: JsonObject, onNotification: NotificationListener, signal: AbortSignal): Promise<JsonObject> {
    let detach: (() => void) | undefined;
    const onSent = (id: number): void => {
      detach?.();
      detach = router.attachListen(id, onNotification);
    };
    const send = (): Promise<JsonObject> => peer.request(LISTEN_METHOD, rules.withMeta(params, undefined, undefined), { noDeadline: true, signal, onSent });
    return retryOnOtherVersion(send).finally(() => detach?.());
  }

  function watchLists(onChange: (kind: ListKind) => void): void {
    if (closing !== undefined) return;
    rules.watchLists(onChange, { byNotification: (listener) => listWatchers.add(listener), bySubscription: subscribeToLists });
  }

  function subscribeToLists(onChange: (kind: ListKind) => void): void {
    const kinds = changingLists(described.capabilities);
    if (kinds.length === 0) return;
    const subscription = openListSubscription(kinds, { listen, onChange, warn });
    subscriptions.add(subscription);
    void subscription.ended.then(() => subscriptions.delete(subscription));
  }

  /** Subscriptions end first, while the connection can still say so (stdio: `notifications/cancelled`). */
  function close(): Promise<void> {
    closing ??= (() => {
      listWatchers.clear();
      for (const subscription of subscriptions) subscription.close();
      return resources.close().then(() => peer.close());
    })();
    return closing;
  }

  return {
    server,
    start: () => peer.start(),
    close,
    protocolVersion: () => protocolVersion,
    discover,
    adoptModern,
    initializeLegacy,
    serverCapabilities: () => described.capabilities,
    instructions: () => described.instructions,
    listTools,
    callTool,
    sessionRenewals: () => legacy.sessionRenewals(),
    request: (method, params = {}, requestOptions = {}) => exchange(method, params, requestOptions),
    watchLists,
    subscribedLists: () => [...new Set([...subscriptions].flatMap((subscription) => subscription.accepted() ?? []))],
    watchResource: (uri, onUpdated) => resources.watch(uri, onUpdated),
    watchedResources: () => resources.watched(),
  };
}
