// The 2025-11-25 lifecycle mca runs with a legacy server (spec §8 "Fallback handshake"): `initialize` with
// the version, capabilities and client info, the server's answer checked, then `notifications/initialized`.
import { readServerInfo, type ServerInfo } from "./discover-info.js";
import { McpError } from "./errors.js";
import { isJsonObject, type JsonObject } from "./jsonrpc.js";
import { LEGACY_VERSION, LEGACY_VERSIONS } from "./legacy-version.js";

export interface LegacyServerInfo {
  /** The version the server chose; every later request on the connection speaks it. */
  readonly protocolVersion: string;
  readonly capabilities: JsonObject;
  readonly instructions?: string;
  /** Self-reported; for display only. */
  readonly serverInfo?: ServerInfo;
}

/** The two ways the handshake talks to the server: the peer's, without `_meta` (initialize predates it). */
export interface HandshakeChannel {
  request(method: string, params: JsonObject): Promise<JsonObject>;
  notify(method: string): Promise<void>;
}

export function initializeParams(clientVersion: string): JsonObject {
  // No capabilities: over the legacy wire mca answers only `ping` (legacy-server-requests.ts), so it
  // declares neither roots, sampling nor elicitation.
  return { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: "mca", version: clientVersion } };
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

/** initialize → result → notifications/initialized; rejects with an McpError naming what went wrong. */
export async function runLegacyHandshake(channel: HandshakeChannel, clientVersion: string, label: string): Promise<LegacyServerInfo> {
  const info = parseInitializeResult(await channel.request("initialize", initializeParams(clientVersion)));
  if (info instanceof Error) throw new McpError("protocol", `${label}: initialize: ${info.message}`);
  await channel.notify("notifications/initialized");
  return info;
}
