// The chat's input line. It can step aside while something else owns the terminal and come back with its
// history, so the two never read the same keystrokes. It hands the chat whole prompts: a paste arrives as
// one prompt however many lines it has (the terminal's bracketed paste mode marks where it starts and
// ends), and a line ending in a backslash continues on the next. A lone Esc is told apart from the escape
// sequences that start with the same byte (an arrow key, Alt+key, a paste's marks) by readline's keypress
// decoder: after an ESC byte that ends what the terminal sent, it waits a moment (readline's
// escapeCodeTimeout, 500 ms) for the rest of a sequence before it reports the key as "escape".
import { clearScreenDown, createInterface, cursorTo, moveCursor, type Interface } from "node:readline";
import type { TerminalInput, TerminalOutput } from "./terminal.js";

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
  /** A lone Esc outside a paste; the line typed so far stays as it is (readline ignores the key). */
  readonly onEscape: () => void;
  /**
   * Tab: the candidates for the line so far, and the part of it they replace, handed to `done` (readline's
   * callback form, so a server can be asked; readline reads no key until `done` is called).
   */
  readonly complete?: (line: string, done: (error: null, result: [string[], string]) => void) => void;
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
  /**
   * Whether the newest key read while the terminal was last lent out was a lone Esc: a question cancelled
   * by Esc rather than by Ctrl-C (the question itself cannot say which).
   */
  readonly lentEndedByEscape: boolean;
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

  let lentEndedByEscape = false;

  const onKeypress = (_text: string | undefined, key: { readonly name?: string } | undefined): void => {
    if (key?.name === "paste-start") pasting = true;
    else if (key?.name === "paste-end") pasting = false;
    // An ESC inside a paste is the paste's text, not the key.
    else if (key?.name === "escape" && !pasting) deps.onEscape();
  };
  /** While the terminal is lent out: which key the question ended on, Esc or another. */
  const onLentKeypress = (_text: string | undefined, key: { readonly name?: string } | undefined): void => {
    lentEndedByEscape = key?.name === "escape";
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
    get lentEndedByEscape() {
      return lentEndedByEscape;
    },
    async suspend(work) {
      detach();
      suspended = true;
      lentEndedByEscape = false;
      deps.input.on("keypress", onLentKeypress);
      try {
        return await work();
      } finally {
        deps.input.off("keypress", onLentKeypress);
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
