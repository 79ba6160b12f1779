// Approval of one tool call by the user, and what they are shown to judge it. In the chat: the tool's name,
// source, the gate's reason and the arguments, then allow once / allow for this session / deny. When nobody
// can be asked (pipe mode, `-p`, subcommands): `ask` means deny, and the message names the flag that allows the call.
import type { ChalkInstance } from "chalk";
import type { ApprovalAnswer, ApprovalRequest, Tool } from "../kernel/index.js";
import type { Asker, Choice } from "./terminal.js";
import { untrustedText } from "./untrusted-text.js";

const ARGS_PREVIEW_LINES = 20;
const APPROVAL_CHOICES: ReadonlyArray<Choice<ApprovalAnswer>> = [
  { title: "Allow once", value: "once" },
  { title: "Allow for this session", value: "session" },
  { title: "Deny", value: "deny" },
];

/** "cancelled" when the user pressed Ctrl-C or Escape at the question. */
export async function promptForApproval(request: ApprovalRequest, chalk: ChalkInstance, asker: Asker): Promise<ApprovalAnswer | "cancelled"> {
  asker.say(describeRequest(request, chalk));
  return (await asker.select(`Allow ${untrustedText(request.tool.name)}?`, APPROVAL_CHOICES)) ?? "cancelled";
}

/** The server's names, claims and the model's arguments pass untrustedText: the user judges them by what is shown. */
export function describeRequest(request: ApprovalRequest, chalk: ChalkInstance): string {
  const { tool, args, decision } = request;
  const source = tool.source === "local" ? "local tool" : `MCP server "${tool.source}" (its own name: ${tool.originalName})`;
  const lines = [
    `${chalk.yellow("approval needed:")} ${chalk.bold(untrustedText(tool.name))} from ${untrustedText(source)}`,
    chalk.dim(`  why: ${untrustedText(decision.reason)}`),
  ];
  if (tool.annotations !== undefined) {
    lines.push(chalk.dim(`  the server says (not trusted): ${untrustedText(JSON.stringify(tool.annotations))}`));
  }
  const argLines = untrustedText(JSON.stringify(args, null, 2)).split("\n");
  const shown = argLines.slice(0, ARGS_PREVIEW_LINES).map((line) => `  ${line}`);
  if (argLines.length > ARGS_PREVIEW_LINES) shown.push(chalk.dim(`  … ${argLines.length - ARGS_PREVIEW_LINES} more lines`));
  return [...lines, ...shown].join("\n");
}

function denialMessage(toolName: string): string {
  return `denied: ${toolName} needs approval; run with --allow ${JSON.stringify(toolName)} to allow it`;
}

export function createApproverWithoutTerminal(warn: (line: string) => void): (request: ApprovalRequest) => Promise<ApprovalAnswer> {
  return async (request) => {
    warn(denialMessage(request.tool.name));
    return "deny";
  };
}

// A remote tool's annotations as /tools shows them: what the server claims about its own tool. Shown so
// the user can judge; the approval gate never reads them (they are untrusted, spec §4).

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
