// `-p --output-format json | stream-json`: the agent's events for scripts, in the shapes of `claude -p`.
// stream-json writes an init line (session, model, tools, servers), then each event as one JSON line as it
// happens, then the result object; json writes only that object — the steps' text, every tool call with its
// approval and result, the tokens, the estimated cost. Text from outside is escaped as in the other JSON
// views (`untrustedJson`), and still parses back to the same value.
import type { AgentEvent, ImageInfo, ToolArgs, Usage } from "../kernel/index.js";
import { addUsage, estimateCost, NO_USAGE } from "./cost.js";
import { untrustedText } from "./untrusted-text.js";

export type OutputFormat = "text" | "json" | "stream-json";
export const OUTPUT_FORMATS: readonly OutputFormat[] = ["text", "json", "stream-json"];

/** One line of stream-json: a value on one line, escaped as the other JSON views are. */
export function jsonLine(value: AgentEvent | InitEvent | HeadlessResult): string {
  return `${untrustedText(JSON.stringify(value))}\n`;
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

/** How a run ended, in the words `claude -p` uses: the turn limit, a failure (model error, interrupt, failed line), or neither. */
export type ResultSubtype = "success" | "error_max_turns" | "error_max_budget_usd" | "error_during_execution";

/** What pipe mode knows of the run that its events do not tell. */
export interface RunFacts {
  readonly sessionId: string;
  /** The model's replies in this run. */
  readonly numTurns: number;
  readonly durationMs: number;
  /** A line failed (an unknown command, a failed /call) or the run was interrupted. */
  readonly failed: boolean;
}

/** The last object of both JSON formats: the fields of `claude -p`'s result, then mca's own. */
export interface HeadlessResult {
  readonly type: "result";
  readonly subtype: ResultSubtype;
  readonly is_error: boolean;
  /** The model's words, each step (the text between two tool calls, or of another prompt) apart by a blank line. */
  readonly result: string;
  /** null when the run failed before a session began (no key, an unknown --resume id). */
  readonly session_id: string | null;
  readonly num_turns: number;
  readonly duration_ms: number;
  readonly usage: Usage;
  /** US dollars, estimated from list prices; null when a model's price is unknown (or none was reported). */
  readonly total_cost_usd: number | null;
  readonly toolCalls: readonly HeadlessCall[];
  readonly errors: readonly string[];
  /** How the last turn ended. */
  readonly turnEnd: string | null;
  /** Earlier names, kept for the scripts that read them: `text` is `result`, `costUsd` is `total_cost_usd`. */
  readonly text: string;
  readonly costUsd: number | null;
}

/** stream-json's first line: what the run works with, before anything happens. */
export interface InitEvent {
  readonly type: "system";
  readonly subtype: "init";
  readonly session_id: string;
  readonly model: string;
  readonly cwd: string;
  readonly tools: readonly string[];
  readonly mcp_servers: ReadonlyArray<{ readonly name: string; readonly status: string }>;
}

/** A turn that ended on one of these was cut short by a limit; on one of those, by a failure. */
const LIMIT_ENDS: ReadonlySet<string> = new Set(["turn_limit", "loop_limit"]);
const FAILED_ENDS: ReadonlySet<string> = new Set(["model_error", "aborted"]);

function subtypeOf(turnEnds: readonly string[], failed: boolean): ResultSubtype {
  if (turnEnds.includes("budget_limit")) return "error_max_budget_usd";
  if (turnEnds.some((end) => LIMIT_ENDS.has(end))) return "error_max_turns";
  if (failed || turnEnds.some((end) => FAILED_ENDS.has(end))) return "error_during_execution";
  return "success";
}

/**
 * The result of a run that failed before it began (no key, a config that cannot be read, nothing to prompt):
 * a script reading `--output-format json` still gets its one object, the reason in `errors`.
 */
export function failedBeforeRun(message: string): HeadlessResult {
  return {
    type: "result",
    subtype: "error_during_execution",
    is_error: true,
    result: "",
    session_id: null,
    num_turns: 0,
    duration_ms: 0,
    usage: NO_USAGE,
    total_cost_usd: null,
    toolCalls: [],
    errors: [message],
    turnEnd: null,
    text: "",
    costUsd: null,
  };
}

/** The events gathered into one object, written by `finish` (json; stream-json ends with it too). */
export function createJsonCollector(): { readonly emit: (event: AgentEvent) => void; finish(facts: RunFacts): HeadlessResult } {
  const steps: string[] = [];
  /** Whether the next text goes on the step being written; a tool call or a turn's end closes it. */
  let stepOpen = false;
  const calls = new Map<string, { tool: string; args: ToolArgs; approval: HeadlessCall["approval"]; isError: boolean | null; result: string | null; truncated: boolean; images: readonly ImageInfo[] }>();
  let usage: Usage = NO_USAGE;
  let costUsd: number | null = null;
  let costKnown = true;
  const errors: string[] = [];
  const turnEnds: string[] = [];
  const emit = (event: AgentEvent): void => {
    switch (event.type) {
      case "text":
        if (!stepOpen) steps.push("");
        stepOpen = true;
        steps[steps.length - 1] += event.delta;
        return;
      case "tool_start":
        stepOpen = false;
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
        stepOpen = false;
        turnEnds.push(event.reason);
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
    finish: (facts) => {
      const subtype = subtypeOf(turnEnds, facts.failed);
      const result = steps.map((step) => step.trim()).filter((step) => step !== "").join("\n\n");
      const cost = costKnown ? costUsd : null;
      return {
        type: "result",
        subtype,
        is_error: subtype !== "success",
        result,
        session_id: facts.sessionId,
        num_turns: facts.numTurns,
        duration_ms: facts.durationMs,
        usage,
        total_cost_usd: cost,
        toolCalls: [...calls.values()],
        errors,
        turnEnd: turnEnds.at(-1) ?? null,
        text: result,
        costUsd: cost,
      };
    },
  };
}
