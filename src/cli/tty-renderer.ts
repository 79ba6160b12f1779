// Renders agent events for the interactive chat: streamed text, a line per tool call and result,
// a spinner while the model thinks or a tool runs, colour through the chalk instance it is given.
import type { ChalkInstance } from "chalk";
import type { AgentEvent } from "../kernel/index.js";
import { previewArgs, previewResult } from "./event-text.js";
import type { Spinner } from "./spinner.js";

export interface TtyRenderer {
  readonly emit: (event: AgentEvent) => void;
  /** A prompt went to the model: spin until its first words arrive. */
  readonly thinking: () => void;
  /** Something else needs the terminal (an approval prompt): stop the spinner, end the line. */
  readonly pause: () => void;
}

export interface TtyRendererDeps {
  readonly out: (text: string) => void;
  readonly chalk: ChalkInstance;
  readonly spinner: Spinner;
}

export function createTtyRenderer({ out, chalk, spinner }: TtyRendererDeps): TtyRenderer {
  let midLine = false;
  const toolNames = new Map<string, string>();
  const write = (text: string): void => {
    spinner.stop();
    if (text === "") return;
    out(text);
    midLine = !text.endsWith("\n");
  };
  const line = (text: string): void => {
    if (midLine) write("\n");
    write(`${text}\n`);
  };

  const emit = (event: AgentEvent): void => {
    switch (event.type) {
      case "text":
        write(event.delta);
        return;
      case "tool_start":
        toolNames.set(event.callId, event.tool);
        line(`${chalk.cyan(`● ${event.tool}`)} ${chalk.dim(previewArgs(event.args))}`);
        spinner.start(`running ${event.tool}`);
        return;
      case "tool_progress":
        spinner.start(`${toolNames.get(event.callId) ?? "tool"}: ${event.message}`);
        return;
      case "tool_end": {
        toolNames.delete(event.callId);
        const mark = event.isError ? chalk.red("  ✗") : chalk.green("  ✓");
        const truncated = event.truncated ? chalk.dim(" (cut to fit the budget)") : "";
        line(`${mark} ${previewResult(event.text)}${truncated}`);
        spinner.start("thinking");
        return;
      }
      case "approval":
        if (event.answer === undefined) return;
        line(chalk.dim(`  approval for ${event.tool}: ${event.answer}`));
        // The question stopped the spinner; an approved tool runs now.
        if (event.answer !== "deny") spinner.start(`running ${event.tool}`);
        return;
      case "notice":
        line(chalk.yellow(event.message));
        return;
      case "error":
        line(chalk.red(`error: ${event.message}`));
        return;
      case "turn_end":
        spinner.stop();
        if (midLine) write("\n");
        if (event.reason === "aborted") line(chalk.yellow("interrupted (Ctrl-C again now to exit)"));
        return;
      default: {
        const unknown: never = event;
        throw new Error(`unrendered event ${JSON.stringify(unknown)}`);
      }
    }
  };

  return {
    emit,
    thinking: () => spinner.start("thinking"),
    pause: () => {
      spinner.stop();
      if (midLine) write("\n");
    },
  };
}
