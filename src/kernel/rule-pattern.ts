// The text of an approval rule, `tool-glob` or `tool-glob(argument-glob)`, split into its two globs.

export interface RulePattern {
  readonly toolGlob: string;
  /** null: the rule covers every call of the matching tools. */
  readonly argGlob: string | null;
}

const TOOL_GLOB = /^[A-Za-z0-9_.*?-]+$/;

/** `bash(git status*)` → `{ toolGlob: "bash", argGlob: "git status*" }`; the argument glob may contain parentheses. */
export function parseRulePattern(text: string): RulePattern | Error {
  const trimmed = text.trim();
  if (trimmed === "") return new Error("empty rule");
  const open = trimmed.indexOf("(");
  const toolGlob = open === -1 ? trimmed : trimmed.slice(0, open);
  if (!TOOL_GLOB.test(toolGlob)) {
    return new Error(`invalid tool name pattern ${JSON.stringify(toolGlob)} (letters, digits, _ . - and the globs * ?)`);
  }
  if (open === -1) return { toolGlob, argGlob: null };
  if (!trimmed.endsWith(")")) return new Error(`missing ")" at the end of ${JSON.stringify(trimmed)}`);
  const argGlob = trimmed.slice(open + 1, -1);
  if (argGlob === "") return new Error(`empty argument pattern in ${JSON.stringify(trimmed)} (write ${toolGlob} or ${toolGlob}(*))`);
  return { toolGlob, argGlob };
}
