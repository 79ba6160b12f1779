// One server's era, settled when mca connects (spec §8): probe with `server/discover` — a modern answer keeps
// it modern, any other answer means legacy (never keyed on one error code), and what proves nothing about
// the era (auth, a dead HTTP server) stays an error — then stay modern or run the 2025-11-25 handshake, on a
// fresh child when the first one died of the probe.
import type { McpClient } from "./client.js";
import { isJsonObject, McpError, METHOD_NOT_FOUND, UNSUPPORTED_PROTOCOL_VERSION, type JsonObject, type JsonRpcRequest } from "./jsonrpc.js";
import { answerLegacyInputRequest, type InputResponder, type LegacyAskContext } from "./input.js";
import type { ServerRequestAnswer } from "./peer.js";
import { isLegacyVersion, LEGACY_VERSION, LEGACY_VERSIONS, pickMutualVersion, readSupportedVersions, SUPPORTED_VERSIONS } from "./versions.js";

/** The spec asks for "a reasonable timeout" on the stdio probe and names no value; a silent server costs this. */
const PROBE_TIMEOUT_MS = 5000;
const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";

export type Era = "modern" | "legacy";

export interface ServerInfo {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
}

function readServerInfo(value: unknown): ServerInfo | undefined {
  if (!isJsonObject(value) || typeof value.name !== "string" || typeof value.version !== "string") return undefined;
  const info = { name: value.name, version: value.version };
  return typeof value.title === "string" ? { ...info, title: value.title } : info;
}

// ---------------------------------------------------------------------------------------------------
// What `server/discover` tells about a modern server (spec §2): the versions it speaks, its capabilities,
// its instructions and its identity — read from `result._meta`, or from a body `serverInfo`.

export interface DiscoverInfo {
  /** The version this client will use with the server from now on. */
  readonly protocolVersion: string;
  readonly supportedVersions: readonly string[];
  readonly capabilities: JsonObject;
  readonly instructions?: string;
  /** Self-reported; for display only. */
  readonly serverInfo?: ServerInfo;
}

