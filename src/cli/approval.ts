// Approval of one tool call by the user, and what they are shown to judge it. In the chat: the tool's name,
// source, the gate's reason and what the call will do (a diff, the command, the arguments), then allow once /
// allow for this session (naming what it covers, when the gate offers it) / for a domain, always (as a rule in
// the user's settings) / deny. When nobody
// can be asked (pipe mode, `-p`, subcommands): `ask` means deny, and the message names the flag that allows the call.
import type { ChalkInstance } from "chalk";
import { sessionAllowText, type ApprovalAnswer, type ApprovalRequest, type NobodyToAsk, type SessionAllow, type Tool, type UserDenial } from "../kernel/index.js";
import { toolTitle } from "../mcp/index.js";
import { definitionChangeLines, previewCall } from "./change-preview.js";
import type { Asker, Choice } from "./terminal.js";
import { untrustedText } from "./untrusted-text.js";

/** A title longer than this is cut where it is shown beside the name. */
const MAX_TITLE_CHARS = 80;

/**
 * `Create ticket (mcp__tickets__create)`: a remote tool its server gives a title (`title`, else
 * `annotations.title`) is shown by it, on one line, with the name beside it — the name is what rules match and
 * what the model calls. Any other tool by its name. The server's text: the caller shows it through untrustedText.
 */
export function toolDisplayName(tool: Tool): string {
  const title = tool.definition === undefined ? undefined : toolTitle(tool.definition);
  if (title === undefined) return tool.name;
  const flat = title.replace(/\s+/gu, " ").trim();
  const cut = flat.length <= MAX_TITLE_CHARS ? flat : `${flat.slice(0, MAX_TITLE_CHARS - 1)}…`;
  return `${cut} (${tool.name})`;
}

/** Allow once, allow for this session when the gate offers it, always for a domain (never for a tool call), deny. */
function approvalChoices({ sessionAllow }: ApprovalRequest): ReadonlyArray<Choice<ApprovalAnswer>> {
  const session: ReadonlyArray<Choice<ApprovalAnswer>> = sessionAllow === null ? [] : [{ title: sessionChoiceTitle(sessionAllow), value: "session" }];
  const always: ReadonlyArray<Choice<ApprovalAnswer>> = sessionAllow?.kind === "domain" ? [{ title: alwaysChoiceTitle(sessionAllow.domain), value: "always" }] : [];
  return [{ title: "Allow once", value: "once" }, ...session, ...always, { title: "Deny", value: "deny" }];
}

/** The rule it adds is named: the person sees what their settings will hold. */
function alwaysChoiceTitle(domain: string): string {
  const shown = untrustedText(domain);
  return `Always allow connections to ${shown} (adds network(${shown}) to your settings)`;
}

/** The session choice says what it will allow: the tool, or the command's own words (never all of bash). */
export function sessionChoiceTitle(allow: SessionAllow): string {
  const covered = allow.kind === "tool" ? allow.tool : allow.kind === "domain" ? `connections to ${allow.domain}` : `\`${allow.prefix.join(" ")} …\``;
  return `Allow ${untrustedText(covered)} for this session`;
}
/** The choice that asks for the user's sentence before denying; it is not an answer the kernel knows. */
const DENY_WITH_REASON: Choice<"why"> = { title: "Deny, and tell the model why", value: "why" };
/** Rows kept free for the header lines and the question below a preview. */
const RESERVED_ROWS = 10;
const MIN_PREVIEW_LINES = 8;
/** Without a terminal height (a pipe, a test): what a small terminal shows. */
const DEFAULT_ROWS = 24;

/**
 * Shows the call (a diff for file changes, the command for bash) cut to the screen, then asks. When the
 * preview was cut, one more choice shows all of it and asks again. "cancelled" when the user pressed Ctrl-C
 * or Escape at the question.
 */
export async function promptForApproval(
  request: ApprovalRequest,
  chalk: ChalkInstance,
  asker: Asker,
  screenRows?: number,
): Promise<ApprovalAnswer | UserDenial | "cancelled"> {
  const preview = await previewCall(request.tool, request.args, chalk);
  const room = Math.max(MIN_PREVIEW_LINES, (screenRows ?? DEFAULT_ROWS) - RESERVED_ROWS);
  const cut = preview.length > room;
  const shown = cut ? [...preview.slice(0, room), chalk.dim(`  … ${preview.length - room} more lines`)] : preview;
  asker.say(describeRequest(request, chalk, shown));
  const more: ReadonlyArray<Choice<"more">> = cut ? [{ title: `Show all ${preview.length} lines`, value: "more" }] : [];
  const choices: ReadonlyArray<Choice<ApprovalAnswer | "why" | "more">> = [...approvalChoices(request), DENY_WITH_REASON, ...more];
  for (;;) {
    const answer = await asker.select(questionText(request), choices);
    if (answer === "more") {
      asker.say(preview.join("\n"));
      continue;
    }
    if (answer === undefined) {
      // Said in words: what the cancelled question leaves on the screen must not read as an answer.
      asker.say(chalk.yellow("cancelled: not run"));
      return "cancelled";
    }
    if (answer !== "why") return answer;
    const because = await asker.text("Why? (the model reads this)", "", (text) => (text.trim() === "" ? "say why, or press Escape to choose again" : undefined));
    if (because !== undefined) return { kind: "denied", because: because.trim() };
  }
}

