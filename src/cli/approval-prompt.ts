// Asks the user about one tool call in the chat: the tool's name, source, the gate's reason and the
// arguments, then allow once / allow for this session / deny. `prompts` is loaded on first use only.
import type { ChalkInstance } from "chalk";
import type { ApprovalRequest } from "../kernel/index.js";
import type { ApprovalAnswer } from "../kernel/index.js";
import type { TerminalInput, TerminalOutput } from "./terminal-streams.js";

const ARGS_PREVIEW_LINES = 20;
const ANSWERS: readonly ApprovalAnswer[] = ["once", "session", "deny"];

export interface PromptStreams {
  readonly stdin: TerminalInput;
  readonly stdout: TerminalOutput;
}

/** "cancelled" when the user pressed Ctrl-C or Escape at the question. */
export async function promptForApproval(
  request: ApprovalRequest,
  chalk: ChalkInstance,
  streams: PromptStreams,
): Promise<ApprovalAnswer | "cancelled"> {
  const { default: prompts } = await import("prompts");
  streams.stdout.write(`${describeRequest(request, chalk)}\n`);
  let cancelled = false;
  const response = await prompts(
    {
      type: "select",
      name: "answer",
      message: `Allow ${request.tool.name}?`,
      choices: [
        { title: "Allow once", value: "once" },
        { title: "Allow for this session", value: "session" },
        { title: "Deny", value: "deny" },
      ],
      initial: 0,
      stdin: streams.stdin,
      stdout: streams.stdout,
    },
    {
      onCancel: () => {
        cancelled = true;
        return false;
      },
    },
  );
  if (cancelled) return "cancelled";
  const answer: unknown = response.answer;
  return ANSWERS.find((candidate) => candidate === answer) ?? "cancelled";
}

export function describeRequest(request: ApprovalRequest, chalk: ChalkInstance): string {
  const { tool, args, decision } = request;
  const source = tool.source === "local" ? "local tool" : `MCP server "${tool.source}" (its own name: ${tool.originalName})`;
  const lines = [
    `${chalk.yellow("approval needed:")} ${chalk.bold(tool.name)} from ${source}`,
    chalk.dim(`  why: ${decision.reason}`),
  ];
  if (tool.annotations !== undefined) {
    lines.push(chalk.dim(`  the server says (not trusted): ${JSON.stringify(tool.annotations)}`));
  }
  const argLines = JSON.stringify(args, null, 2).split("\n");
  const shown = argLines.slice(0, ARGS_PREVIEW_LINES).map((line) => `  ${line}`);
  if (argLines.length > ARGS_PREVIEW_LINES) shown.push(chalk.dim(`  … ${argLines.length - ARGS_PREVIEW_LINES} more lines`));
  return [...lines, ...shown].join("\n");
}
