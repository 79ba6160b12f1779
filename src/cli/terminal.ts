// The terminal the chat talks through and lends out: its streams, the pager, the lender that hands the
// terminal to a question from inside a running turn, and the asker those questions use. The chat's own
// input line is chat-input.ts.
import { clearScreenDown, cursorTo, moveCursor } from "node:readline";
import type { Readable, Writable } from "node:stream";
import type { ChalkInstance } from "chalk";
import type { PromptObject } from "prompts";

/** process.stdin/stdout in use, in-memory streams in tests. */
export type TerminalInput = Readable & { readonly isTTY?: boolean };
export type TerminalOutput = Writable & { readonly isTTY?: boolean; readonly columns?: number; readonly rows?: number };

/**
 * Questions asked on the process's terminal outside the chat (`mca mcp login`), each text through the run's
 * redactor; standard input is made only when a question comes.
 */
export function terminalLender(terminal: { input(): TerminalInput; readonly output: TerminalOutput }, redact: (text: string) => string): TerminalLender {
  return async (question) => {
    const { Chalk } = await import("chalk");
    const asker = redactingAsker(createPromptsAsker({ stdin: terminal.input(), stdout: terminal.output }), redact);
    return question({ asker, chalk: new Chalk() });
  };
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