/** `Allow bash?`, or for a sandboxed command's connection through mca's proxy, the domain it would reach. */
function questionText({ tool, sessionAllow }: ApprovalRequest): string {
  if (sessionAllow?.kind === "domain") return `Allow connections to ${untrustedText(sessionAllow.domain)}?`;
  return `Allow ${untrustedText(toolDisplayName(tool))}?`;
}

/** The server's names and claims pass untrustedText: the user judges them by what is shown. */
export function describeRequest(request: ApprovalRequest, chalk: ChalkInstance, preview: readonly string[]): string {
  const { tool, decision } = request;
  const source = tool.source === "local" ? "local tool" : `MCP server "${tool.source}" (its own name: ${tool.originalName})`;
  const lines = [
    `${chalk.yellow("approval needed:")} ${chalk.bold(untrustedText(toolDisplayName(tool)))} from ${untrustedText(source)}`,
    chalk.dim(`  why: ${untrustedText(decision.reason)}`),
  ];
  if (tool.annotations !== undefined) {
    lines.push(chalk.dim(`  the server says (not trusted): ${untrustedText(JSON.stringify(tool.annotations))}`));
  }
  return [...lines, ...definitionLines(request, chalk), ...preview].join("\n");
}

/**
 * A remote tool redefined since the user allowed it for this session: what changed, old → new. One not as
 * pinned: its definition now (the pinned one is kept as a hash only). The server's words, shown, never obeyed.
 */
function definitionLines({ tool, definitionBefore }: ApprovalRequest, chalk: ChalkInstance): string[] {
  if (tool.definition === undefined) return [];
  if (definitionBefore !== undefined) {
    return [chalk.yellow("  the server changed this tool since you allowed it for this session:"), ...definitionChangeLines(definitionBefore, tool.definition, chalk)];
  }
  if (tool.definitionStatus?.pinned !== "changed") return [];
  return [chalk.yellow("  not the definition pinned; the server defines it now as:"), ...definitionChangeLines(undefined, tool.definition, chalk)];
}

/**
 * The same sentence for the user (stderr) and the model (the call's result): nobody said no, nobody was
 * asked. It names the flag that allows the call, unless no flag can (a write into a protected folder).
 */
function unaskedReason({ tool, decision, sessionAllow }: ApprovalRequest): string {
  // A sandboxed command's connection through mca's proxy: the rule that allows it names the domain.
  if (sessionAllow?.kind === "domain") {
    const rule = sessionAllowText(sessionAllow);
    return `${untrustedText(sessionAllow.domain)} needs approval (${tool.name}'s command connects to it) and there is no terminal to ask on; run mca with --allow ${JSON.stringify(rule)} to allow it`;
  }
  const unasked = `${tool.name} needs approval and there is no terminal to ask on`;
  if (decision.onlyAPersonCanAllow === true) return `${unasked}; ${decision.reason}, so only a person at a terminal can allow it`;
  // A call that names its server (a read of its resources) is allowed per server, by the name the session choice would give.
  const rule = sessionAllow?.kind === "tool" ? sessionAllow.tool : tool.name;
  return `${unasked}; run mca with --allow ${JSON.stringify(rule)} to allow it`;
}

export function createApproverWithoutTerminal(warn: (line: string) => void): (request: ApprovalRequest) => Promise<NobodyToAsk> {
  return async (request) => {
    const reason = unaskedReason(request);
    warn(`not run: ${reason}`);
    return { kind: "nobody_to_ask", reason };
  };
}

// A remote tool's annotations as /tools shows them: what the server claims about its own tool. Shown so
// the user can judge; the approval gate never reads them (a client treats them as untrusted unless it
// trusts the server: https://modelcontextprotocol.io/specification/2026-07-28/server/tools).

/**
 * Every hint the server gives, as the words a person would use, destructive first: the claim that matters
 * most when judging a call. A hint the server leaves out (or gives as a non-boolean) is not shown.
 */
const CLAIMS: ReadonlyArray<readonly [key: string, whenTrue: string, whenFalse: string]> = [
  ["destructiveHint", "destructive", "not destructive"],
  ["readOnlyHint", "read-only", "not read-only"],
  ["idempotentHint", "idempotent", "not idempotent"],
  ["openWorldHint", "open world", "closed world"],
];

export function toolClaims(tool: Tool): string {
  const annotations = tool.annotations;
  if (annotations === undefined) return "";
  const words = CLAIMS.flatMap(([key, whenTrue, whenFalse]) => {
    const value = annotations[key];
    return value === true ? [whenTrue] : value === false ? [whenFalse] : [];
  });
  return words.length === 0 ? "" : `server says: ${words.join(", ")} (not trusted)`;
}

/** `pinned`, `changed since pinned`, `changed this session`: how a remote tool's definition compares with what the user saw before. */
export function definitionMark(tool: Tool): string {
  const status = tool.definitionStatus;
  if (status === undefined) return "";
  const pinned = status.pinned === "same" ? ["pinned"] : status.pinned === "changed" ? ["changed since pinned"] : [];
  return [...pinned, ...(status.changedThisSession ? ["changed this session"] : [])].join(", ");
}
