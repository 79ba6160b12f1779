// One server's era, settled when mca connects (spec §8): probe with `server/discover`, then stay modern or
// run the 2025-11-25 handshake — on a fresh child when the first one died of the probe.
import type { McpClient } from "./client.js";

/** The spec asks for "a reasonable timeout" on the stdio probe and names no value; a silent server costs this. */
export const PROBE_TIMEOUT_MS = 5000;

export type Era = "modern" | "legacy";

export interface NegotiatedEra {
  readonly client: McpClient;
  readonly era: Era;
  /** The version every later request speaks: a modern one, or the one `initialize` agreed. */
  readonly protocolVersion: string;
}

export interface NegotiateOptions {
  readonly transport: "stdio" | "http";
  /** stdio only; over HTTP the probe waits as long as any request. */
  readonly probeTimeoutMs?: number;
}

/**
 * `open` starts a fresh client (on stdio, a fresh child); it is called a second time only after the child
 * died. On failure the client it opened last is closed before the error is passed on.
 */
export async function negotiateEra(open: () => Promise<McpClient>, options: NegotiateOptions): Promise<NegotiatedEra> {
  let client = await open();
  try {
    const verdict = await client.probe(options.transport === "stdio" ? { timeoutMs: options.probeTimeoutMs ?? PROBE_TIMEOUT_MS } : {});
    if (verdict.era === "modern") return { client, era: "modern", protocolVersion: verdict.info.protocolVersion };
    if (verdict.connectionLost) {
      // Some legacy servers exit on any request before `initialize`: restart once and go straight to it.
      await client.close();
      client = await open();
    }
    const info = await client.initializeLegacy();
    return { client, era: "legacy", protocolVersion: info.protocolVersion };
  } catch (error) {
    await client.close();
    throw error;
  }
}
