// The result object that ends `-p --output-format json | stream-json`, in the shape of `claude -p`'s (the Agent
// SDK's SDKResultMessage: https://docs.claude.com/en/docs/agent-sdk/typescript), then mca's own fields: every
// tool call with its approval and result, the errors, how the last turn ended. Text from outside is escaped
// as in the other JSON views (`untrustedJson`), and still parses back to the same value.
import type { AgentEvent, ImageInfo, Message, ToolArgs, Usage } from "../kernel/index.js";
import { addUsage, estimateCost, NO_USAGE } from "./cost.js";
import { untrustedText } from "./untrusted-text.js";

export type OutputFormat = "text" | "json" | "stream-json";
export const OUTPUT_FORMATS: readonly OutputFormat[] = ["text", "json", "stream-json"];

/** One line of stream-json: a value on one line, escaped as the other JSON views are. */
export function jsonLine(value: object): string {
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

/**
 * How a run ended, in the words `claude -p` uses: a limit (turns, budget), a final message not valid against
 * `--output-schema` after the one retry, a failure (model error, interrupt, failed line), or none of these.
 */
export type ResultSubtype = "success" | "error_max_turns" | "error_max_budget_usd" | "error_max_structured_output_retries" | "error_during_execution";

/** Tokens in the API's own names; the camelCase ones are mca's earlier names, kept one more release. */
export interface ResultUsage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cache_creation_input_tokens: number;
  readonly cache_read_input_tokens: number;
  /** @deprecated the earlier names: input_tokens, cache_read_input_tokens, cache_creation_input_tokens, output_tokens. */
  readonly inputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly outputTokens: number;
}

/** A tool use the gate refused or the person denied, as Claude's SDKPermissionDenial. */
export interface PermissionDenial {
  readonly tool_name: string;
  readonly tool_use_id: string;
  readonly tool_input: ToolArgs;
}

/** What `--output-schema` made of the final message: the parsed value, or that it stayed invalid. */
export type StructuredOutcome = { readonly kind: "valid"; readonly value: unknown } | { readonly kind: "invalid"; readonly reason: string };

/** What pipe mode knows of the run that its events do not tell. */
export interface RunFacts {
  /** null when the run failed before a session began. */
  readonly sessionId: string | null;
  readonly durationMs: number;
  /** A line failed (an unknown command, a failed /call) or the run was interrupted. */
  readonly failed: boolean;
  /** Set when `--output-schema` was given and the run got as far as its final message. */
  readonly structured?: StructuredOutcome;
}

/** The last object of both JSON formats: the fields of `claude -p`'s result, then mca's own. */
export interface HeadlessResult {
  readonly type: "result";
  readonly subtype: ResultSubtype;
  readonly is_error: boolean;
  readonly duration_ms: number;
  /** The time spent waiting on the model: from each request's start to its reply (or its failure). */
  readonly duration_api_ms: number;
  /** The model's messages in this run. */
  readonly num_turns: number;
  /** The text of the run's last message from the model ("" when it had none, or there was none). */
  readonly result: string;
  readonly session_id: string | null;
  /** US dollars, estimated from list prices; null when a model's price is unknown. */
  readonly total_cost_usd: number | null;
  readonly usage: ResultUsage;
  readonly permission_denials: readonly PermissionDenial[];
  /** With `--output-schema`: the final message parsed, when it is valid against the schema. */
  readonly structured_output?: unknown;
  readonly toolCalls: readonly HeadlessCall[];
  readonly errors: readonly string[];
  /** How the last turn ended. */
  readonly turnEnd: string | null;
  /** Earlier names, kept for the scripts that read them: `text` is `result`, `costUsd` is `total_cost_usd`. */
  readonly text: string;
  readonly costUsd: number | null;
}

/** The words of a message: its text blocks, one after the other. */
export function messageText(message: Message): string {
  return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/** Tokens in the Messages API's names only, as a stream-json `assistant` line carries them. */
export type ApiUsage = Omit<ResultUsage, "inputTokens" | "cacheReadTokens" | "cacheWriteTokens" | "outputTokens">;

/** mca's Usage in the API's names. */
export function apiUsage(usage: Usage): ApiUsage {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: usage.cacheWriteTokens,
    cache_read_input_tokens: usage.cacheReadTokens,
  };
}

