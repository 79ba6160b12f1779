// Renders agent events as plain text for pipe mode, `-p` and the subcommands: the model's words on
// stdout, tool activity and diagnostics on stderr, no colour and no spinner.
import type { AgentEvent } from "../kernel/index.js";
import { previewArgs, previewResult } from "./event-text.js";

export interface PlainStreams {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

export function createPlainRenderer(streams: PlainStreams): (event: AgentEvent) => void {
  let midLine = false;
  const endLine = (): void => {
    if (midLine) streams.out("\n");
    midLine = false;
  };
  return (event) => {
    switch (event.type) {
      case "text":
        if (event.delta === "") return;
        streams.out(event.delta);
        midLine = !event.delta.endsWith("\n");
        return;
      case "tool_start":
        streams.err(`[${event.tool}] ${previewArgs(event.args)}\n`);
        return;
      case "tool_progress":
        streams.err(`[progress] ${event.message}\n`);
        return;
      case "tool_end": {
        const status = event.isError ? "failed" : "ok";
        const truncated = event.truncated ? ", truncated" : "";
        streams.err(`[${event.tool}] ${status}${truncated}: ${previewResult(event.text)}\n`);
        return;
      }
      case "approval":
        // A "deny" answer was already explained by whoever answered; a rule's denial has no answer.
        if (event.answer === undefined) streams.err(`[approval] ${event.tool}: ${event.decision.verdict} (${event.decision.reason})\n`);
        else if (event.answer !== "deny") streams.err(`[approval] ${event.tool}: ${event.answer}\n`);
        return;
      case "notice":
        streams.err(`${event.message}\n`);
        return;
      case "error":
        streams.err(`error: ${event.message}\n`);
        return;
      case "turn_end":
        endLine();
        if (event.reason === "aborted") streams.err("interrupted\n");
        return;
      default: {
        const unknown: never = event;
        throw new Error(`unrendered event ${JSON.stringify(unknown)}`);
      }
    }
  };
}
