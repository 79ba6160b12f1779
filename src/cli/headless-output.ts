// `-p --output-format json | stream-json`: the agent's events for scripts. stream-json writes each event as
// one JSON line as it happens; json collects one object for the whole run — the final text, every tool call
// with its approval and result, the tokens and the estimated cost. Text from outside is escaped as in the
// other JSON views (`untrustedJson`), and still parses back to the same value.
import type { AgentEvent, ImageInfo, ToolArgs, Usage } from "../kernel/index.js";
import { addUsage, estimateCost, NO_USAGE } from "./cost.js";
import { untrustedText } from "./untrusted-text.js";

export type OutputFormat = "text" | "json" | "stream-json";
export const OUTPUT_FORMATS: readonly OutputFormat[] = ["text", "json", "stream-json"];

/** stream-json: one line per event, written as it happens. */
export function createStreamJsonRenderer(out: (text: string) => void): (event: AgentEvent) => void {
  return (event) => out(`${untrustedText(JSON.stringify(event))}\n`);
}

export interface HeadlessCall {
  readonly tool: string;
  readonly args: ToolArgs;
  /** The gate's verdict, and the answer when it asked; a call nobody had to approve is `allow`. */
  readonly approval: { readonly verdict: string; readonly reason: string | null; readonly answer: string | null };
  readonly isError: boolean | null;
  readonly result: string | null;
  readonly truncated: boolean;
  /** What the images sent to the model with the result were (their data is not repeated here). */
  readonly images: readonly ImageInfo[];
}

export interface HeadlessResult {
  readonly text: string;
  readonly toolCalls: readonly HeadlessCall[];
  readonly usage: Usage;
  /** US dollars, estimated from list prices; null when a model's price is unknown (or none was reported). */
  readonly costUsd: number | null;
  readonly errors: readonly string[];
  readonly turnEnd: string | null;
}

/** json: the events gathered into one object, written by `finish`. */
export function createJsonCollector(): { readonly emit: (event: AgentEvent) => void; finish(): HeadlessResult } {
  let text = "";
  const calls = new Map<string, { tool: string; args: ToolArgs; approval: HeadlessCall["approval"]; isError: boolean | null; result: string | null; truncated: boolean; images: readonly ImageInfo[] }>();
  let usage: Usage = NO_USAGE;
  let costUsd: number | null = null;
  let costKnown = true;
  const errors: string[] = [];
  let turnEnd: string | null = null;
  const emit = (event: AgentEvent): void => {
    switch (event.type) {
      case "text":
        text += event.delta;
        return;
      case "tool_start":
        calls.set(event.callId, { tool: event.tool, args: event.args, approval: { verdict: "allow", reason: null, answer: null }, isError: null, result: null, truncated: false, images: [] });
        return;
      case "approval": {
        const call = calls.get(event.callId);
        if (call !== undefined) call.approval = { verdict: event.decision.verdict, reason: event.decision.reason, answer: event.answer ?? null };
        return;
      }
      case "tool_end": {
        const call = calls.get(event.callId);
        if (call === undefined) return;
        call.isError = event.isError;
        call.result = event.text;
        call.truncated = event.truncated;
        call.images = event.images ?? [];
        return;
      }
      case "usage": {
        usage = addUsage(usage, event.usage);
        const cost = estimateCost(event.model, event.usage);
        if (cost === undefined) costKnown = false;
        else costUsd = (costUsd ?? 0) + cost;
        return;
      }
      case "error":
        errors.push(event.message);
        return;
      case "turn_end":
        turnEnd = event.reason;
        return;
      case "tool_progress":
      case "notice":
        return;
      default: {
        const unknown: never = event;
        throw new Error(`unknown event ${JSON.stringify(unknown)}`);
      }
    }
  };
  return {
    emit,
    finish: () => ({ text, toolCalls: [...calls.values()], usage, costUsd: costKnown ? costUsd : null, errors, turnEnd }),
  };
}
