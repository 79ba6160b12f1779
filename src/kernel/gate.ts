// The approval gate: a pure function from a call and the user's rules to allow / ask / deny with its
// reason. The strictest matching rule wins whatever the order (deny > ask > allow); only when no rule
// matches does the default for the tool's kind apply.
import { posix } from "node:path";
import { VERDICT_RANK, type Decision, type Rule, type Verdict } from "./decision.js";
import { globMatches } from "./glob.js";
import { parseRulePattern } from "./rule-pattern.js";
import { stableJson } from "./stable-json.js";
import type { Tool, ToolArgs, ToolKind } from "./tool.js";

/** Remote tools ask whatever their annotations claim: a server's `readOnlyHint` is not evidence. */
const DEFAULTS: Readonly<Record<ToolKind, Decision>> = {
  read: { verdict: "allow", reason: "default for read tools: allow" },
  write: { verdict: "ask", reason: "default for write tools: ask" },
  exec: { verdict: "ask", reason: "default for exec tools: ask" },
  remote: { verdict: "ask", reason: "default for remote tools: ask (annotations are not trusted)" },
};

export const SESSION_ALLOW: Decision = { verdict: "allow", reason: "allowed for this session" };

/**
 * Shell syntax that can run a second command after an allowed prefix (`git status; rm -rf ~`), redirect
 * output, or substitute one: a command containing any of it is never covered by an allow rule's
 * argument glob (it falls through to the next rule or the default). Deny and ask rules still match it.
 */
const SHELL_CHAINING = /[;&|`<>\n\r]|\$\(/;

/** Validates one rule as written in a settings file or a flag; `origin` names where it came from. */
export function parseRule(text: string, verdict: Verdict, origin: string): Rule | Error {
  const pattern = parseRulePattern(text);
  if (pattern instanceof Error) return pattern;
  return { verdict, pattern: text.trim(), origin };
}

/**
 * The verdict for one call. Order: the strictest matching rule when it is deny or ask (the user's own
 * strict rules are never loosened); then a tool the user allowed for this session (by name); then a
 * matching allow rule; then the default for the tool's kind.
 */
export function decide(
  tool: Pick<Tool, "name" | "kind">,
  args: ToolArgs,
  rules: readonly Rule[],
  sessionAllows: ReadonlySet<string>,
): Decision {
  let strictest: Rule | undefined;
  for (const rule of rules) {
    if (!ruleMatches(rule, tool, args)) continue;
    if (strictest === undefined || VERDICT_RANK[rule.verdict] > VERDICT_RANK[strictest.verdict]) strictest = rule;
  }
  if (strictest !== undefined && strictest.verdict !== "allow") return fromRule(strictest);
  if (sessionAllows.has(tool.name)) return SESSION_ALLOW;
  if (strictest !== undefined) return fromRule(strictest);
  return DEFAULTS[tool.kind];
}

/** What the gate says about a name no tool has: such a call can only fail. */
export function unknownToolDecision(name: string): Decision {
  return { verdict: "deny", reason: `no tool named ${JSON.stringify(name)}` };
}

function fromRule(rule: Rule): Decision {
  return { verdict: rule.verdict, reason: `rule ${JSON.stringify(rule.pattern)} (${rule.verdict}) from ${rule.origin}` };
}

function ruleMatches(rule: Rule, tool: Pick<Tool, "name" | "kind">, args: ToolArgs): boolean {
  const pattern = parseRulePattern(rule.pattern);
  if (pattern instanceof Error) return false;
  if (!globMatches(pattern.toolGlob, tool.name)) return false;
  if (pattern.argGlob === null) return true;
  const subject = argumentSubject(tool, args);
  // An allow rule never covers more than it reads: not a chained command, not a path that climbs out.
  if (rule.verdict === "allow" && subject.isCommand && SHELL_CHAINING.test(subject.text)) return false;
  if (rule.verdict === "allow" && subject.climbs) return false;
  return globMatches(pattern.argGlob, subject.text);
}

/**
 * What an argument glob is matched against: an exec tool's `command` string (`bash(git status*)`);
 * otherwise the `path` argument when it is a string (`write_file(/repo/src/*)`); otherwise the stable
 * JSON of all the arguments (`mcp__tickets__search(*"urgent"*)`).
 */
function argumentSubject(tool: Pick<Tool, "kind">, args: ToolArgs): { readonly text: string; readonly isCommand: boolean; readonly climbs: boolean } {
  const command = args.command;
  if (tool.kind === "exec" && typeof command === "string") return { text: command, isCommand: true, climbs: false };
  const path = args.path;
  if (typeof path === "string") {
    // `docs/../src/main.ts` is matched as `src/main.ts`, so `write_file(docs/*)` does not cover it.
    const normal = posix.normalize(path);
    return { text: normal, isCommand: false, climbs: normal === ".." || normal.startsWith("../") };
  }
  return { text: stableJson(args), isCommand: false, climbs: false };
}
