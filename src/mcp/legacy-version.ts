// The protocol versions of the legacy era (spec §8 "Eras": "legacy = initialize-based (≤2025-11-25)"), and
// how a version string is told to belong to it.

/** What mca asks for in `initialize` when a server turns out to be legacy. */
export const LEGACY_VERSION = "2025-11-25";
/** The initialize-based revisions whose tools/list and tools/call mca can speak; newest first. */
export const LEGACY_VERSIONS: readonly string[] = [LEGACY_VERSION, "2025-06-18", "2025-03-26", "2024-11-05"];
/** The first revision without `initialize`: every dated version before it is legacy. */
const FIRST_MODERN_VERSION = "2026-07-28";
const DATED_VERSION = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `version` names an initialize-based revision (known to mca or not). */
export function isLegacyVersion(version: string): boolean {
  return DATED_VERSION.test(version) && version < FIRST_MODERN_VERSION;
}
