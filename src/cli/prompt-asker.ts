// The few questions an MCP input request needs (pick one, pick several, type a line, yes/no), behind one
// small interface so the form logic is tested with a scripted fake and runs on `prompts` in the terminal.
// `prompts` is loaded on first use only. Every question resolves to undefined when the user cancels it.
import type { PromptObject } from "prompts";
import type { TerminalInput, TerminalOutput } from "./terminal-streams.js";

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
      return oneOf(choices, await ask({ type: "select", message, choices: choices.map((choice) => ({ ...choice })), initial }));
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
