// Agent events as the user sees them: plain for pipe mode, `-p` and the subcommands (no colour, no
// spinner), and for the chat's terminal (colour, a spinner while the model thinks or a tool runs). Both
// share the short one-line forms of tool arguments and results. Every text an event carries came from the
// model, a tool, a server or a file, so each passes untrustedText before it is printed.
import type { ChalkInstance } from "chalk";
import { imageLine, type AgentEvent, type ImageInfo, type ToolArgs } from "../kernel/index.js";
import { createLiveText } from "./live-text.js";
import { createMarkdownBlocks, type MarkdownRenderer } from "./markdown.js";
import { clipToWidth, fitToWidth, visibleWidth } from "./text-layout.js";
import type { Spinner } from "./spinner.js";
import { untrustedText } from "./untrusted-text.js";

const ARGS_PREVIEW_CHARS = 200;
const RESULT_PREVIEW_CHARS = 160;

function previewArgs(args: ToolArgs, maxChars: number = ARGS_PREVIEW_CHARS): string {
  return clipToWidth(untrustedText(JSON.stringify(args)), maxChars);
}

/** The first non-empty line of a result, clipped, with how many more lines there are. */
function previewResult(text: string, maxChars: number = RESULT_PREVIEW_CHARS): string {
  const lines = untrustedText(text).split("\n").filter((line) => line.trim() !== "");
  const first = lines[0];
  if (first === undefined) return "(no output)";
  const more = lines.length > 1 ? ` (+${lines.length - 1} lines)` : "";
  return `${clipToWidth(first.trim(), Math.max(1, maxChars - more.length))}${more}`;
}

/** One line per image the model was sent with a result: `[image: image/png 1280×720, 84 kB]`. */
function imageLines(images: readonly ImageInfo[] | undefined): string[] {
  return (images ?? []).map((image) => untrustedText(imageLine(image)));
}

