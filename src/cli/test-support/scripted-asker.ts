// An Asker that answers from a script, in order, and records every line said and question asked, so the
// input-request prompts are tested without a terminal. An exhausted script is a test bug and throws.
import type { Asker } from "../terminal.js";

/** One scripted answer: `undefined` is the user pressing Ctrl-C at that question. */
export type ScriptedAnswer = string | boolean | readonly string[] | undefined;

export interface ScriptedAsker extends Asker {
  /** Said lines as `say: …`, questions as `select: …`, `text: …` and so on, in order. */
  readonly transcript: string[];
}

export function createScriptedAsker(script: readonly ScriptedAnswer[]): ScriptedAsker {
  const answers = [...script];
  const transcript: string[] = [];
  const next = (question: string): ScriptedAnswer => {
    transcript.push(question);
    if (answers.length === 0) throw new Error(`the script has no answer for ${question}`);
    return answers.shift();
  };
  return {
    transcript,
    say(text) {
      transcript.push(`say: ${text}`);
    },
    async select(message, choices) {
      const answer = next(`select: ${message} [${choices.map((choice) => choice.value).join("|")}]`);
      return choices.find((choice) => choice.value === answer)?.value;
    },
    async multiselect(message, choices, _selected, check) {
      const answer = next(`multiselect: ${message}`);
      if (!Array.isArray(answer)) return undefined;
      const values = choices.filter((choice) => answer.includes(choice.value)).map((choice) => choice.value);
      const problem = check(values);
      if (problem !== undefined) throw new Error(`the script's selection does not pass: ${problem}`);
      return values;
    },
    async text(message, initial, check) {
      const answer = next(`text: ${message}`);
      if (typeof answer !== "string") return undefined;
      const problem = check(answer);
      if (problem !== undefined) transcript.push(`rejected: ${problem}`);
      return problem === undefined ? answer : this.text(message, initial, check);
    },
    async confirm(message) {
      const answer = next(`confirm: ${message}`);
      return typeof answer === "boolean" ? answer : undefined;
    },
  };
}
