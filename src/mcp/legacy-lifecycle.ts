// The 2025-11-25 lifecycle mca runs behind the client with a legacy server
// (https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle): `initialize` with the version,
// capabilities and client info, the server's answer checked, then `notifications/initialized`; a new session
// when an HTTP server lost the old one; and an answer to each request the server sends of its own.
import { describeError } from "../kernel/index.js";
import { readServerInfo, type ServerInfo } from "./discover.js";
import { answerLegacyInputRequest, type InputResponder, type LegacyAskContext } from "./input.js";
import { isJsonObject, McpError, METHOD_NOT_FOUND, type JsonObject, type JsonRpcRequest } from "./jsonrpc.js";
import type { Peer, ServerRequestAnswer } from "./peer.js";
import type { LogLevel } from "./server-log.js";
import { HttpFailure } from "./http/failure.js";
import { LEGACY_VERSION, LEGACY_VERSIONS } from "./versions.js";

export interface LegacyServerInfo {
  /** The version the server chose; every later request on the connection speaks it. */
  readonly protocolVersion: string;
  readonly capabilities: JsonObject;
  readonly instructions?: string;
  /** Self-reported; for display only. */
  readonly serverInfo?: ServerInfo;
}

/**
 * The capabilities are the ones every modern request declares in `_meta`: what the input responder answers
 * (answerLegacyServerRequest), so that a server neither hides the tools that need them nor asks for more.
 */
export function initializeParams(clientVersion: string, capabilities: JsonObject = {}): JsonObject {
  return { protocolVersion: LEGACY_VERSION, capabilities: structuredClone(capabilities), clientInfo: { name: "mca", version: clientVersion } };
}

export function parseInitializeResult(result: JsonObject): LegacyServerInfo | Error {
  const { protocolVersion, capabilities, instructions } = result;
  if (typeof protocolVersion !== "string") return new Error("`protocolVersion` is not a string");
  // 2025-11-25 lifecycle: "If the client does not support the version in the server's response, it SHOULD disconnect."
  if (!LEGACY_VERSIONS.includes(protocolVersion)) {
    return new Error(`the server chose protocol version ${protocolVersion}; with initialize mca speaks ${LEGACY_VERSIONS.join(", ")}`);
  }
  if (capabilities !== undefined && !isJsonObject(capabilities)) return new Error("`capabilities` is not an object");
  const serverInfo = readServerInfo(result.serverInfo);
  return {
    protocolVersion,
    capabilities: capabilities ?? {},
    ...(typeof instructions === "string" ? { instructions } : {}),
    ...(serverInfo ? { serverInfo } : {}),
  };
}

/** The requests a 2025-11-25 server sends to ask for input: the ones the responder answers. */
const INPUT_REQUEST_METHODS: readonly string[] = ["elicitation/create", "sampling/createMessage", "roots/list"];

/**
 * What mca answers when a legacy server sends a request of its own: such servers wait for an answer, so
 * each one gets one. 2025-11-25 lifecycle: "The receiver MUST respond promptly with an empty response" to
 * `ping`. elicitation/create, sampling/createMessage and roots/list go to the input responder (the one that
 * answers `input_required` in the modern era), under the capabilities `initialize` declared; anything
 * else, or any of them without a responder, gets -32601 at once instead of leaving the server waiting.
 */
export function answerLegacyServerRequest(
  request: JsonRpcRequest,
  responder?: InputResponder,
  context: LegacyAskContext = { server: "", tool: "" },
): ServerRequestAnswer | Promise<ServerRequestAnswer> {
  if (request.method === "ping") return { result: {} };
  if (responder !== undefined && INPUT_REQUEST_METHODS.includes(request.method)) {
    return answerLegacyInputRequest(request.method, request.params ?? {}, responder, context);
  }
  return { error: { code: METHOD_NOT_FOUND, message: `mca does not offer ${request.method}` } };
}

// ---------------------------------------------------------------------------------------------------
// The lifecycle of one connection.

export interface LegacyLifecycleOptions {
  readonly peer: Peer;
  /** The alias: the `server` of the McpErrors raised here. */
  readonly server: string;
  readonly clientVersion: string;
  readonly capabilities: JsonObject;
  /** Asked for by `logging/setLevel` once after `initialize`, when the server declares logging. */
  readonly logLevel?: LogLevel;
  readonly warn: (message: string) => void;
  /** Told the version `initialize` agreed: from then on every request speaks it. */
  readonly useVersion: (version: string) => void;
}

export interface LegacyLifecycle {
  /**
   * The handshake. Aborted by `signal` (a late modern answer to the probe won) before `initialize` is
   * answered, it sends nothing more; after, `notifications/initialized` may have gone already, but
   * `logging/setLevel` is not sent.
   */
  initialize(signal?: AbortSignal): Promise<LegacyServerInfo>;
  /**
   * 2025-11-25: on a 404 to a request with a session id the client "MUST start a new session by sending a
   * new InitializeRequest". Requests that meet the 404 together share one new handshake.
   */
  renewSession(): Promise<void>;
  /** How many times a lost session was replaced by a new one. */
  sessionRenewals(): number;
}

export function createLegacyLifecycle(options: LegacyLifecycleOptions): LegacyLifecycle {
  const { peer, server, warn } = options;
  let renewing: Promise<void> | undefined;
  let sessionRenewals = 0;

  /** A server that refuses its own declared logging still serves its tools: the refusal is only a warning. */
  async function setLogLevel(level: LogLevel): Promise<void> {
    try {
      await peer.request("logging/setLevel", { level });
    } catch (error) {
      warn(`logging/setLevel ${level} failed: ${describeError(error)}`);
    }
  }

  /** `initialize` (without `_meta`: it predates it), the answer checked, then `notifications/initialized`. */
  async function initialize(signal?: AbortSignal): Promise<LegacyServerInfo> {
    const params = initializeParams(options.clientVersion, options.capabilities);
    const answer = await peer.request("initialize", params, signal === undefined ? undefined : { signal });
    signal?.throwIfAborted();
    const info = parseInitializeResult(answer);
    if (info instanceof Error) throw new McpError("protocol", `initialize: ${info.message}`, { server });
    // From here on `_meta` names the agreed version, and so does MCP-Protocol-Version over HTTP — the
    // `notifications/initialized` that follows included.
    options.useVersion(info.protocolVersion);
    await peer.notify("notifications/initialized");
    signal?.throwIfAborted();
    if (options.logLevel !== undefined && info.capabilities.logging !== undefined) await setLogLevel(options.logLevel);
    return info;
  }

  function renewSession(): Promise<void> {
    renewing ??= initialize()
      .then(() => {
        sessionRenewals += 1;
        warn("the server no longer knew mca's session (HTTP 404; it may have restarted): a new session was started");
      })
      .catch((error: unknown) => {
        const text = `the server no longer knew mca's session (HTTP 404), and a new one could not be started: ${describeError(error)}`;
        throw new HttpFailure(error instanceof McpError ? error.kind : "protocol", text, { server, status: 404, sessionExpired: true });
      })
      .finally(() => {
        renewing = undefined;
      });
    return renewing;
  }

  return { initialize, renewSession, sessionRenewals: () => sessionRenewals };
}
