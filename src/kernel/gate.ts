// The approval gate, the whole pure policy in one place: the verdict for one call with its reason, judged
// against the user's rules (rule.ts). The strictest matching rule wins whatever the order (deny > ask >
// allow); only when no rule matches does the default for the tool's kind apply.
import { posix } from "node:path";
import { commandPrefix, readCommand } from "./command-options.js";
import { globMatches, literalPrefix, type Glob } from "./glob.js";
import { reachesAlias, serverSideName } from "./remote-names.js";
import { isNetworkRule, NETWORK_RULE, VERDICT_RANK, type Rule, type Verdict } from "./rule.js";
import { commandForms, isPlainCommand, MAX_WRAPPERS } from "./shell-command.js";
import { stableJson } from "./stable-json.js";
import type { CommandSandbox, GateSubject, Tool, ToolArgs, ToolDefinition, ToolKind } from "./tool.js";

export interface Decision {
  readonly verdict: Verdict;
  /** Human-readable and stable: the winning rule and its origin, or the default for the tool's kind. */
  readonly reason: string;
  /** Set on a write into a protected folder: only a person can approve it, no allow rule or flag can. */
  readonly onlyAPersonCanAllow?: true;
}

/**
 * The user's answer when the gate says ask; the CLI prompts, the kernel never does. "always" (for this session,
 * and kept as an allow rule for later ones) is offered only for a sandboxed command's connection to a domain,
 * whose asker keeps the rule: the kernel writes no settings.
 */
export type ApprovalAnswer = "once" | "session" | "always" | "deny";

/** Remote tools ask whatever their annotations claim: a server's `readOnlyHint` is not evidence. */
const DEFAULTS: Readonly<Record<ToolKind, Decision>> = {
  read: { verdict: "allow", reason: "default for read tools: allow" },
  write: { verdict: "ask", reason: "default for write tools: ask" },
  exec: { verdict: "ask", reason: "default for exec tools: ask" },
  remote: { verdict: "ask", reason: "default for remote tools: ask (annotations are not trusted)" },
};

/**
 * What the user's "allow for this session" covers: every call of one tool, or, for a command tool, the plain
 * commands that begin with the words of the command's own prefix (`git status`), judged like an allow rule.
 * A remote tool's allow holds for the definition the user was shown (its hash) and no other.
 */
export type SessionAllow =
  | { readonly kind: "tool"; readonly tool: string; readonly definition?: AllowedDefinition }
  | { readonly kind: "command"; readonly tool: string; readonly prefix: readonly string[] }
  /** A domain a sandboxed command's HTTP(S) may reach through mca's proxy (see decideDomain). */
  | { readonly kind: "domain"; readonly domain: string };

/** The definition a remote tool had when it was allowed for the session, kept to show what changed since. */
export interface AllowedDefinition {
  readonly hash: string;
  readonly definition?: ToolDefinition;
}

/** The session's allows, keyed by how they are shown (see sessionAllowText). */
export type SessionAllows = ReadonlyMap<string, SessionAllow>;

