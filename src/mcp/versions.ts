// The protocol versions mca speaks — the 2026-07-28 revision and the initialize-based ones before it — how
// one is agreed with a server (-32022 UnsupportedProtocolVersion: "pick a mutually supported version from
// `data.supported` and retry, else surface an error"), and where a message names the version it speaks.
import { isJsonObject, type JsonRpcMessage } from "./jsonrpc.js";

/** A server speaks the 2026-07-28 revision ("modern") or an initialize-based one before it ("legacy"). */
export type Era = "modern" | "legacy";

/** What every connection starts with. */
export const LATEST_VERSION = "2026-07-28";
/** Newest first. */
export const SUPPORTED_VERSIONS: readonly string[] = [LATEST_VERSION];

/** What mca asks for in `initialize` when a server turns out to be legacy. */
export const LEGACY_VERSION = "2025-11-25";
/** The initialize-based revisions whose tools/list and tools/call mca can speak; newest first. */
export const LEGACY_VERSIONS: readonly string[] = [LEGACY_VERSION, "2025-06-18", "2025-03-26", "2024-11-05"];
/** The first revision without `initialize`: every dated version before it is legacy. */
const FIRST_MODERN_VERSION = "2026-07-28";
const DATED_VERSION = /^\d{4}-\d{2}-\d{2}$/;

/** Where every 2026-07-28 request names its version: `params._meta[PROTOCOL_VERSION_KEY]`. */
export const PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";

/** Whether `version` names an initialize-based revision (known to mca or not). */
export function isLegacyVersion(version: string): boolean {
  return DATED_VERSION.test(version) && version < FIRST_MODERN_VERSION;
}

/** The version to use with a server offering `offered`: `current` if it is offered, else our newest offered one. */
export function pickMutualVersion(offered: readonly string[], current: string): string | undefined {
  if (offered.includes(current) && SUPPORTED_VERSIONS.includes(current)) return current;
  return SUPPORTED_VERSIONS.find((version) => offered.includes(version));
}

/** `data.supported` of an UnsupportedProtocolVersion error, or undefined when it is not a list of strings. */
export function readSupportedVersions(data: unknown): string[] | undefined {
  if (!isJsonObject(data)) return undefined;
  const { supported } = data;
  if (!Array.isArray(supported)) return undefined;
  const versions = supported.filter((version): version is string => typeof version === "string");
  return versions.length === supported.length ? versions : undefined;
}

/**
 * The version a message speaks: `params._meta["io.modelcontextprotocol/protocolVersion"]`, or for the
 * legacy `initialize` (2025-11-25 handshake) the version it requests. Undefined when it names none.
 */
export function messageProtocolVersion(message: JsonRpcMessage): string | undefined {
  if (!("method" in message) || message.params === undefined) return undefined;
  const meta = message.params._meta;
  const fromMeta = isJsonObject(meta) ? meta[PROTOCOL_VERSION_KEY] : undefined;
  if (typeof fromMeta === "string") return fromMeta;
  const requested = message.method === "initialize" ? message.params.protocolVersion : undefined;
  return typeof requested === "string" ? requested : undefined;
}
