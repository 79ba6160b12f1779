// What a resumed chat (`--resume`, `-c`) shows of the conversation it goes on with: the person's prompts,
// the answers as they were rendered, each tool call as one line with its outcome. A long session shows its
// last turns and says how many earlier ones it leaves out. Every word came from the person, the model or a
// tool: each line passes untrustedText (the Markdown renderer does that for answers).
import type { ChalkInstance } from "chalk";
import type { Message, ToolArgs } from "../kernel/index.js";
import type { MarkdownRenderer } from "./markdown.js";
import { typedPart } from "./mentions.js";
import { parseShellContext } from "./shell-line.js";
import { clipToWidth, visibleWidth } from "./text-layout.js";
import { untrustedText } from "./untrusted-text.js";

/** How many of the last turns a resumed chat shows; a turn is a prompt and everything up to the next. */
export const RESUMED_TURNS_SHOWN = 10;
/** A prompt longer than this many lines shows its first ones and how many more it had. */
const PROMPT_LINES_SHOWN = 12;

export type ResumedEntry =
  | { readonly kind: "prompt"; readonly text: string }
  | { readonly kind: "answer"; readonly text: string }
  /** `outcome` null: the call never got a result (the session ended during it). */
  | { readonly kind: "call"; readonly tool: string; readonly args: ToolArgs; readonly outcome: { readonly isError: boolean; readonly text: string } | null }
  /** A command the person ran themselves (`!command`), with what it gave. */
  | { readonly kind: "shell"; readonly command: string; readonly isError: boolean; readonly output: string };

export interface ResumedView {
  /** Turns before the first one shown. */
  readonly earlierTurns: number;
  readonly entries: readonly ResumedEntry[];
}

/** The last `turns` turns of a history as entries; a user message of only tool results belongs to the turn before it. */
export function resumedView(messages: readonly Message[], turns: number = RESUMED_TURNS_SHOWN): ResumedView {
  const starts = messages.flatMap((message, index) => (isPrompt(message) ? [index] : []));
  const first = starts.length > turns ? (starts[starts.length - turns] ?? 0) : 0;
  const shown = messages.slice(first);
  const results = new Map<string, { isError: boolean; text: string }>();
  for (const message of shown) {
    if (message.role !== "user") continue;
    for (const block of message.content) if (block.type === "tool_result") results.set(block.toolUseId, { isError: block.isError, text: block.text });
  }
  const entries: ResumedEntry[] = [];
  for (const message of shown) {
    if (message.role === "user") {
      entries.push(...userEntries(message));
      continue;
    }
    for (const block of message.content) {
      if (block.type === "text") {
        const last = entries.at(-1);
        // One answer's text blocks read as one answer, as they streamed.
        if (last?.kind === "answer") entries[entries.length - 1] = { kind: "answer", text: `${last.text}\n\n${block.text}` };
        else if (block.text.trim() !== "") entries.push({ kind: "answer", text: block.text });
      } else {
        entries.push({ kind: "call", tool: block.name, args: block.input, outcome: results.get(block.id) ?? null });
      }
    }
  }
  return { earlierTurns: starts.filter((start) => start < first).length, entries };
}

/**
 * What the person wrote in one message: the commands they ran (`!`) and their prompt, in order; a prompt
 * as typed, without the files and resources it attached or the text piped after it.
 */
function userEntries(message: Extract<Message, { role: "user" }>): ResumedEntry[] {
  const entries: ResumedEntry[] = [];
  let prompt: string[] = [];
  const endPrompt = (): void => {
    if (prompt.length > 0) entries.push({ kind: "prompt", text: prompt.join("\n") });
    prompt = [];
  };
  for (const block of message.content) {
    if (block.type === "tool_result") continue;
    const shell = block.type === "text" ? parseShellContext(block.text) : null;
    if (shell !== null) {
      endPrompt();
      entries.push({ kind: "shell", ...shell });
    } else prompt.push(block.type === "text" ? typedPrompt(block.text) : "[an image]");
  }
  endPrompt();
  return entries;
}

/** A prompt up to what its mentions attached (each under a heading that starts with the mention) or the text piped after it. */
function typedPrompt(text: string): string {
  const typed = typedPart(text);
  for (const match of typed.matchAll(/\n\n@(\S+)/gu)) {
    if (typed.slice(0, match.index).includes(`@${match[1] ?? ""}`)) return typed.slice(0, match.index);
  }
  return typed;
}

