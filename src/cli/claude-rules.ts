// Claude Code's permission rules (`--allowedTools`, `--disallowedTools`) read as mca's own: each of Claude's
// tool names stands for the mca tools that do that work, and its argument forms become mca's globs, so a
// script written for `claude -p` keeps its rules. The table is the mapping docs/scripting.md shows.
import { parseRule, type Rule } from "../kernel/index.js";

/**
 * Claude Code's tools (https://code.claude.com/docs/en/settings) → mca's tools doing
 * that work; [] where mca has none. A rule on Read or Edit covers every tool that reads or edits files, as
 * Claude Code's does.
 */
export const CLAUDE_TOOLS: Readonly<Record<string, readonly string[]>> = {
  Bash: ["bash"],
  Read: ["read_file", "search", "list_dir"],
  Edit: ["edit_file", "write_file"],
  MultiEdit: ["edit_file"],
  Write: ["write_file"],
  Glob: ["search", "list_dir"],
  Grep: ["search"],
  LS: ["list_dir"],
  ListMcpResourcesTool: ["list_mcp_resources"],
  ReadMcpResourceTool: ["read_mcp_resource"],
  WebFetch: [],
  WebSearch: [],
  NotebookEdit: [],
  NotebookRead: [],
  Task: [],
  Agent: [],
  TodoWrite: [],
  BashOutput: [],
  KillShell: [],
  KillBash: [],
  ExitPlanMode: [],
  SlashCommand: [],
  Skill: [],
};

/** The tools whose argument is a path: Claude's gitignore-style pattern becomes mca's path glob. */
const PATH_TOOLS: ReadonlySet<string> = new Set(["Read", "Edit", "MultiEdit", "Write", "Glob", "Grep", "LS"]);

export type ClaudeRuleFlag = "--allowedTools" | "--disallowedTools";

/** What the flags come to: mca's rules, each naming the Claude rule it came from, and one line per rule left out. */
export interface MappedRules {
  readonly rules: readonly Rule[];
  readonly warnings: readonly string[];
}

/** Every rule of both flags as mca's, or an Error naming the flag and the rule that cannot be read. */
export function mapClaudeRules(allowed: readonly string[], disallowed: readonly string[]): MappedRules | Error {
  const rules: Rule[] = [];
  const warnings: string[] = [];
  const given: ReadonlyArray<readonly [ClaudeRuleFlag, readonly string[]]> = [
    ["--allowedTools", allowed],
    ["--disallowedTools", disallowed],
  ];
  for (const [flag, texts] of given) {
    const verdict = flag === "--allowedTools" ? "allow" : "deny";
    for (const text of texts) {
      const mapped = mcaRuleTexts(text);
      const origin = `${flag} ${JSON.stringify(text)}`;
      if (mapped instanceof Error) return new Error(`${origin}: ${mapped.message}`);
      if (mapped.kind === "left out") {
        const line = `mca: ${origin} is left out: ${mapped.why}${verdict === "allow" ? "" : " (so there is nothing to deny)"}`;
        if (!warnings.includes(line)) warnings.push(line);
        continue;
      }
      for (const ruleText of mapped.texts) {
        const rule = parseRule(ruleText, verdict, origin);
        if (rule instanceof Error) return new Error(`${origin}: ${rule.message}`);
        rules.push(rule);
      }
    }
  }
  return { rules, warnings };
}

type Mapping = { readonly kind: "rules"; readonly texts: readonly string[] } | { readonly kind: "left out"; readonly why: string };

/**
 * One of Claude Code's rules as mca's rule texts. A name Claude's table does not hold is taken as mca's own
 * (`read_file`, `bash(git status*)`, `mcp__notes__*`), so mca's rules may be given through these flags too.
 */
export function mcaRuleTexts(text: string): Mapping | Error {
  const trimmed = text.trim();
  const open = trimmed.indexOf("(");
  const name = open === -1 ? trimmed : trimmed.slice(0, open);
  if (open !== -1 && !trimmed.endsWith(")")) return new Error(`missing ")" at the end`);
  const argument = open === -1 ? null : trimmed.slice(open + 1, -1);
  if (name.startsWith("mcp__")) return { kind: "rules", texts: [mcpRule(name, argument)] };
  const tools = CLAUDE_TOOLS[name];
  if (tools === undefined) {
    if (/^[A-Z]/u.test(name)) return { kind: "left out", why: `mca knows no Claude Code tool named ${JSON.stringify(name)}` };
    return { kind: "rules", texts: [trimmed] };
  }
  if (tools.length === 0) return { kind: "left out", why: `mca has no ${name} tool` };
  if (argument === null || argument === "*" || argument === "**") return { kind: "rules", texts: [...tools] };
  if (name === "Bash") return { kind: "rules", texts: commandGlobs(argument).map((glob) => `bash(${glob})`) };
  if (!PATH_TOOLS.has(name)) return { kind: "rules", texts: tools.map((tool) => `${tool}(${argument})`) };
  const glob = pathGlob(argument);
  if (glob instanceof Error) return { kind: "left out", why: glob.message };
  return { kind: "rules", texts: tools.map((tool) => `${tool}(${glob})`) };
}

/** `mcp__server` names all of that server's tools; `mcp__server__tool` and globs stay as written. */
function mcpRule(name: string, argument: string | null): string {
  const whole = name.indexOf("__", "mcp__".length) === -1 && !/[*?]/u.test(name) ? `${name}__*` : name;
  return argument === null ? whole : `${whole}(${argument})`;
}

/**
 * Claude's `git log:*` is the command `git log` and every command that begins `git log ` (not `git logx`);
 * `ls *` likewise. Any other form is a glob already, mca's `*` being Claude's.
 */
function commandGlobs(argument: string): string[] {
  for (const suffix of [":*", " *"]) {
    if (argument.endsWith(suffix) && argument.length > suffix.length) {
      const prefix = argument.slice(0, -suffix.length);
      return [prefix, `${prefix} *`];
    }
  }
  return [argument];
}

// Claude Code's path pattern (gitignore-style, https://code.claude.com/docs/en/iam) as mca's project-relative
// glob: `./src/**` and `/src/**` become `src/*`, and a `**/` inside becomes `*` (mca's `*` crosses folders, so
// it spans `**`); a folder `docs/` becomes `docs/*`. Absolute (`//…`) and home (`~/…`) patterns name places
// outside the project, which mca's file tools never reach, so they map to nothing.
function pathGlob(pattern: string): string | Error {
  if (pattern.startsWith("//") || pattern.startsWith("~")) return new Error(`${pattern} lies outside the project, where mca's file tools never reach`);
  const relative = pattern.replace(/^\.?\//u, "").replaceAll("**/", "*").replace(/\*{2,}/gu, "*");
  if (relative === "" || relative === ".") return "*";
  return relative.endsWith("/") ? `${relative}*` : relative;
}
