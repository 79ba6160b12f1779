// The wire to one server: what the era negotiation speaks on before any client exists, and what the client
// it picks is then built over. It owns the peer over the transport, the protocol version in use (told to
// the HTTP transport's header table), the frozen `_meta` a 2026-07-28 request carries for that version,
// and who hears the server now: the negotiation first, then the client. It settles no era: which one the
// server speaks, and what a request of each carries, the negotiation and the clients decide.
import { describeError } from "../kernel/index.js";
import { createHeaderTable, type HeaderTable, type ParamHeaderTable } from "./http/headers.js";
import type { InputResponder } from "./input.js";
import type { JsonObject, JsonRpcNotification, JsonRpcRequest, McpError, Transport } from "./jsonrpc.js";
import { createNotificationRouter, createPeer, type NotificationListener, type NotificationRouter, type Peer, type ServerRequestAnswer } from "./peer.js";
import type { LogLevel } from "./server-log.js";
import { LATEST_VERSION, PROTOCOL_VERSION_KEY, SUPPORTED_VERSIONS } from "./versions.js";

const REQUEST_TIMEOUT_MS = 60_000;

const CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
const CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo";
export const LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel";

export interface WireOptions {
  readonly transport: Transport;
  /**
   * The table an HTTP transport was built with: the wire tells it the version in use, the client the
   * `x-mcp-header` declarations of each tools/list, and the transport reads from it what to send beside each message.
   */
  readonly headerTable?: HeaderTable;
  /** mca's own version (from package.json, read by whoever composes); display only. */
  readonly clientVersion: string;
  /** Sent as `clientCapabilities` on every request; `{}` declares no optional capability. */
  readonly capabilities?: JsonObject;
  readonly requestTimeoutMs?: number;
  /**
   * The versions mca says it speaks, newest first; requests start with the first. SUPPORTED_VERSIONS
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

/** Who hears what the server sends of its own: the negotiation while it runs, then the client it picked. */
interface Hearing {
  notification(notification: JsonRpcNotification): void;
  /** The answer to the server's request; undefined: a violation, warned about and left unanswered. */
  request(request: JsonRpcRequest): ServerRequestAnswer | Promise<ServerRequestAnswer> | undefined;
}

export interface Wire {
  /** The alias of the server: the `server` of every McpError raised on this wire. */
  readonly server: string;
  readonly peer: Peer;
  /** Progress and log messages to the calls that asked for them; the rest to `onNotification`. */
  readonly router: NotificationRouter;
  /** A progress token no other request on the wire has had: the router tells each progress message to one caller by it. */
  newProgressToken(): string;
  /** The `x-mcp-header` declarations of the tools listed last, in the header table. */
  readonly paramHeaders: ParamHeaderTable;
  readonly clientVersion: string;
  /** What mca declares on this wire; frozen. */
  readonly capabilities: Readonly<JsonObject>;
  readonly versions: readonly string[];
  readonly logLevel?: LogLevel;
  readonly inputResponder?: InputResponder;
  warn(message: string): void;
  /** The version requests carry now: the first of `versions` until a server makes mca pick another. The one source of it. */
  protocolVersion(): string;
  useVersion(version: string): void;
  /** The connection's frozen `_meta` for the version in use. */
  meta(): JsonObject;
  /**
   * From now on `hearing` hears the server. Before anyone does, its notifications are routed and its requests
   * left unanswered. The hand-over goes one way: to the negotiation (the legacy handshake), then to one
   * client, for good; handing it back, or to a second client, throws.
   */
  hear(who: Hearer, hearing: Hearing): void;
  start(): Promise<void>;
  /** Idempotent: fails whatever is still waiting, then closes the transport. */
  close(): Promise<void>;
}

/** Who may hear the server, in the order they may take it. */
const HEARERS = ["nobody", "negotiation", "client"] as const;
type Hearer = Exclude<(typeof HEARERS)[number], "nobody">;

interface RequestMetaInput {
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

export function createWire(options: WireOptions): Wire {
  const { transport, clientVersion } = options;
  const clientCapabilities = deepFreeze(structuredClone(options.capabilities ?? {}));
  const logLevelOfConnection = options.logLevel === undefined ? {} : { logLevel: options.logLevel };
  const versions = options.versions ?? SUPPORTED_VERSIONS;
  const warn = (message: string): void => options.onWarning?.(message);
  const router = createNotificationRouter((notification) => options.onNotification?.(notification));
  let protocolVersion = versions[0] ?? LATEST_VERSION;
  let meta = buildRequestMeta({ protocolVersion, clientCapabilities, clientVersion, ...logLevelOfConnection });
  const headerTable = options.headerTable ?? createHeaderTable();
  headerTable.speak(protocolVersion);
  let progressTokens = 0;
  let heardBy: (typeof HEARERS)[number] = "nobody";
  let hearing: Hearing = { notification: (notification) => router.route(notification), request: () => undefined };

  const peer = createPeer({
    transport,
    requestTimeoutMs: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    onNotification: (notification) => {
      try {
        if (notification.method === "notifications/message") options.onLog?.(notification.params);
        hearing.notification(notification);
      } catch (error) {
        warn(`a notification listener failed: ${describeError(error)}`);
      }
    },
    onRequest: (request) => hearing.request(request),
    onWarning: warn,
    ...(options.onClose === undefined ? {} : { onClose: options.onClose }),
  });

  return {
    server: transport.label,
    peer,
    router,
    newProgressToken: () => `mca-${(progressTokens += 1)}`,
    paramHeaders: headerTable.params,
    clientVersion,
    capabilities: clientCapabilities,
    versions,
    ...logLevelOfConnection,
    ...(options.inputResponder === undefined ? {} : { inputResponder: options.inputResponder }),
    warn,
    protocolVersion: () => protocolVersion,
    useVersion(version) {
      if (version === protocolVersion) return;
      protocolVersion = version;
      headerTable.speak(version);
      meta = buildRequestMeta({ protocolVersion, clientCapabilities, clientVersion, ...logLevelOfConnection });
    },
    meta: () => meta,
    hear(who, next) {
      if (HEARERS.indexOf(who) <= HEARERS.indexOf(heardBy)) throw new Error(`${transport.label}: the ${heardBy} hears this wire already, the ${who} cannot take it`);
      heardBy = who;
      hearing = next;
    },
    start: () => peer.start(),
    close: () => peer.close(),
  };
}
