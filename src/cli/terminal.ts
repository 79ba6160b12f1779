// The terminal the chat talks through and lends out: its streams, the chat's input line, the lender that
// hands the terminal to a question from inside a running turn, and the asker those questions use.
import { clearScreenDown, createInterface, cursorTo, moveCursor, type Interface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import type { ChalkInstance } from "chalk";
import type { PromptObject } from "prompts";

/** process.stdin/stdout in use, in-memory streams in tests. */
export type TerminalInput = Readable & { readonly isTTY?: boolean };
export type TerminalOutput = Writable & { readonly isTTY?: boolean; readonly columns?: number; readonly rows?: number };

// The chat's input line can step aside while something else owns the terminal and come back with its
// history, so the two never read the same keystrokes. It hands the chat whole prompts: a paste arrives as
// one prompt however many lines it has (the terminal's bracketed paste mode marks where it starts and
// ends), and a line ending in a backslash continues on the next.
const HISTORY_SIZE = 500;
/** Bracketed paste mode (xterm; every current terminal): the terminal wraps a paste in ESC[200~ … ESC[201~. */
const PASTE_MODE_ON = "\u001b[?2004h";
const PASTE_MODE_OFF = "\u001b[?2004l";
const CONTINUATION_PROMPT = "… ";
const SHOW_CURSOR = "\u001b[?25h";

export interface ChatInputDeps {
  readonly input: TerminalInput;
  readonly output: TerminalOutput;
  readonly promptText: string;
  /** A whole prompt: one line, a paste, or lines joined by trailing backslashes (newlines kept). */
  readonly onLine: (text: string) => void;
  /** Ctrl-C; `hadText` when it cleared a half-typed line (or a prompt being continued) instead. */
  readonly onInterrupt: (hadText: boolean) => void;
  /** Ctrl-D on an empty line, or the input ended. */
  readonly onEnd: () => void;
  /** Tab: the candidates for the line so far, and the part of it they replace. */
  readonly complete?: (line: string) => [string[], string];
  /** Earlier prompts, newest first (Up brings them back). */
  readonly history?: readonly string[];
}

export interface ChatInput {
  prompt(): void;
  /** Puts text into the input line for the user to edit or send (it is not sent). */
  prefill(text: string): void;
  /**
   * Prints a line above the input line, which is drawn again below it with what was typed so far: for what
   * arrives while the user types (a server that disconnects, its log lines). `text` ends without a newline.
   * While the terminal is lent out (suspend) the line waits, and is printed when it comes back.
   */
  printAbove(text: string): void;
  /**
   * Takes back the row a line typed while no input line was shown (during a turn) was echoed on, beside the
   * spinner: Enter left it behind, above the cursor.
   */
  takeBackEcho(): void;
  /** Whether the terminal is lent out now (an approval or a server's question owns it). */
  readonly suspended: boolean;
  /** Closes the input line while `work` owns the terminal, then opens it again. */
  suspend<T>(work: () => Promise<T>): Promise<T>;
  close(): void;
}

export function createChatInput(deps: ChatInputDeps): ChatInput {
  let current: Interface | null = null;
  let history: string[] = [...(deps.history ?? [])];
  let closed = false;
  /** Lines of a prompt not yet sent: those of a paste so far, or those ended by a backslash. */
  let gathered: string[] = [];
  /** Those lines as readline took them into its history. */
  let typed: string[] = [];
  let pasting = false;
  /** While the terminal is lent out (suspend): lines for printAbove wait here. */
  let suspended = false;
  const held: string[] = [];
  const isTerminal = deps.input.isTTY === true;
  let pasteMode = false;
  /** The terminal is left as it was found: bracketed paste on only while this input line reads. */
  const setPasteMode = (on: boolean): void => {
    if (!isTerminal || pasteMode === on) return;
    pasteMode = on;
    deps.output.write(on ? PASTE_MODE_ON : PASTE_MODE_OFF);
  };

  const onKeypress = (_text: string | undefined, key: { readonly name?: string } | undefined): void => {
    if (key?.name === "paste-start") pasting = true;
    else if (key?.name === "paste-end") pasting = false;
  };

  const onInputLine = (line: string): void => {
    // Inside a paste every newline is part of the text: the prompt is sent by the Enter that follows it.
    if (pasting) {
      gathered.push(line);
      typed.push(line);
      return;
    }
    if (line.endsWith("\\")) {
      gathered.push(line.slice(0, -1));
      typed.push(line);
      current?.setPrompt(CONTINUATION_PROMPT);
      current?.prompt();
      return;
    }
    const text = [...gathered, line].join("\n");
    if (gathered.length > 0) keepAsOneEntry(history, [...typed, line], text);
    gathered = [];
    typed = [];
    current?.setPrompt(deps.promptText);
    deps.onLine(text);
  };

  const open = (): Interface => {
    const next = createInterface({
      input: deps.input,
      output: deps.output,
      prompt: deps.promptText,
      terminal: isTerminal,
      history,
      historySize: HISTORY_SIZE,
      ...(deps.complete === undefined ? {} : { completer: deps.complete }),
    });
    setPasteMode(true);
    pasting = false;
    deps.input.on("keypress", onKeypress);
    next.on("history", (lines) => {
      history = lines;
    });
    next.on("line", onInputLine);
    next.on("SIGINT", () => {
      const hadText = next.line !== "" || gathered.length > 0;
      if (next.line !== "") {
        next.write(null, { ctrl: true, name: "e" });
        next.write(null, { ctrl: true, name: "u" });
      }
      gathered = [];
      typed = [];
      next.setPrompt(deps.promptText);
      deps.onInterrupt(hadText);
    });
    next.on("close", () => {
      // Only the user ends the input; closing it ourselves (suspend, close) is not an end.
      if (current !== next) return;
      current = null;
      deps.input.off("keypress", onKeypress);
      setPasteMode(false);
      deps.onEnd();
    });
    current = next;
    return next;
  };

  const detach = (): void => {
    const previous = current;
    current = null;
    deps.input.off("keypress", onKeypress);
    setPasteMode(false);
    previous?.close();
  };

  open();
  return {
    prompt() {
      current?.prompt();
    },
    prefill(text) {
      current?.write(text);
    },
    printAbove(text) {
      if (suspended) {
        held.push(text);
        return;
      }
      const typing = current;
      if (typing === null || !isTerminal) {
        deps.output.write(`${text}\n`);
        return;
      }
      const { line: typed, cursor } = typing;
      // From the first row of the input line (it may wrap over several) everything is cleared; the text goes
      // there, and a new input line below it gets what was typed back, the cursor where it was. The old line
      // is not asked to redraw itself: readline's count of the rows it takes is stale after a paste.
      moveCursor(deps.output, 0, -typing.getCursorPos().rows);
      cursorTo(deps.output, 0);
      clearScreenDown(deps.output);
      deps.output.write(`${text}\n`);
      // A paste that arrives in pieces goes on being one, in the new line.
      const wasPasting = pasting;
      detach();
      const next = open();
      pasting = wasPasting;
      if (gathered.length > 0) next.setPrompt(CONTINUATION_PROMPT);
      // Readline's documented state of the input line, set, then drawn in one go by prompt(true), which
      // also counts the rows it takes: linear in the line's length, however long a paste.
      Object.assign(next, { line: typed, cursor });
      next.prompt(true);
    },
    takeBackEcho() {
      if (!isTerminal) return;
      moveCursor(deps.output, 0, -1);
      cursorTo(deps.output, 0);
      clearScreenDown(deps.output);
    },
    get suspended() {
      return suspended;
    },
    async suspend(work) {
      detach();
      suspended = true;
      try {
        return await work();
      } finally {
        suspended = false;
        // What came while the terminal was lent out, now that nothing else draws on it.
        for (const text of held.splice(0)) deps.output.write(`${text}\n`);
        if (!closed) open();
      }
    },
    close() {
      closed = true;
      // A question still open when the chat ends (SIGTERM during an approval) has hidden the cursor, and will
      // never show it again: the terminal is left with it shown.
      if (isTerminal && suspended) deps.output.write(SHOW_CURSOR);
      detach();
    },
  };
}

/**
 * Readline puts each line of a prompt into its history (newest first) as it reads it, skipping blank ones and
 * a repeat of the newest; a prompt of several lines is one entry instead, so Up brings it back whole.
 */
function keepAsOneEntry(history: string[], lines: readonly string[], prompt: string): void {
  let taken = 0;
  for (const line of [...lines].reverse()) if (line.trim() !== "" && history[taken] === line) taken += 1;
  history.splice(0, taken, prompt);
}

/**
 * A long text in `$PAGER` (default `less -R`, which shows the text's own escapes as given: the caller passes
 * text already made safe) on the chat's terminal; printed as it is when no pager can start.
 */
export async function showInPager(text: string, output: TerminalOutput, input: TerminalInput): Promise<void> {
  const { spawn } = await import("node:child_process");
  const [command = "less", ...args] = (process.env.PAGER ?? "less -R").split(" ").filter((word) => word !== "");
  const started = await new Promise<boolean>((resolve) => {
    const pager = spawn(command, args, { stdio: ["pipe", "inherit", "inherit"] });
    pager.on("error", () => resolve(false));
    pager.on("close", () => resolve(true));
    pager.stdin.on("error", () => undefined);
    pager.stdin.end(text.endsWith("\n") ? text : `${text}\n`);
  });
  if (!started) output.write(text.endsWith("\n") ? text : `${text}\n`);
  // The pager had the terminal in its own mode; the input line gets it back as it left it.
  if (input.isTTY === true && "setRawMode" in input && typeof input.setRawMode === "function") input.setRawMode(false);
}

// How the chat lends its terminal to a question that comes from inside a running turn (an MCP server's
// input request): while the question runs, the chat's input line steps aside and the spinner stops.

export interface LentTerminal {
  readonly asker: Asker;
  readonly chalk: ChalkInstance;
}

/**
 * Runs `question` with the terminal. It resolves undefined when the user pressed Ctrl-C (or Escape) at a
 * question; the chat then interrupts the running turn, as Ctrl-C at an approval question does.
 */
export type TerminalLender = <T>(question: (terminal: LentTerminal) => Promise<T | undefined>) => Promise<T | undefined>;

// The few questions an MCP input request needs (pick one, pick several, type a line, yes/no), behind one
// small interface so the form logic is tested with a scripted fake and runs on `prompts` in the terminal.
// Every question resolves to undefined when the user cancels it.

export interface Choice<T extends string> {
  readonly title: string;
  readonly value: T;
  readonly description?: string;
}

/** What a typed answer is checked with: undefined when it is fine, else the reason shown to the user. */
export type Check<T> = (value: T) => string | undefined;

export interface Asker {
  /** Lines of explanation before a question (the server, its message, a field's description). */
  say(text: string): void;
  select<T extends string>(message: string, choices: ReadonlyArray<Choice<T>>, initial?: number): Promise<T | undefined>;
  multiselect<T extends string>(message: string, choices: ReadonlyArray<Choice<T>>, selected: readonly T[], check: Check<readonly T[]>): Promise<T[] | undefined>;
  text(message: string, initial: string, check: Check<string>): Promise<string | undefined>;
  confirm(message: string, initial: boolean): Promise<boolean | undefined>;
}

/**
 * The asker with every text it shows redacted: the explanation, each question, each choice's title and
 * description, and a starting answer. A server's question is the server's text, and a server may echo a
 * token it was given.
 */
export function redactingAsker(asker: Asker, redact: (text: string) => string): Asker {
  const shown = <T extends string>(choices: ReadonlyArray<Choice<T>>): Array<Choice<T>> =>
    choices.map((choice) => ({ ...choice, title: redact(choice.title), ...(choice.description === undefined ? {} : { description: redact(choice.description) }) }));
  return {
    say: (text) => asker.say(redact(text)),
    select: (message, choices, initial) => asker.select(redact(message), shown(choices), initial),
    multiselect: (message, choices, selected, check) => asker.multiselect(redact(message), shown(choices), selected, check),
    text: (message, initial, check) => asker.text(redact(message), redact(initial), check),
    confirm: (message, initial) => asker.confirm(redact(message), initial),
  };
}

export interface AskerStreams {
  readonly stdin: TerminalInput;
  readonly stdout: TerminalOutput;
}

function validator<T>(check: Check<T>): (value: T) => true | string {
  return (value) => check(value) ?? true;
}

/** The terminal asker: each question is one `prompts` call on the given streams; Ctrl-C or Escape cancels it. */
export function createPromptsAsker(streams: AskerStreams): Asker {
  const ask = async (question: Omit<PromptObject, "name" | "stdin" | "stdout">): Promise<unknown> => {
    const { default: prompts } = await import("prompts");
    let cancelled = false;
    const response = await prompts(
      { ...question, name: "answer", stdin: streams.stdin, stdout: streams.stdout },
      {
        onCancel: () => {
          cancelled = true;
          return false;
        },
      },
    );
    return cancelled ? undefined : response.answer;
  };
  const oneOf = <T extends string>(choices: ReadonlyArray<Choice<T>>, value: unknown): T | undefined => choices.find((choice) => choice.value === value)?.value;

  return {
    say(text) {
      streams.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
    },
    async select(message, choices, initial = 0) {
      let highlighted = choices[initial]?.title ?? "";
      const onState = (state: unknown): void => {
        const value = typeof state === "object" && state !== null && "value" in state ? state.value : undefined;
        highlighted = choices.find((choice) => choice.value === value)?.title ?? highlighted;
      };
      const answer = oneOf(choices, await ask({ type: "select", message, choices: choices.map((choice) => ({ ...choice })), initial, onState }));
      // prompts leaves a cancelled select as `✖ question › <the highlighted choice>`, which reads as chosen: the
      // question stays, the choice goes.
      if (answer === undefined && streams.stdout.isTTY === true) {
        const left = `✖ ${message} › ${highlighted}`;
        const columns = streams.stdout.columns ?? 0;
        moveCursor(streams.stdout, 0, -(columns > 0 ? Math.max(1, Math.ceil(left.length / columns)) : 1));
        cursorTo(streams.stdout, 0);
        clearScreenDown(streams.stdout);
        streams.stdout.write(`✖ ${message}\n`);
      }
      return answer;
    },
    async multiselect(message, choices, selected, check) {
      const answer = await ask({
        type: "multiselect",
        message,
        instructions: false,
        hint: "space selects, enter sends",
        choices: choices.map((choice) => ({ ...choice, selected: selected.includes(choice.value) })),
      });
      if (!Array.isArray(answer)) return undefined;
      const values = answer.flatMap((value: unknown) => {
        const known = oneOf(choices, value);
        return known === undefined ? [] : [known];
      });
      // prompts' multiselect has no validate hook: a selection that does not fit is asked again.
      const problem = check(values);
      if (problem === undefined) return values;
      streams.stdout.write(`${problem}\n`);
      return this.multiselect(message, choices, values, check);
    },
    async text(message, initial, check) {
      const answer = await ask({ type: "text", message, initial, validate: validator(check) });
      return typeof answer === "string" ? answer : undefined;
    },
    async confirm(message, initial) {
      const answer = await ask({ type: "confirm", message, initial });
      return typeof answer === "boolean" ? answer : undefined;
    },
  };
}
