// The protocol versions this client speaks, and how one is agreed with a server (spec §1, -32022:
// "pick a mutually supported version from `data.supported` and retry, else surface an error").

/** What every connection starts with. */
export const LATEST_VERSION = "2026-07-28";
/** Newest first. */
export const SUPPORTED_VERSIONS: readonly string[] = [LATEST_VERSION];

/** The version to use with a server offering `offered`: `current` if it is offered, else our newest offered one. */
export function pickMutualVersion(offered: readonly string[], current: string): string | undefined {
  if (offered.includes(current) && SUPPORTED_VERSIONS.includes(current)) return current;
  return SUPPORTED_VERSIONS.find((version) => offered.includes(version));
}

/** `data.supported` of an UnsupportedProtocolVersion error, or undefined when it is not a list of strings. */
export function readSupportedVersions(data: unknown): string[] | undefined {
  if (typeof data !== "object" || data === null || !("supported" in data)) return undefined;
  const { supported } = data;
  if (!Array.isArray(supported)) return undefined;
  const versions = supported.filter((version): version is string => typeof version === "string");
  return versions.length === supported.length ? versions : undefined;
}
