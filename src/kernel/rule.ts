// A permission rule as the user wrote it (`read_file`, `bash(git status*)`, `network(*.example.com)`), validated
// once into globs with its verdict and origin; the gate (gate.ts) judges calls against these.
import { compileGlob, type Glob } from "./glob.js";

/** Ordered by strictness: when several of the user's rules match, the highest rank wins. */
export type Verdict = "allow" | "ask" | "deny";
export const VERDICT_RANK: Readonly<Record<Verdict, number>> = { allow: 0, ask: 1, deny: 2 };

/** `read_file`, `mcp__notes__*`, `bash(git status*)`: a tool-name glob, optionally an argument glob. */
export interface RulePattern {
  /** As written (trimmed), for the reason. */
  readonly text: string;
  /** The tool part as written: `mcp__notes__*` of `mcp__notes__*(x)`. */
  readonly toolGlob: string;
  readonly tool: Glob;
  /** null: the rule covers every call of the matching tools. */
  readonly argument: Glob | null;
}

export interface Rule {
  readonly verdict: Verdict;
  readonly pattern: RulePattern;
  /** Where the rule came from, for the reason: a settings file path or a flag such as `--allow`. */
  readonly origin: string;
}

const TOOL_GLOB = /^[A-Za-z0-9_.*?-]+$/;

/**
 * `network(registry.npmjs.org)`, `network(*.example.com)`: the domains (or IP addresses) a sandboxed command's
 * HTTP(S) may reach through mca's proxy; bare `network`, every one. Not a tool: no tool call matches it.
 */
export const NETWORK_RULE = "network";
/** A domain glob: a host name's letters (case does not count), `*` and `?`; an IPv6 address in brackets. */
const DOMAIN_GLOB = /^(?:[a-z0-9*?-]+(?:\.[a-z0-9*?-]+)*|\[[0-9a-f:.*?]+\])$/u;

export function isNetworkRule(rule: Rule): boolean {
  return rule.pattern.toolGlob === NETWORK_RULE;
}

/** Validates one rule as written in a settings file or a flag; `origin` names where it came from. */
export function parseRule(text: string, verdict: Verdict, origin: string): Rule | Error {
  const pattern = parseRulePattern(text);
  if (pattern instanceof Error) return pattern;
  return { verdict, pattern, origin };
}

/** Longer than any rule a person writes; a glob's matching costs up to its length for each character of the subject. */
export const MAX_RULE_CHARS = 1_000;

/** `bash(git status*)` → the globs `bash` and `git status*`; the argument glob may contain parentheses. */
function parseRulePattern(text: string): RulePattern | Error {
  const trimmed = text.trim();
  if (trimmed === "") return new Error("empty rule");
  if (trimmed.length > MAX_RULE_CHARS) return new Error(`a rule of ${trimmed.length} characters (at most ${MAX_RULE_CHARS}: matching a longer glob could stall every call)`);
  const open = trimmed.indexOf("(");
  const toolGlob = open === -1 ? trimmed : trimmed.slice(0, open);
  if (!TOOL_GLOB.test(toolGlob)) {
    return new Error(`invalid tool name pattern ${JSON.stringify(toolGlob)} (letters, digits, _ . - and the globs * ?)`);
  }
  if (open === -1) return { text: trimmed, toolGlob, tool: compileGlob(toolGlob), argument: null };
  if (!trimmed.endsWith(")")) return new Error(`missing ")" at the end of ${JSON.stringify(trimmed)}`);
  const argGlob = trimmed.slice(open + 1, -1);
  if (argGlob === "") return new Error(`empty argument pattern in ${JSON.stringify(trimmed)} (write ${toolGlob} or ${toolGlob}(*))`);
  if (toolGlob !== NETWORK_RULE) return { text: trimmed, toolGlob, tool: compileGlob(toolGlob), argument: compileGlob(argGlob) };
  // Domains are matched as the proxy sees them: lower case, without the root's trailing dot.
  const domain = argGlob.trim().toLowerCase().replace(/\.$/u, "");
  if (!DOMAIN_GLOB.test(domain)) {
    return new Error(`invalid domain pattern ${JSON.stringify(argGlob)} in ${JSON.stringify(trimmed)} (a host name such as registry.npmjs.org or *.example.com, or an IP address)`);
  }
  return { text: `${NETWORK_RULE}(${domain})`, toolGlob, tool: compileGlob(toolGlob), argument: compileGlob(domain) };
}

