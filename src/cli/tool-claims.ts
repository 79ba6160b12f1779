// A remote tool's annotations as /tools shows them: what the server claims about its own tool. Shown so
// the user can judge; the approval gate never reads them (they are untrusted, spec §4).
import type { Tool } from "../kernel/index.js";

/** Each hint whose value differs from the spec's default, as the words a person would use. */
const CLAIMS: ReadonlyArray<readonly [key: string, unusual: boolean, words: string]> = [
  ["readOnlyHint", true, "read-only"],
  ["destructiveHint", false, "not destructive"],
  ["idempotentHint", true, "idempotent"],
  ["openWorldHint", false, "closed world"],
];

export function toolClaims(tool: Tool): string {
  const annotations = tool.annotations;
  if (annotations === undefined) return "";
  const words = CLAIMS.filter(([key, unusual]) => annotations[key] === unusual).map(([, , word]) => word);
  return words.length === 0 ? "" : `server says: ${words.join(", ")} (not trusted)`;
}