/** `write_file`, or `bash(git status*)`: the rule the allow reads as, for /approvals and the reasons. */
export function sessionAllowText(allow: SessionAllow): string {
  switch (allow.kind) {
    case "tool":
      return allow.tool;
    case "command":
      return `${allow.tool}(${allow.prefix.join(" ")}*)`;
    case "domain":
      return `${NETWORK_RULE}(${allow.domain})`;
    default: {
      const unknown: never = allow;
      throw new Error(`unknown session allow ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * What the session choice of an approval would allow, or null when it offers none: a command that is not
 * plain, nests too many wrappers to have a prefix, or is to run outside the sandbox, or a command tool's call
 * that is not read as a command (allowing the whole tool would allow every command).
 */
export function sessionAllowFor(tool: GateTool, subject: GateSubject): SessionAllow | null {
  if (subject.kind !== "command") return tool.kind === "exec" ? null : { kind: "tool", tool: allowedName(tool, subject), ...allowedDefinition(tool, subject) };
  if (!isPlainCommand(subject.text) || OUTSIDE_THE_SANDBOX[subject.sandbox] !== null) return null;
  const prefix = commandPrefix(subject.text.split(" "));
  return prefix === null ? null : { kind: "command", tool: tool.name, prefix };
}

/**
 * A folder where a write can turn into running code or into loosened rules (git's hooks and config, mca's
 * settings), so a write there is always put to the user, whatever the allow rules or "allow for this
 * session" say; a deny rule still denies it. Letter case does not count (case-insensitive file systems).
 */
export interface ProtectedFolder {
  /** Relative to the project, `/`-separated, without `..` or a trailing slash; `.`: the project itself, so every path. */
  readonly path: string;
  /** Whether the folder counts at any depth (a vendored repository's hooks run too) or at the project's root only. */
  readonly anyDepth: boolean;
  /** The reason of the verdict: what protects the folder. */
  readonly reason: string;
}

/** Protected in every project; the project's git settings may add a folder (see src/config/protected-paths.ts). */
export const ALWAYS_PROTECTED: readonly ProtectedFolder[] = [
  { path: ".git", anyDepth: true, reason: "writes under .git/ always ask" },
  { path: ".mca", anyDepth: true, reason: "writes under .mca/ always ask" },
  { path: ".husky", anyDepth: true, reason: "writes under .husky/ always ask" },
];

/** The verdict on a command that is to run with more than the sandbox gives, unless a rule denies it. */
const OUTSIDE_THE_SANDBOX: Readonly<Record<CommandSandbox, Decision | null>> = {
  inside: null,
  unavailable: null,
  "requested-outside": { verdict: "ask", reason: "the model asked to run this outside the sandbox", onlyAPersonCanAllow: true },
  "network-requested": { verdict: "ask", reason: "the model asked for the network for this call", onlyAPersonCanAllow: true },
};

/** The tool as the gate sees it: its names, kind and definition's identity, never its annotations. */
export type GateTool = Pick<Tool, "name" | "kind" | "source" | "originalName" | "serverRuleName" | "definitionHash" | "definition" | "definitionStatus">;

/** What a session allow of this call records of the tool's definition: a call that names its server is not the tool's own. */
function allowedDefinition(tool: GateTool, subject: GateSubject): { definition?: AllowedDefinition } {
  if (tool.definitionHash === undefined || subject.kind === "server") return {};
  return { definition: { hash: tool.definitionHash, ...(tool.definition === undefined ? {} : { definition: tool.definition }) } };
}

/**
 * The verdict for one call. Order: the strictest matching rule when it is deny or ask (the user's own
 * strict rules are never loosened); then what the user allowed for this session; then a matching allow
 * rule; then the default for the tool's kind. An allow covers a command only as far as its program and
 * options are known (see coverage). A write under a protected folder, or a command to run with more than
 * the sandbox gives, that would be allowed is asked instead, and only a person can allow it (a protected
 * write says so even when it would be asked anyway).
 */
export function decide(
  tool: GateTool,
  subject: GateSubject,
  rules: readonly Rule[],
  sessionAllows: SessionAllows,
  protectedFolders: () => readonly ProtectedFolder[] = () => ALWAYS_PROTECTED,
): Decision {
  if (subject.kind === "command" && commandForms(subject.text).tooDeep) return TOO_DEEP_TO_JUDGE;
  const decision = verdictOf(tool, subject, rules, sessionAllows);
  // A pinned server's tool that is not as pinned: no allow covers it, a deny still denies it.
  if (tool.definitionStatus?.pinned === "changed" && decision.verdict !== "deny") return pinnedChangedDecision(tool);
  if (subject.kind === "command" && decision.verdict !== "deny") return OUTSIDE_THE_SANDBOX[subject.sandbox] ?? decision;
  // Asked with or without a rule, a protected write says so: only a person can allow it, never for the session.
  if (decision.verdict === "deny" || tool.kind !== "write" || subject.kind !== "path") return decision;
  // Worked out only here, for a write to a path: a read, a command or a remote call never pays for it.
  const folder = protectingFolder(protectedFolders(), subject.text);
  return folder === undefined ? decision : { verdict: "ask", reason: folder.reason, onlyAPersonCanAllow: true };
}

function pinnedChangedDecision(tool: GateTool): Decision {
  const alias = tool.source;
  return {
    verdict: "ask",
    reason: `its definition is not the one pinned for server "${alias}": every call asks until \`mca mcp pin ${alias}\` accepts it`,
    onlyAPersonCanAllow: true,
  };
}

/**
 * The session allow of this call's tool that was given for another definition of it (the server redefined the
 * tool since), or undefined: the call then asks, and the approval shows what changed.
 */
export function outdatedSessionAllow(tool: GateTool, subject: GateSubject, sessionAllows: SessionAllows): AllowedDefinition | undefined {
  if (subject.kind === "command" || tool.definitionHash === undefined) return undefined;
  const allow = sessionAllows.get(allowedName(tool, subject));
  return allow?.kind === "tool" && allow.definition !== undefined && allow.definition.hash !== tool.definitionHash ? allow.definition : undefined;
}

/** A command whose wrappers nest deeper than anyone writes them: its forms are not all known, so no rule can be trusted to see it. */
const TOO_DEEP_TO_JUDGE: Decision = { verdict: "deny", reason: `the command nests more than ${MAX_WRAPPERS} wrappers (sudo, env, nice, …): too deep to judge` };

/** The first folder that holds `path` (or is it), comparing whole path segments whatever their case. */
function protectingFolder(folders: readonly ProtectedFolder[], path: string): ProtectedFolder | undefined {
  const segments = path.toLowerCase().split("/");
  return folders.find((folder) => {
    const prefix = folder.path === "." ? [] : folder.path.toLowerCase().split("/");
    const startsAt = (index: number): boolean => prefix.every((segment, offset) => segments[index + offset] === segment);
    return folder.anyDepth ? segments.some((_, index) => startsAt(index)) : startsAt(0);
  });
}

/** An allow that matched the call: what it decides when it covers it, and how the reason names it when not. */
interface MatchingAllow {
  readonly decision: Decision;
  readonly named: string;
  /** Whether it names commands, so covers one only as far as its program and options are known. */
  readonly judged: boolean;
}

function verdictOf(tool: GateTool, subject: GateSubject, rules: readonly Rule[], sessionAllows: SessionAllows): Decision {
  const texts = subjectTexts(subject);
  const strictest = strictestRule(rules.filter((rule) => rule.verdict !== "allow" && ruleMatches(rule, tool, subject, texts)));
  if (strictest !== undefined) return fromRule(strictest);
  const allows: MatchingAllow[] = [
    ...[...sessionAllows.values()].filter((allow) => sessionAllowMatches(allow, tool, subject)).map(matchingSessionAllow),
    ...rules
      .filter((rule) => rule.verdict === "allow" && ruleMatches(rule, tool, subject, texts))
      .map((rule) => ({ decision: fromRule(rule), named: `rule ${JSON.stringify(rule.pattern.text)}`, judged: rule.pattern.argument !== null })),
  ];
  // Whether the command is covered depends on the command alone, so it is read once for every allow that judges it.
  const because = subject.kind === "command" && allows.some((allow) => allow.judged) ? notCovered(subject.text, subject.sandbox) : undefined;
  const covering = allows.find((allow) => !allow.judged || because === undefined);
  if (covering !== undefined) return covering.decision;
  const fallback = DEFAULTS[tool.kind];
  if (fallback.verdict === "ask" && outdatedSessionAllow(tool, subject, sessionAllows) !== undefined) {
    return { verdict: "ask", reason: "allowed for this session as it was defined then; its server has changed its definition since" };
  }
  const [first] = allows;
  return first !== undefined && because !== undefined && fallback.verdict === "ask" ? { verdict: "ask", reason: `${first.named} does not cover ${because}` } : fallback;
}

/** The highest-ranked of `rules` (the first of equals), so that their order never matters; undefined for none. */
function strictestRule(rules: readonly Rule[]): Rule | undefined {
  let strictest: Rule | undefined;
  for (const rule of rules) if (strictest === undefined || VERDICT_RANK[rule.verdict] > VERDICT_RANK[strictest.verdict]) strictest = rule;
  return strictest;
}

/** What "allow for this session" names: the tool, or for a call that names its server, that server's own name for it. */
function allowedName(tool: GateTool, subject: GateSubject): string {
  return subject.kind === "server" ? serverSideName(subject.alias, subject.name) : tool.name;
}

function matchingSessionAllow(allow: SessionAllow): MatchingAllow {
  const text = sessionAllowText(allow);
  return { decision: { verdict: "allow", reason: `allowed for this session: ${text}` }, named: `the session allow ${JSON.stringify(text)}`, judged: allow.kind === "command" };
}

function sessionAllowMatches(allow: SessionAllow, tool: GateTool, subject: GateSubject): boolean {
  if (allow.kind === "domain") return false;
  if (allow.kind === "tool") {
    const sameDefinition = allow.definition === undefined || allow.definition.hash === allowedDefinition(tool, subject).definition?.hash;
    return subject.kind !== "command" && allow.tool === allowedName(tool, subject) && sameDefinition;
  }
  if (allow.tool !== tool.name) return false;
  if (subject.kind !== "command" || !isPlainCommand(subject.text)) return false;
  const words = subject.text.split(" ");
  return allow.prefix.every((word, index) => words[index] === word);
}

/**
 * Why an allow whose glob matched a plain command does not cover it, or undefined when it does: the
 * command must be known to only read (see command-options.ts), except that inside the sandbox a program
 * the table does not list is covered, the sandbox being the boundary. Without a sandbox, only the
 * commands known to only read are.
 */
function notCovered(text: string, sandbox: CommandSandbox): string | undefined {
  const reading = readCommand(text.split(" "));
  switch (reading.kind) {
    case "read-only":
      return undefined;
    case "refused":
      return `${reading.what} (${reading.why})`;
    case "unlisted":
      return sandbox === "inside" ? undefined : `${reading.program} (without a sandbox, allow rules cover only commands known to only read)`;
    default: {
      const unknown: never = reading;
      throw new Error(`unknown command reading ${JSON.stringify(unknown)}`);
    }
  }
}

/** What the gate says about a name no tool has: such a call can only fail. */
export function unknownToolDecision(name: string): Decision {
  return { verdict: "deny", reason: `no tool named ${JSON.stringify(name)}` };
}

function fromRule(rule: Rule): Decision {
  return { verdict: rule.verdict, reason: `rule ${JSON.stringify(rule.pattern.text)} (${rule.verdict}) from ${rule.origin}` };
}

/**
 * The texts each kind of rule's argument glob is tried on. An allow rule covers no more than it reads:
 * only a plain command, taken literally, and only a path inside the project. Deny and ask rules are
 * tried on every spelling of every simple command of a command line.
 */
interface SubjectTexts {
  readonly allow: readonly string[];
  readonly strict: readonly string[];
}

function subjectTexts(subject: GateSubject): SubjectTexts {
  switch (subject.kind) {
    case "command":
      return { allow: isPlainCommand(subject.text) ? [subject.text] : [], strict: [...commandForms(subject.text).forms] };
    case "path":
      return { allow: subject.outside ? [] : [subject.text], strict: [subject.text] };
    case "arguments":
    case "server":
      return { allow: [subject.text], strict: [subject.text] };
    default: {
      const unknown: never = subject;
      throw new Error(`unknown gate subject ${JSON.stringify(unknown)}`);
    }
  }
}

function ruleMatches(rule: Rule, tool: GateTool, subject: GateSubject, texts: SubjectTexts): boolean {
  const { argument } = rule.pattern;
  if (isNetworkRule(rule)) return false;
  if (!toolMatches(rule.pattern.tool, tool, subject)) return false;
  if (argument === null) return true;
  return (rule.verdict === "allow" ? texts.allow : texts.strict).some((text) => globMatches(argument, text));
}

/**
 * A remote tool answers to its flat name and to `mcp__<alias>__<its name on the server>`, so that a
 * rule still reaches a tool whose flat name was sanitised or hash-suffixed; a call that names its server
 * (see GateSubject) answers to that server's name for it instead. A rule that spells an alias out reaches
 * only that server under either name (see reachesAlias).
 */
function toolMatches(glob: Glob, tool: GateTool, subject?: GateSubject): boolean {
  const literal = literalPrefix(glob);
  if (globMatches(glob, tool.name) && (tool.kind !== "remote" || reachesAlias(literal, tool.source))) return true;
  if (subject?.kind === "server") return reachesAlias(literal, subject.alias) && globMatches(glob, serverSideName(subject.alias, subject.name));
  if (tool.kind !== "remote" || tool.serverRuleName === undefined) return false;
  return reachesAlias(literal, tool.source) && globMatches(glob, serverSideName(tool.source, tool.serverRuleName));
}

/**
 * The rules whose tool part has no glob character yet names no tool under either of its names: most
 * likely typos, which would otherwise protect nothing without a word. For the session to report at start.
 */
export function unmatchedRules(rules: readonly Rule[], tools: readonly GateTool[]): readonly Rule[] {
  return rules.filter((rule) => !isNetworkRule(rule) && !/[*?]/u.test(rule.pattern.toolGlob) && !tools.some((tool) => toolMatches(rule.pattern.tool, tool)));
}

/**
 * The verdict on a connection a sandboxed command makes through mca's proxy to `domain` (lower case, no
 * trailing dot): the strictest `network(…)` rule when it is deny or ask; then what the person allowed for
 * this session; then an allow rule; else ask. A deny rule for the domain refuses it whatever was allowed.
 */
export function decideDomain(domain: string, rules: readonly Rule[], sessionDomains: ReadonlySet<string>): Decision {
  const matching = rules.filter((rule) => isNetworkRule(rule) && (rule.pattern.argument === null || globMatches(rule.pattern.argument, domain)));
  const strictest = strictestRule(matching.filter((rule) => rule.verdict !== "allow"));
  if (strictest !== undefined) return fromRule(strictest);
  if (sessionDomains.has(domain)) return { verdict: "allow", reason: `allowed for this session: ${NETWORK_RULE}(${domain})` };
  const allow = matching.find((rule) => rule.verdict === "allow");
  if (allow !== undefined) return fromRule(allow);
  return { verdict: "ask", reason: `no rule allows ${domain}` };
}

/**
 * What a call's argument globs are matched against: the tool's own account (`gateSubject`, from the
 * parsed arguments) when it has one and the arguments parsed; otherwise, read from the arguments, an
 * exec tool's `command` string (`bash(git status*)`), else the `path` argument when it is a string,
 * normalised (`write_file(src/*)` does not cover `src/../x`), else the stable JSON of all the arguments
 * (`mcp__tickets__search(*"urgent"*)`).
 */
export function callSubject(tool: Pick<Tool, "kind" | "gateSubject">, args: ToolArgs, parsed: ToolArgs | Error): GateSubject {
  if (tool.gateSubject !== undefined && !(parsed instanceof Error)) return tool.gateSubject(parsed);
  const { command, path } = args;
  if (tool.kind === "exec" && typeof command === "string") return { kind: "command", text: command, sandbox: "unavailable" };
  if (typeof path === "string") {
    const normal = normalizedPath(path);
    return { kind: "path", text: normal, outside: normal === ".." || normal.startsWith("../") };
  }
  return { kind: "arguments", text: stableJson(args) };
}

/** A `/`-separated path as the gate matches it: `.` and `..` resolved lexically, no trailing slash. */
export function normalizedPath(path: string): string {
  return posix.normalize(path).replace(/(?<=.)\/+$/u, "");
}
