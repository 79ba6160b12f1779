// The chat's input line (node:readline). It can step aside while something else owns the terminal —
// an approval prompt — and come back with its history, so the two never read the same keystrokes.
import { createInterface, type Interface } from "node:readline";
import type { TerminalInput, TerminalOutput } from "./terminal-streams.js";

const HISTORY_SIZE = 500;

export interface ChatInputDeps {
  readonly input: TerminalInput;
  readonly output: TerminalOutput;
  readonly promptText: string;
  readonly onLine: (line: string) => void;
  /** Ctrl-C; `hadText` when it cleared a half-typed line instead. */
  readonly onInterrupt: (hadText: boolean) => void;
  /** Ctrl-D on an empty line, or the input ended. */
  readonly onEnd: () => void;
}

export interface ChatInput {
  prompt(): void;
  /** Closes the input line while `work` owns the terminal, then opens it again. */
  suspend<T>(work: () => Promise<T>): Promise<T>;
  close(): void;
}

export function createChatInput(deps: ChatInputDeps): ChatInput {
  let current: Interface | null = null;
  let history: string[] = [];
  let closed = false;

  const open = (): Interface => {
    const next = createInterface({
      input: deps.input,
      output: deps.output,
      prompt: deps.promptText,
      terminal: deps.input.isTTY === true,
      history,
      historySize: HISTORY_SIZE,
    });
    next.on("history", (lines) => {
      history = lines;
    });
    next.on("line", (line) => deps.onLine(line));
    next.on("SIGINT", () => {
      const hadText = next.line !== "";
      if (hadText) {
        next.write(null, { ctrl: true, name: "e" });
        next.write(null, { ctrl: true, name: "u" });
      }
      deps.onInterrupt(hadText);
    });
    next.on("close", () => {
      // Only the user ends the input; closing it ourselves (suspend, close) is not an end.
      if (current !== next) return;
      current = null;
      deps.onEnd();
    });
    current = next;
    return next;
  };

  const detach = (): void => {
    const previous = current;
    current = null;
    previous?.close();
  };

  open();
  return {
    prompt() {
      current?.prompt();
    },
    async suspend(work) {
      detach();
      try {
        return await work();
      } finally {
        if (!closed) open();
      }
    },
    close() {
      closed = true;
      detach();
    },
  };
}
