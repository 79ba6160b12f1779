// What `server/discover` tells about a modern server
// (https://modelcontextprotocol.io/specification/2026-07-28/basic/lifecycle): the versions it speaks, its
// capabilities, its instructions and its identity — read from `result._meta`, or from a body `serverInfo`.
import { isJsonObject, type JsonObject } from "./jsonrpc.js";
import { pickMutualVersion, SUPPORTED_VERSIONS } from "./versions.js";

const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";

export interface ServerInfo {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
}

export function readServerInfo(value: unknown): ServerInfo | undefined {
  if (!isJsonObject(value) || typeof value.name !== "string" || typeof value.version !== "string") return undefined;
  const info = { name: value.name, version: value.version };
  return typeof value.title === "string" ? { ...info, title: value.title } : info;
}

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
  // The revision puts identity in `_meta` ("not a body serverInfo field"), but conformance mocks still use the body.
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
