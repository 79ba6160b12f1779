// How the chat lends its terminal to a question that comes from inside a running turn (an MCP server's
// input request): while the question runs, the chat's input line steps aside and the spinner stops.
import type { ChalkInstance } from "chalk";
import type { Asker } from "./prompt-asker.js";

export interface LentTerminal {
  readonly asker: Asker;
  readonly chalk: ChalkInstance;
}

/**
 * Runs `question` with the terminal. It resolves undefined when the user pressed Ctrl-C (or Escape) at a
 * question; the chat then interrupts the running turn, as Ctrl-C at an approval question does.
 */
export type TerminalLender = <T>(question: (terminal: LentTerminal) => Promise<T | undefined>) => Promise<T | undefined>;