/** A user message the person wrote: one with any text or image, not only the tools' results. */
function isPrompt(message: Message): boolean {
  return message.role === "user" && message.content.some((block) => block.type !== "tool_result");
}

export interface ResumedViewDeps {
  readonly chalk: ChalkInstance;
  /** Renders an answer's Markdown; null shows it as plain text. */
  readonly markdown: MarkdownRenderer | null;
  /** The terminal's width, for the one-line calls; undefined when unknown. */
  readonly width: number | undefined;
}

/** The view as the text to print, ending with a line that says the chat goes on from here. */
export function resumedViewText(view: ResumedView, deps: ResumedViewDeps): string {
  const { chalk } = deps;
  const room = Math.max(20, (deps.width ?? 100) - 4);
  const parts: string[] = [];
  if (view.earlierTurns > 0) parts.push(chalk.dim(`… ${view.earlierTurns} earlier ${view.earlierTurns === 1 ? "turn" : "turns"} not shown`));
  for (const entry of view.entries) {
    switch (entry.kind) {
      case "prompt":
        parts.push(promptLines(entry.text).map((line, index) => `${chalk.bold(index === 0 ? "›" : " ")} ${line}`).join("\n"));
        break;
      case "answer":
        parts.push(deps.markdown === null ? untrustedText(entry.text).trimEnd() : deps.markdown(entry.text).trimEnd());
        break;
      case "call":
        parts.push(callLine(entry, room, chalk));
        break;
      case "shell":
        parts.push(shellLine(entry, room, chalk));
        break;
      default: {
        const unknown: never = entry;
        throw new Error(`unknown entry ${JSON.stringify(unknown)}`);
      }
    }
  }
  parts.push(chalk.dim("── resumed: the conversation goes on from here ──"));
  return `${parts.join("\n")}\n`;
}

function promptLines(text: string): string[] {
  const lines = untrustedText(text.trimEnd()).split("\n");
  if (lines.length <= PROMPT_LINES_SHOWN) return lines;
  return [...lines.slice(0, PROMPT_LINES_SHOWN), `… (${lines.length - PROMPT_LINES_SHOWN} more lines)`];
}

/** `● tool {args} ✓ first line of the result`, on one line of at most `room` columns. */
function callLine(call: Extract<ResumedEntry, { kind: "call" }>, room: number, chalk: ChalkInstance): string {
  const name = untrustedText(call.tool);
  const outcome = call.outcome;
  const mark = outcome === null ? "…" : outcome.isError ? "✗" : "✓";
  // One line: a tab (read_file's line numbers) or a run of spaces shows as one space.
  const result = outcome === null ? "no result" : (untrustedText(outcome.text).split("\n").find((line) => line.trim() !== "")?.trim().replace(/\s+/gu, " ") ?? "(no output)");
  const args = untrustedText(JSON.stringify(call.args));
  const argsRoom = Math.max(10, Math.floor((room - visibleWidth(name) - 4) / 2));
  const shownArgs = clipToWidth(args, argsRoom);
  const shownResult = clipToWidth(result, Math.max(10, room - visibleWidth(name) - visibleWidth(shownArgs) - 5));
  const colour = outcome === null ? chalk.yellow : outcome.isError ? chalk.red : chalk.green;
  return `${chalk.cyan(`● ${name}`)} ${chalk.dim(shownArgs)} ${colour(mark)} ${chalk.dim(shownResult)}`;
}

/** `! command ✓ first line of its output`, on one line of at most `room` columns. */
function shellLine(entry: Extract<ResumedEntry, { kind: "shell" }>, room: number, chalk: ChalkInstance): string {
  const command = clipToWidth(untrustedText(entry.command).replace(/\s+/gu, " "), Math.max(10, Math.floor(room / 2)));
  const output = untrustedText(entry.output.replace(/^exit code 0\n/u, "")).split("\n").find((line) => line.trim() !== "")?.trim().replace(/\s+/gu, " ") ?? "(no output)";
  const mark = entry.isError ? chalk.red("✗") : chalk.green("✓");
  return `${chalk.bold("!")} ${command} ${mark} ${chalk.dim(clipToWidth(output, Math.max(10, room - visibleWidth(command) - 5)))}`;
}
