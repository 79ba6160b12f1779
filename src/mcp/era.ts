// One server's era, settled when mca connects: probe with `server/discover` — a modern answer keeps it
// modern, any other answer means legacy (never keyed on one error code), and what proves nothing about the
// era (auth, a dead HTTP server) stays an error — then stay modern or run the 2025-11-25 handshake, on a
// fresh child when the first one died of the probe — all on the wire, before any client exists; then the
// client of the era settled is built over it. A server whose era is known (a restart) is still asked: a
// modern one by `server/discover`, judged as the probe's answer is. The 2026-07-28 revision's rules for this are in
// https://modelcontextprotocol.io/specification/2026-07-28/basic/lifecycle (backwards compatibility).
import type { McpClient } from "./client.js";
import { parseDiscoverResult, type DiscoverInfo } from "./discover.js";
import { httpStatusOf } from "./http/failure.js";
import { McpError, UNSUPPORTED_PROTOCOL_VERSION, type JsonObject } from "./jsonrpc.js";
import { createLegacyClient, handshake, openLegacyClient, type Handshaken } from "./legacy-client.js";
import { createModernClient, modernExchange } from "./modern-client.js";
import type { RequestOptions } from "./peer.js";
import { isLegacyVersion, readSupportedVersions, SUPPORTED_VERSIONS, type Era } from "./versions.js";
import type { Wire } from "./wire.js";

export type { Era } from "./versions.js";

/** The spec asks for "a reasonable timeout" on the stdio probe and names no value; a silent server costs this. */
const PROBE_TIMEOUT_MS = 5000;
// ---------------------------------------------------------------------------------------------------
// The probe's verdict: what an answer, or a failure, says about the era.

type ProbeVerdict =
  | { readonly era: "modern"; readonly info: DiscoverInfo }
  /** `connectionLost`: the stdio child died of the probe, so `initialize` needs a fresh one. */
  | { readonly era: "legacy"; readonly evidence: string; readonly connectionLost: boolean }
  /** The answer proves nothing about the era (auth, a dead HTTP server, a modern server's error): the start fails with it. */
  | { readonly era: "unknown"; readonly failure: McpError };

interface ProbeOptions {
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

function unknown(failure: McpError): ProbeVerdict {
  return { era: "unknown", failure };
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item): item is string => typeof item === "string") ? value : undefined;
}

/** A result to the probe: a DiscoverResult with a version in common is modern, anything else legacy. */
export function judgeDiscoverResult(result: JsonObject, currentVersion: string, server: string): ProbeVerdict {
  // "Absent resultType (legacy server)": a 2026 result always carries it.
  if (result.resultType === undefined) return legacy("server/discover answered a result without resultType");
  if (result.resultType !== "complete") return legacy(`server/discover answered a result of type ${JSON.stringify(result.resultType)}`);
  const info = parseDiscoverResult(result, currentVersion);
  if (!(info instanceof Error)) return { era: "modern", info };
  const offered = stringList(result.supportedVersions);
  if (offered === undefined) return legacy(`server/discover answered something that is not a DiscoverResult (${info.message})`);
  if (offered.some(isLegacyVersion)) return legacy(`server/discover offered only ${offered.join(", ")}`);
  return unknown(new McpError("protocol", `server/discover: ${info.message}`, { server }));
}

/**
 * -32022 is the one modern error that names versions: one in common proves a modern server (the client
 * has already retried with it), never a fallback; a list of legacy versions only means legacy.
 */
function judgeUnsupportedVersion(error: McpError): ProbeVerdict {
  const offered = readSupportedVersions(error.data);
  if (offered === undefined) return legacy(`server/discover answered ${error.code} without a list of supported versions`);
  if (SUPPORTED_VERSIONS.some((version) => offered.includes(version))) return unknown(error);
  if (offered.some(isLegacyVersion)) return legacy(`server/discover answered ${error.code} offering only ${offered.join(", ")}`);
  return unknown(error);
}

/** A probe that failed: what the failure says about the era, or the failure itself when it says nothing. */
export function judgeProbeFailure(error: McpError, transport: ProbeOptions["transport"]): ProbeVerdict {
  // "HTTP 401/403 ⇒ auth error (never era evidence); HTTP 5xx ⇒ error" (the TS SDK's probe classifier).
  const status = httpStatusOf(error);
  if (status === 401 || status === 403 || (status !== undefined && status >= 500)) return unknown(error);
  switch (error.kind) {
    case "server":
      if (error.code === UNSUPPORTED_PROTOCOL_VERSION) return judgeUnsupportedVersion(error);
      return legacy(`server/discover answered error ${String(error.code)}`);
    case "protocol":
      // An unparseable reply, or a 400/404 without a modern error body.
      return legacy(`server/discover got no modern answer: ${error.message}`);
    case "timeout":
      // "No answer within a timeout ⇒ legacy" is a stdio rule; over HTTP a timeout proves nothing.
      return transport === "stdio" ? legacy(`server/discover got no answer: ${error.message}`) : unknown(error);
    case "closed":
      return transport === "stdio" ? legacy(`the server exited on server/discover: ${error.message}`, true) : unknown(error);
    case "broken":
    case "unreachable":
    case "aborted":
    case "unavailable":
      return unknown(error);
    default: {
      const unknown: never = error.kind;
      throw new Error(`unknown error kind ${String(unknown)}`);
    }
  }
}