export function parseDiscoverResult(result: JsonObject, currentVersion: string): DiscoverInfo | Error {
  const { supportedVersions, capabilities, instructions } = result;
  if (!Array.isArray(supportedVersions) || !supportedVersions.every((v): v is string => typeof v === "string")) {
    return new Error("`supportedVersions` is not a list of strings");
  }
  if (capabilities !== undefined && !isJsonObject(capabilities)) return new Error("`capabilities` is not an object");
  const protocolVersion = pickMutualVersion(supportedVersions, currentVersion);
  if (protocolVersion === undefined) {
    return new Error(
      `no protocol version in common: the server supports ${supportedVersions.join(", ") || "none"}; mca supports ${SUPPORTED_VERSIONS.join(", ")}`,
    );
  }
  // Spec: identity goes in `_meta` ("not a body serverInfo field"), but conformance mocks still use the body.
  const meta = isJsonObject(result._meta) ? result._meta : {};
  const serverInfo = readServerInfo(meta[SERVER_INFO_KEY]) ?? readServerInfo(result.serverInfo);
  return {
    protocolVersion,
    supportedVersions,
    capabilities: capabilities ?? {},
    ...(typeof instructions === "string" ? { instructions } : {}),
    ...(serverInfo ? { serverInfo } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------
// The probe's verdict (spec §8 "Detection rules").

export type ProbeVerdict =
  | { readonly era: "modern"; readonly info: DiscoverInfo }
  /** `connectionLost`: the stdio child died of the probe, so `initialize` needs a fresh one. */
  | { readonly era: "legacy"; readonly evidence: string; readonly connectionLost: boolean };

export interface ProbeOptions {
  /**
   * What silence and death mean: over stdio, no answer within the timeout or an exit on the probe is
   * evidence of a legacy server; over HTTP they prove nothing and stay errors.
   */
  readonly transport: "stdio" | "http";
  readonly timeoutMs?: number;
  /** Aborted once the era is settled otherwise (initialize won the race): the probe's answer then changes nothing. */
  readonly signal?: AbortSignal;
}

function legacy(evidence: string, connectionLost = false): ProbeVerdict {
  return { era: "legacy", evidence, connectionLost };
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item): item is string => typeof item === "string") ? value : undefined;
}

/** A result to the probe: a DiscoverResult with a version in common is modern, anything else legacy. */
export function judgeDiscoverResult(result: JsonObject, currentVersion: string, server: string): ProbeVerdict | McpError {
  // "Absent resultType (legacy server)": a 2026 result always carries it.
  if (result.resultType === undefined) return legacy("server/discover answered a result without resultType");
  if (result.resultType !== "complete") return legacy(`server/discover answered a result of type ${JSON.stringify(result.resultType)}`);
  const info = parseDiscoverResult(result, currentVersion);
  if (!(info instanceof Error)) return { era: "modern", info };
  const offered = stringList(result.supportedVersions);
  if (offered === undefined) return legacy(`server/discover answered something that is not a DiscoverResult (${info.message})`);
  if (offered.some(isLegacyVersion)) return legacy(`server/discover offered only ${offered.join(", ")}`);
  return new McpError("protocol", `server/discover: ${info.message}`, { server });
}

/**
 * -32022 is the one modern error that names versions: one in common proves a modern server (the client
 * has already retried with it), never a fallback; a list of legacy versions only means legacy.
 */
function judgeUnsupportedVersion(error: McpError): ProbeVerdict | McpError {
  const offered = readSupportedVersions(error.data);
  if (offered === undefined) return legacy(`server/discover answered ${error.code} without a list of supported versions`);
  if (SUPPORTED_VERSIONS.some((version) => offered.includes(version))) return error;
  if (offered.some(isLegacyVersion)) return legacy(`server/discover answered ${error.code} offering only ${offered.join(", ")}`);
  return error;
}

/** A probe that failed: what the failure says about the era, or the failure itself when it says nothing. */
export function judgeProbeFailure(error: McpError, transport: ProbeOptions["transport"]): ProbeVerdict | McpError {
  // "HTTP 401/403 ⇒ auth error (never era evidence); HTTP 5xx ⇒ error" (the TS SDK's probe classifier).
  const status = error.httpStatus;
  if (status === 401 || status === 403 || (status !== undefined && status >= 500)) return error;
  switch (error.kind) {
    case "server":
      if (error.code === UNSUPPORTED_PROTOCOL_VERSION) return judgeUnsupportedVersion(error);
      return legacy(`server/discover answered error ${String(error.code)}`);
    case "protocol":
      // An unparseable reply, or a 400/404 without a modern error body.
      return legacy(`server/discover got no modern answer: ${error.message}`);
    case "timeout":
      // "No answer within a timeout ⇒ legacy" is a stdio rule; over HTTP a timeout proves nothing.
      return transport === "stdio" ? legacy(`server/discover got no answer: ${error.message}`) : error;
    case "closed":
      return transport === "stdio" ? legacy(`the server exited on server/discover: ${error.message}`, true) : error;
    case "broken":
    case "unreachable":
    case "aborted":
    case "unavailable":
      return error;
    default: {
      const unknown: never = error.kind;
      throw new Error(`unknown error kind ${String(unknown)}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// The 2025-11-25 lifecycle mca runs with a legacy server (spec §8 "Fallback handshake"): `initialize` with
// the version, capabilities and client info, the server's answer checked, then `notifications/initialized`.

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
// The negotiation.

export interface NegotiatedEra {
  readonly client: McpClient;
  readonly era: Era;
}

export interface NegotiateOptions {
  readonly transport: ProbeOptions["transport"];
  /** stdio only; over HTTP the probe waits as long as any request. */
  readonly probeTimeoutMs?: number;
}

/**
 * `open` starts a fresh client (on stdio, a fresh child); it is called a second time only after the child
 * died. On failure the client it opened last is closed before the error is passed on. The version agreed
 * is the client's own (`client.protocolVersion()`): it is kept nowhere else.
 */
export async function negotiateEra(open: () => Promise<McpClient>, options: NegotiateOptions): Promise<NegotiatedEra> {
  let client = await open();
  try {
    const { transport } = options;
    if (transport === "http") {
      // Over HTTP the probe waits as long as any request: silence proves nothing about the era there.
      const verdict = await client.probe({ transport });
      if (verdict.era === "modern") return { client, era: "modern" };
      await client.initializeLegacy();
      return { client, era: "legacy" };
    }
    const probeStop = new AbortController();
    const probing = client.probe({ transport, signal: probeStop.signal });
    const early = await answeredWithin(probing, options.probeTimeoutMs ?? PROBE_TIMEOUT_MS);
    if (early === LATE) return { client, era: await raceLateProbe(client, probing, probeStop) };
    if (early.era === "modern") return { client, era: "modern" };
    if (early.connectionLost) {
      // Some legacy servers exit on any request before `initialize`: restart once and go straight to it.
      await client.close();
      client = await open();
    }
    await client.initializeLegacy();
    return { client, era: "legacy" };
  } catch (error) {
    await client.close();
    throw error;
  }
}

/** What `answeredWithin` gives when `limitMs` passed first. */
export const LATE: unique symbol = Symbol("late");

/** `pending`'s value if it settled within `limitMs` (its failure, thrown), else LATE; `pending` goes on either way. */
export async function answeredWithin<T>(pending: Promise<T>, limitMs: number): Promise<T | typeof LATE> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), limitMs);
  });
  try {
    return await Promise.race([pending, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * No answer to the probe in time (a cold `npx -y` server can take 15 s). The spec lets the client fall back
 * to `initialize`, but nothing makes it discard the probe's answer: both stay open, and the first decisive
 * answer settles the era. A modern answer to the probe wins whenever it comes (the server's error to
 * `initialize` is then ignored); a successful `initialize` makes the server legacy. When one fails, the other
 * decides; when both fail, the error of `initialize` is the one reported.
 */
function raceLateProbe(client: McpClient, probing: Promise<ProbeVerdict>, probeStop: AbortController): Promise<Era> {
  const initializeStop = new AbortController();
  const initializing = client.initializeLegacy(initializeStop.signal);
  return new Promise<Era>((resolve, reject) => {
    let pending = 2;
    let initializeError: unknown;
    const settledOne = (): void => {
      pending -= 1;
      if (pending === 0) reject(initializeError);
    };
    probing.then(
      (verdict) => {
        if (verdict.era !== "modern") return settledOne();
        initializeStop.abort();
        resolve("modern");
      },
      () => settledOne(),
    );
    initializing.then(
      () => {
        probeStop.abort();
        resolve("legacy");
      },
      (error: unknown) => {
        initializeError = error;
        settledOne();
      },
    );
  });
}