export interface PlainStreams {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/** The model's words on stdout; tool activity and diagnostics on stderr. */
export function createPlainRenderer(streams: PlainStreams): (event: AgentEvent) => void {
  let midLine = false;
  /** Words were printed in this turn and a tool ran since: the next step's text starts a paragraph of its own. */
  let stepBreak: "none" | "words" | "pending" = "none";
  /** Calls refused, their reason already printed: their result only says it again. */
  const refused = new Set<string>();
  const endLine = (): void => {
    if (midLine) streams.out("\n");
    midLine = false;
  };
  return (event) => {
    switch (event.type) {
      case "text":
        if (event.delta === "") return;
        // "I'll read the README first." and "## Summary" are two steps of the model, never one line.
        if (stepBreak === "pending") streams.out("\n");
        stepBreak = "words";
        streams.out(untrustedText(event.delta));
        midLine = !event.delta.endsWith("\n");
        return;
      case "tool_start":
        endLine();
        if (stepBreak === "words") stepBreak = "pending";
        streams.err(`[${untrustedText(event.tool)}] ${previewArgs(event.args)}\n`);
        return;
      case "tool_progress":
        streams.err(`[progress] ${untrustedText(event.message)}\n`);
        return;
      case "tool_end": {
        if (refused.delete(event.callId)) return;
        const status = event.isError ? "failed" : "ok";
        const truncated = event.truncated ? ", truncated" : "";
        streams.err(`[${untrustedText(event.tool)}] ${status}${truncated}: ${previewResult(event.text)}\n`);
        for (const image of imageLines(event.images)) streams.err(`  ${image}\n`);
        return;
      }
      case "approval":
        // A "deny" answer was already explained by whoever answered; a rule's denial has no answer.
        if (event.answer === undefined) streams.err(`[approval] ${untrustedText(event.tool)}: ${event.decision.verdict} (${untrustedText(event.decision.reason)})\n`);
        else if (event.answer !== "deny") streams.err(`[approval] ${untrustedText(event.tool)}: ${event.answer}\n`);
        if (event.answer === "deny" || (event.answer === undefined && event.decision.verdict === "deny")) refused.add(event.callId);
        return;
      case "notice":
        streams.err(`${untrustedText(event.message)}\n`);
        return;
      case "error":
        streams.err(`error: ${untrustedText(event.message)}\n`);
        return;
      case "usage":
        // -p and pipe mode print the answer alone; the cost line is the chat's.
        return;
      case "message":
        // Its words were printed as they streamed, its calls and results as they ran.
        return;
      case "turn_end":
        endLine();
        stepBreak = "none";
        if (event.reason === "aborted") streams.err("interrupted\n");
        return;
      default: {
        const unknown: never = event;
        throw new Error(`unrendered event ${JSON.stringify(unknown)}`);
      }
    }
  };
}

export interface TtyRenderer {
  readonly emit: (event: AgentEvent) => void;
  /** A prompt went to the model: spin until its first words arrive. */
  readonly thinking: () => void;
  /** Something else needs the terminal (an approval prompt): stop the spinner, end the line. */
  readonly pause: () => void;
  /** A line from outside the turn (a server's warning or log line), between the turn's own; the progress line stays. */
  readonly note: (text: string) => void;
}

export interface TtyRendererDeps {
  readonly out: (text: string) => void;
  readonly chalk: ChalkInstance;
  readonly spinner: Spinner;
  /** The terminal's width now: one-line summaries are cut to it. Unset: no limit. */
  readonly width?: () => number | undefined;
  /** The Markdown renderer once it has loaded: answers are rendered block by block. Unset or not yet: plain text. */
  readonly markdown?: () => MarkdownRenderer | undefined;
  /** The terminal's height now: how much of a streamed block can still be drawn again. Unset: 24 rows. */
  readonly height?: () => number | undefined;
  /** How long the stream may be silent before the spinner shows that the answer is still coming. */
  readonly idleMs?: number;
  /** A tool's name as a call line shows it (a remote tool's title beside its name); unset: the name. */
  readonly displayName?: (tool: string) => string;
}

/** Words stopped arriving this long ago: the spinner shows, counting the seconds. */
export const STREAM_IDLE_MS = 1000;

/** A block as Markdown, or as plain text if the renderer fails on it: drawing never fails the model's answer. */
function rendered(render: MarkdownRenderer, block: string): string {
  try {
    return render(block);
  } catch {
    return `${untrustedText(block)}${block.endsWith("\n") ? "" : "\n"}`;
  }
}
/**
 * The block being streamed is drawn again at most this often: each drawing reads the whole block so far, so
 * drawing at every delta would cost the square of its length (a 2,000-line file: seconds of a frozen chat).
 */
const PREVIEW_EVERY_MS = 40;
/** A block longer than this is not previewed further: it shows when it completes. */
const MAX_PREVIEW_CHARS = 256 * 1024;
/** A cursor movement or erasure: nothing that takes a column. */
const CURSOR_SEQUENCE = /\u001b\[[0-9;]*[A-HJKf]/gu;

/** Streamed text, a line per tool call and result, colour through the chalk instance it is given. */
export function createTtyRenderer({ out, chalk, spinner, width, markdown, height, idleMs = STREAM_IDLE_MS, displayName = (tool) => tool }: TtyRendererDeps): TtyRenderer {
  let midLine = false;
  /** The cursor's column on its line, for the way back from a spinner drawn below a line being written. */
  let column = 0;
  /** Set while the spinner stands on the line below the one being written: that line's column, to go back to. */
  let spinnerBelow: number | undefined;
  let idle: NodeJS.Timeout | undefined;
  /** Calls running now: their name, short arguments and start, for the progress line. */
  const running = new Map<string, { readonly name: string; readonly args: string; readonly sinceMs: number }>();
  /** Decided at a step's first words, so one answer is never half plain and half rendered. */
  let stepMarkdown: MarkdownRenderer | null | undefined;
  const blocks = createMarkdownBlocks();
  const write = (text: string): void => {
    spinner.stop();
    if (spinnerBelow !== undefined) {
      out(`\u001b[1A\u001b[${spinnerBelow + 1}G`);
      spinnerBelow = undefined;
    }
    if (text === "") return;
    out(text);
    const lineStart = Math.max(text.lastIndexOf("\n"), text.lastIndexOf("\r"));
    const tail = visibleWidth(text.slice(lineStart + 1).replace(CURSOR_SEQUENCE, ""));
    column = lineStart === -1 ? column + tail : tail;
    midLine = column > 0;
  };
  /** A line is being written: the spinner is to stand on the next, and the next words to come back to it. */
  const stepBelow = (): void => {
    if (!midLine) return;
    const back = column % (width?.() ?? Number.POSITIVE_INFINITY);
    write("\n");
    spinnerBelow = back;
  };
  const live = createLiveText({ write, columns: () => width?.(), rows: () => height?.() });
  /** Nothing arrived for a while: the spinner counts the seconds since, below the line being written if there is one. */
  const armIdle = (): void => {
    clearTimeout(idle);
    const sinceMs = Date.now();
    idle = setTimeout(() => {
      stepBelow();
      spinner.start("thinking", sinceMs);
    }, idleMs);
    idle.unref();
  };
  let previewDue: NodeJS.Timeout | undefined;
  let previewedMs = Number.NEGATIVE_INFINITY;
  const cancelPreview = (): void => {
    clearTimeout(previewDue);
    previewDue = undefined;
  };
  const preview = (): void => {
    cancelPreview();
    previewedMs = Date.now();
    const pending = blocks.pending();
    if (pending.length <= MAX_PREVIEW_CHARS) live.show(pending);
  };
  const showText = (delta: string): void => {
    armIdle();
    stepMarkdown ??= markdown?.() ?? null;
    if (stepMarkdown === null) return write(untrustedText(delta));
    const done = blocks.push(delta);
    if (!live.enabled()) {
      if (done !== "") write(rendered(stepMarkdown, done));
      return;
    }
    if (done !== "") {
      cancelPreview();
      live.finish(done, rendered(stepMarkdown, done));
    }
    const waitMs = previewedMs + PREVIEW_EVERY_MS - Date.now();
    if (waitMs <= 0) preview();
    else if (previewDue === undefined) {
      previewDue = setTimeout(preview, waitMs);
      previewDue.unref();
    }
  };
  /** The rest of a step's words, rendered before anything else is printed. */
  const flushText = (): void => {
    clearTimeout(idle);
    cancelPreview();
    const rest = blocks.end();
    if (stepMarkdown && live.enabled()) live.finish(rest, rest === "" ? "" : rendered(stepMarkdown, rest));
    else if (rest !== "" && stepMarkdown) write(rendered(stepMarkdown, rest));
    stepMarkdown = undefined;
  };
  const line = (text: string): void => {
    flushText();
    if (midLine) write("\n");
    write(`${fitToWidth(text, width?.())}\n`);
  };

  /** How many characters a summary may take after `used` columns, within the terminal's width. */
  const summaryRoom = (used: number, cap: number): number => {
    const columns = width?.();
    return columns === undefined ? cap : Math.max(10, Math.min(cap, columns - used));
  };

  const emit = (event: AgentEvent): void => {
    switch (event.type) {
      case "text":
        showText(event.delta);
        return;
      case "tool_start": {
        const shown = untrustedText(displayName(event.tool));
        const args = previewArgs(event.args, summaryRoom(visibleWidth(shown) + 3, ARGS_PREVIEW_CHARS));
        running.set(event.callId, { name: shown, args, sinceMs: Date.now() });
        line(`${chalk.cyan(`● ${shown}`)} ${chalk.dim(args)}`);
        spinner.start(`${shown} ${args}`, running.get(event.callId)?.sinceMs);
        return;
      }
      case "tool_progress": {
        // The newest thing the tool said (for bash, its newest line of output), beside its name and time.
        const call = running.get(event.callId);
        spinner.start(`${call?.name ?? "tool"}: ${untrustedText(event.message).replaceAll("\n", " ")}`, call?.sinceMs);
        return;
      }
      case "tool_end": {
        running.delete(event.callId);
        const mark = event.isError ? chalk.red("  ✗") : chalk.green("  ✓");
        const truncated = event.truncated ? chalk.dim(" (cut to fit the budget)") : "";
        line(`${mark} ${previewResult(event.text, summaryRoom(event.truncated ? 28 : 4, RESULT_PREVIEW_CHARS))}${truncated}`);
        for (const image of imageLines(event.images)) line(chalk.dim(`    ${image}`));
        spinner.start("thinking", Date.now());
        return;
      }
      case "approval":
        if (event.answer === undefined) return;
        line(chalk.dim(`  approval for ${untrustedText(event.tool)}: ${event.answer}`));
        // The question stopped the spinner; an approved tool runs now.
        if (event.answer !== "deny") {
          // The time the user took to answer is not the tool's: its clock starts now.
          const call = running.get(event.callId);
          const sinceMs = Date.now();
          if (call !== undefined) running.set(event.callId, { ...call, sinceMs });
          spinner.start(call === undefined ? untrustedText(event.tool) : `${call.name} ${call.args}`, sinceMs);
        }
        return;
      case "notice":
        line(chalk.yellow(untrustedText(event.message)));
        return;
      case "error":
        line(chalk.red(`error: ${untrustedText(event.message)}`));
        return;
      case "usage":
        // The chat tallies it and shows the cost line when the turn ends.
        return;
      case "message":
        // Its words were drawn as they streamed, its calls and results as they ran.
        return;
      case "turn_end":
        flushText();
        spinner.stop();
        if (midLine) write("\n");
        // Whoever interrupted says what comes next: after Ctrl-C the chat names the second Ctrl-C, after a signal nothing does.
        if (event.reason === "aborted") line(chalk.yellow("interrupted"));
        return;
      default: {
        const unknown: never = event;
        throw new Error(`unrendered event ${JSON.stringify(unknown)}`);
      }
    }
  };

  return {
    emit,
    thinking: () => spinner.start("thinking", Date.now()),
    pause: () => {
      flushText();
      spinner.stop();
      if (midLine) write("\n");
    },
    // Not through `line`: the Markdown block being streamed is not complete, and must not be cut in two. Its
    // preview steps aside for the note and is shown again under it.
    note: (text) =>
      spinner.aside(() => {
        const streaming = stepMarkdown && live.enabled();
        if (streaming) live.hide();
        if (midLine) write("\n");
        write(`${chalk.dim(text)}\n`);
        if (streaming) live.show(blocks.pending());
        // The spinner comes back where it was drawn: below a line being written, never over it.
        stepBelow();
      }),
  };
}