/** `server/discover` as a 2026-07-28 request (a -32022 moves the wire to a version in common), its answer judged. */
async function askDiscover(wire: Wire, options: RequestOptions): Promise<ProbeVerdict> {
  const result = await modernExchange(wire).request("server/discover", {}, options);
  return judgeDiscoverResult(result, wire.protocolVersion(), wire.server);
}

/** Asks `server/discover` on the wire which era the server speaks. Never rejects on an McpError: a failure is judged too. */
async function probeEra(wire: Wire, options: ProbeOptions): Promise<ProbeVerdict> {
  const requestOptions = {
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  try {
    return await askDiscover(wire, requestOptions);
  } catch (error) {
    if (!(error instanceof McpError)) throw error;
    return judgeProbeFailure(error, options.transport);
  }
}

/**
 * `server/discover` to a server known to be modern (a restarted child, a client that needs no
 * negotiation), its answer judged as the probe's is: anything but a modern answer fails, a failure too.
 */
export async function discover(wire: Wire): Promise<DiscoverInfo> {
  const verdict = await askDiscover(wire, {});
  if (verdict.era === "modern") return verdict.info;
  if (verdict.era === "unknown") throw verdict.failure;
  throw new McpError("protocol", `${verdict.evidence}: not a 2026-07-28 server`, { server: wire.server });
}

/** `server/discover` on the wire, then the client of what it told. */
export async function openModernClient(wire: Wire): Promise<McpClient> {
  return createModernClient(wire, await discover(wire));
}

// ---------------------------------------------------------------------------------------------------
// The negotiation.

/** What the negotiation settled: the era, and what the server said of itself as it settled it (a legacy one, in its handshake). */
type Settled = { readonly era: "modern"; readonly info: DiscoverInfo } | { readonly era: "legacy"; readonly handshaken: Handshaken };

export interface NegotiatedEra {
  readonly client: McpClient;
  readonly era: Era;
}

interface NegotiateOptions {
  readonly transport: ProbeOptions["transport"];
  /** stdio only; over HTTP the probe waits as long as any request. */
  readonly probeTimeoutMs?: number;
}

/** The client of the era settled, built over the wire it was settled on. */
function clientFor(wire: Wire, settled: Settled): NegotiatedEra {
  const client = settled.era === "modern" ? createModernClient(wire, settled.info) : createLegacyClient(wire, settled.handshaken);
  return { client, era: settled.era };
}

/**
 * A client for a server whose era is known already (a restarted child, the old HTTP+SSE transport): a
 * legacy server's after the handshake; a modern server's after `server/discover`, since a new child may
 * declare other capabilities (which lists change, whether it has resources) than the one it replaces.
 * On failure the wire is closed before the error is passed on.
 */
export async function clientInEra(wire: Wire, era: Era): Promise<McpClient> {
  try {
    return era === "legacy" ? await openLegacyClient(wire) : await openModernClient(wire);
  } catch (error) {
    await wire.close();
    throw error;
  }
}

/**
 * Settles the era on a started wire from `open`, then builds the client of that era over it. `open` is
 * called a second time only after a stdio child died of the probe (a fresh child). On failure the wire
 * opened last is closed before the error is passed on. The version agreed is the wire's own
 * (`client.protocolVersion()` reads it): it is kept nowhere else.
 */
export async function negotiateEra(open: () => Promise<Wire>, options: NegotiateOptions): Promise<NegotiatedEra> {
  let wire = await open();
  try {
    const { transport } = options;
    if (transport === "http") {
      // Over HTTP the probe waits as long as any request: silence proves nothing about the era there.
      const verdict = await probeEra(wire, { transport });
      if (verdict.era === "unknown") throw verdict.failure;
      if (verdict.era === "modern") return clientFor(wire, verdict);
      return clientFor(wire, { era: "legacy", handshaken: await handshake(wire) });
    }
    const probeStop = new AbortController();
    const probing = probeEra(wire, { transport, signal: probeStop.signal });
    const early = await answeredWithin(probing, options.probeTimeoutMs ?? PROBE_TIMEOUT_MS);
    if (early === LATE) return clientFor(wire, await raceLateProbe(wire, probing, probeStop));
    if (early.era === "unknown") throw early.failure;
    if (early.era === "modern") return clientFor(wire, early);
    if (early.connectionLost) {
      // Some legacy servers exit on any request before `initialize`: restart once and go straight to it.
      await wire.close();
      wire = await open();
    }
    return clientFor(wire, { era: "legacy", handshaken: await handshake(wire) });
  } catch (error) {
    await wire.close();
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
function raceLateProbe(wire: Wire, probing: Promise<ProbeVerdict>, probeStop: AbortController): Promise<Settled> {
  const initializeStop = new AbortController();
  const initializing = handshake(wire, initializeStop.signal);
  return new Promise<Settled>((resolve, reject) => {
    let pending = 2;
    let initializeError: unknown;
    const settledOne = (): void => {
      pending -= 1;
      if (pending === 0) reject(initializeError);
    };
    probing.then(
      (verdict) => {
        if (verdict.era !== "modern") return settledOne();
        // A late modern answer may come while initialize is already on its way: the server is modern all the same.
        initializeStop.abort();
        resolve(verdict);
      },
      () => settledOne(),
    );
    initializing.then(
      (handshaken) => {
        probeStop.abort();
        resolve({ era: "legacy", handshaken });
      },
      (error: unknown) => {
        initializeError = error;
        settledOne();
      },
    );
  });
}
