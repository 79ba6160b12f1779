// VS Code's `${input:id}` asked in the terminal as mca starts, once per input a config's enabled servers use:
// with nothing echoed where the file says `password: true` (prompts' "invisible" type), in plain text
// otherwise, as VS Code shows it. The answer lives in memory for the run and joins the redaction set; it is
// never written anywhere.
import type { McpInput } from "../config/index.js";
import type { InputAsker } from "./mcp-servers.js";
import type { TerminalInput, TerminalOutput } from "./terminal.js";
import { untrustedText } from "./untrusted-text.js";

/** The terminal asked on: standard input is made only when a question comes. */
export interface InputPromptTerminal {
  input(): TerminalInput;
  readonly output: TerminalOutput;
}

/** The question: the input's description (the file's words, shown, never obeyed) and where it comes from. */
function inputQuestion(input: McpInput, file: string): string {
  return untrustedText(`${input.description} (input "${input.id}" of ${file})`);
}

/** An asker on the terminal's streams; Ctrl-C, Escape or an empty answer leave the input unanswered. */
export function createInputPrompt(terminal: InputPromptTerminal): InputAsker {
  return async (input, file) => {
    const { default: prompts } = await import("prompts");
    let cancelled = false;
    const response: { answer?: unknown } = await prompts(
      { type: input.password ? "invisible" : "text", name: "answer", message: inputQuestion(input, file), stdin: terminal.input(), stdout: terminal.output },
      {
        onCancel: () => {
          cancelled = true;
          return false;
        },
      },
    );
    const answer = response.answer;
    return cancelled || typeof answer !== "string" || answer === "" ? undefined : answer;
  };
}
