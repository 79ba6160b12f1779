// The approval gate, the whole pure policy in one place: rules as the user wrote them, parsed once into
// globs; the verdict for one call with its reason. The strictest matching rule wins whatever the order
// (deny > ask > allow); only when no rule matches does the default for the tool's kind apply.
import { posix } from "node:path";
import { stableJson } from "./stable-json.js";
import type { Tool, ToolArgs, ToolKind } from "./tool.js";

/** Ordered by strictness: when several of the user's rules match, the highest rank wins. */
export type Verdict = "allow" | "ask" | "deny";
export const VERDICT_RANK: Readonly<Record<Verdict, number>> = { allow: 0, ask: 1, deny: 2 };

/** `read_file`, `mcp__notes__*`, `bash(git status*)`: a tool-name glob, optionally an argument glob. */
export interface RulePattern {
  /** As written (trimmed), for the reason. */
  readonly text: string;
  readonly tool: RegExp;
  /** null: the rule covers every call of the matching tools. */
  readonly argument: RegExp | null;
}

export interface Rule {
  readonly verdict: Verdict;
  readonly pattern: RulePattern;
  /** Where the rule came from, for the reason: a settings file path or a flag such as `--allow`. */
  readonly origin: string;
}

export interface Decision {
  readonly verdict: Verdict;
  /** Human-readable and stable: the winning rule and its origin, or the default for the tool's kind. */
  readonly reason: string;
}

/** The user's answer when the gate says ask; the CLI prompts, the kernel never does. */
export type ApprovalAnswer = "once" | "session" | "deny";

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

const TOOL_GLOB = /^[A-Za-z0-9_.*?-]+$/;

/** Validates one rule as written in a settings file or a flag; `origin` names where it came from. */
export function parseRule(text: string, verdict: Verdict, origin: string): Rule | Error {
  const pattern = parseRulePattern(text);
  if (pattern instanceof Error) return pattern;
  return { verdict, pattern, origin };
}

/** `bash(git status*)` → the globs `bash` and `git status*`; the argument glob may contain parentheses. */
function parseRulePattern(text: string): RulePattern | Error {
  const trimmed = text.trim();
  if (trimmed === "") return new Error("empty rule");
  const open = trimmed.indexOf("(");
  const toolGlob = open === -1 ? trimmed : trimmed.slice(0, open);
  if (!TOOL_GLOB.test(toolGlob)) {
    return new Error(`invalid tool name pattern ${JSON.stringify(toolGlob)} (letters, digits, _ . - and the globs * ?)`);
  }
  if (open === -1) return { text: trimmed, tool: globToRegExp(toolGlob), argument: null };
  if (!trimmed.endsWith(")")) return new Error(`missing ")" at the end of ${JSON.stringify(trimmed)}`);
  const argGlob = trimmed.slice(open + 1, -1);
  if (argGlob === "") return new Error(`empty argument pattern in ${JSON.stringify(trimmed)} (write ${toolGlob} or ${toolGlob}(*))`);
  return { text: trimmed, tool: globToRegExp(toolGlob), argument: globToRegExp(argGlob) };
}

/**
 * The glob of approval rules: `*` matches any run of characters (slashes and newlines included), `?`
 * exactly one; everything else is literal and the whole text must match.
 */
function globToRegExp(pattern: string): RegExp {
  let source = "";
  for (const char of pattern) {
    if (char === "*") source += "[\\s\\S]*";
    else if (char === "?") source += "[\\s\\S]";
    else source += char.replace(/[.+^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "u");
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
  return { verdict: rule.verdict, reason: `rule ${JSON.stringify(rule.pattern.text)} (${rule.verdict}) from ${rule.origin}` };
}

function ruleMatches(rule: Rule, tool: Pick<Tool, "name" | "kind">, args: ToolArgs): boolean {
  const { pattern } = rule;
  if (!pattern.tool.test(tool.name)) return false;
  if (pattern.argument === null) return true;
  const subject = argumentSubject(tool, args);
  // An allow rule never covers more than it reads: not a chained command, not a path that climbs out.
  if (rule.verdict === "allow" && subject.isCommand && SHELL_CHAINING.test(subject.text)) return false;
  if (rule.verdict === "allow" && subject.climbs) return false;
  return pattern.argument.test(subject.text);
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