/** mca's Usage in the API's names, the earlier ones after them. */
export function resultUsage(usage: Usage): ResultUsage {
  return { ...apiUsage(usage), ...usage };
}

/** A turn that ended on one of these was cut short by a limit; on one of those, by a failure. */
const LIMIT_ENDS: ReadonlySet<string> = new Set(["turn_limit", "loop_limit"]);
const FAILED_ENDS: ReadonlySet<string> = new Set(["model_error", "aborted"]);

function subtypeOf(turnEnds: readonly string[], facts: RunFacts): ResultSubtype {
  if (turnEnds.includes("budget_limit")) return "error_max_budget_usd";
  if (turnEnds.some((end) => LIMIT_ENDS.has(end))) return "error_max_turns";
  if (facts.failed || turnEnds.some((end) => FAILED_ENDS.has(end))) return "error_during_execution";
  if (facts.structured?.kind === "invalid") return "error_max_structured_output_retries";
  return "success";
}

/**
 * The result of a run that failed before it began (no key, a config that cannot be read, nothing to prompt):
 * a script reading `--output-format json` still gets its one object, the reason in `errors`.
 */
export function failedBeforeRun(message: string, sessionId: string | null = null): HeadlessResult {
  return {
    ...createJsonCollector(() => 0).finish({ sessionId, durationMs: 0, failed: true }),
    errors: [message],
  };
}

export interface JsonCollector {
  readonly emit: (event: AgentEvent) => void;
  finish(facts: RunFacts): HeadlessResult;
}

/** The events gathered into one object, written by `finish` (json; stream-json ends with it too). `nowMs` times the model's requests. */
export function createJsonCollector(nowMs: () => number): JsonCollector {
  const calls = new Map<string, { tool: string; args: ToolArgs; approval: HeadlessCall["approval"]; isError: boolean | null; result: string | null; truncated: boolean; images: readonly ImageInfo[] }>();
  const denials: PermissionDenial[] = [];
  let lastText = "";
  let replies = 0;
  let usage: Usage = NO_USAGE;
  let costUsd = 0;
  let costKnown = true;
  const errors: string[] = [];
  const turnEnds: string[] = [];
  let apiMs = 0;
  /** When the request under way began: a message of the user's (a prompt, tool results) goes to the model next. */
  let requestSince: number | null = null;
  const requestEnded = (): void => {
    if (requestSince !== null) apiMs += nowMs() - requestSince;
    requestSince = null;
  };
  const emit = (event: AgentEvent): void => {
    switch (event.type) {
      case "message":
        if (event.message.role === "user") {
          requestSince = nowMs();
          return;
        }
        requestEnded();
        replies += 1;
        lastText = messageText(event.message);
        return;
      case "tool_start":
        calls.set(event.callId, { tool: event.tool, args: event.args, approval: { verdict: "allow", reason: null, answer: null }, isError: null, result: null, truncated: false, images: [] });
        return;
      case "approval": {
        const call = calls.get(event.callId);
        if (call === undefined) return;
        call.approval = { verdict: event.decision.verdict, reason: event.decision.reason, answer: event.answer ?? null };
        const refused = event.answer === undefined ? event.decision.verdict === "deny" : event.answer === "deny";
        if (refused) denials.push({ tool_name: call.tool, tool_use_id: event.callId, tool_input: call.args });
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
        else costUsd += cost;
        return;
      }
      case "error":
        requestEnded();
        errors.push(event.message);
        return;
      case "turn_end":
        requestEnded();
        turnEnds.push(event.reason);
        return;
      case "text":
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
      const subtype = subtypeOf(turnEnds, facts);
      const cost = costKnown ? costUsd : null;
      const structured = facts.structured?.kind === "valid" ? { structured_output: facts.structured.value } : {};
      const invalid = facts.structured?.kind === "invalid" ? [facts.structured.reason] : [];
      return {
        type: "result",
        subtype,
        is_error: subtype !== "success",
        duration_ms: facts.durationMs,
        duration_api_ms: apiMs,
        num_turns: replies,
        result: lastText,
        session_id: facts.sessionId,
        total_cost_usd: cost,
        usage: resultUsage(usage),
        permission_denials: denials,
        ...structured,
        toolCalls: [...calls.values()],
        errors: [...errors, ...invalid],
        turnEnd: turnEnds.at(-1) ?? null,
        text: lastText,
        costUsd: cost,
      };
    },
  };
}
