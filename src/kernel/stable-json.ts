// Stable JSON: object keys sorted at every depth, so that two argument objects that differ only in key
// order have one identity (loop detection, argument globs).

/** `JSON.stringify` with sorted keys, recursively; `undefined` (or a lone function) becomes `null`. */
export function stableJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // Defined, not assigned: assigning `__proto__` (a key JSON.parse keeps as a plain key) would set the
  // prototype and drop that subtree from the text — two definitions differing only there would look alike.
  return Object.fromEntries(entries.map(([key, inner]) => [key, sortKeys(inner)]));
}
