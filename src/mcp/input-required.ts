// Multi round-trip requests (spec §3 "Client Requirements"): a tools/call answered with `input_required` is
// answered and retried — same name and arguments, a new JSON-RPC id, the server's `requestState` echoed
// untouched — for as many rounds as the server asks, up to a cap.
import type { ToolArgs } from "../kernel/index.js";
import type { CallToolOutcome } from "./call-outcome.js";
import type { CallToolOptions, RequestOptions } from "./client.js";
import { McpError } from "./errors.js";
import { parseInputRequests, type InputRequest } from "./input-request.js";
import { undeclaredReason, type InputSupport } from "./input-support.js";
import type { JsonObject } from "./jsonrpc.js";

/** "loop until complete or an error — bound the rounds". */
export const MAX_INPUT_ROUNDS = 8;

export type CompleteOutcome = Extract<CallToolOutcome, { kind: "complete" }>;
type InputRequiredOutcome = Extract<CallToolOutcome, { kind: "input_required" }>;

/** `McpClient.callTool` (which throws its failures) or `ServerConnection.callTool` (which returns them). */
export type CallTool = (name: string, args: ToolArgs, options?: CallToolOptions) => Promise<CallToolOutcome | McpError>;

export interface InputAskContext {
  /** The server's own name for the tool. */
  readonly tool: string;
  /** 1 for the first answer, 2 when the server asks again after a retry… */
  readonly round: number;
  readonly signal?: AbortSignal;
}

/**
 * One response per request key: `ElicitResult`, `CreateMessageResult`, `ListRootsResult` (no `resultType`).
 * `{ abandon }` gives up (the user declined): "the server is not waiting", so nothing is retried.
 */
export type InputAnswer = (
  requests: Record<string, InputRequest>,
  context: InputAskContext,
) => Promise<Record<string, unknown> | { readonly abandon: string }>;

/** What the composer gives the mounting: what it can answer (declared through clientCapabilities) and how. */
export interface InputResponder {
  readonly support: InputSupport;
  answer(
    requests: Record<string, InputRequest>,
    context: InputAskContext & { readonly server: string },
  ): Promise<Record<string, unknown> | { readonly abandon: string }>;
}

export interface CompletionOptions extends RequestOptions {
  readonly answer: InputAnswer;
  readonly maxRounds?: number;
  /** What the client declared; a request outside it is refused without asking. Unchecked when absent. */
  readonly support?: InputSupport;
}

type Retry = { readonly inputResponses?: JsonObject; readonly requestState?: string };

function isAbandon(answer: Record<string, unknown>): answer is { readonly abandon: string } {
  return typeof answer.abandon === "string";
}

async function nextRetry(name: string, outcome: InputRequiredOutcome, round: number, options: CompletionOptions): Promise<Retry | McpError> {
  // "If present: echo it byte-for-byte… If absent: MUST NOT send one."
  const state: Retry = outcome.requestState === undefined ? {} : { requestState: outcome.requestState };
  const requests = parseInputRequests(outcome.inputRequests);
  if (requests instanceof Error) return new McpError("protocol", `tools/call ${name}: ${requests.message}`);
  // "If absent (state-only, e.g. load shedding): MAY retry immediately."
  if (Object.keys(requests).length === 0) return state;
  if (options.support !== undefined) {
    for (const [key, request] of Object.entries(requests)) {
      const why = undeclaredReason(request, options.support);
      if (why !== undefined) return new McpError("protocol", `tools/call ${name}: the server asked (${JSON.stringify(key)}) for ${why}`);
    }
  }
  const answer = await options.answer(requests, { tool: name, round, ...(options.signal ? { signal: options.signal } : {}) });
  if (isAbandon(answer)) return new McpError("aborted", `tools/call ${name}: the input the server asked for was not given: ${answer.abandon}`);
  if (options.signal?.aborted) return new McpError("aborted", `tools/call ${name} was aborted while its input was being gathered`);
  return { ...state, inputResponses: { ...answer } };
}

/**
 * Calls `name` and answers every `input_required` until the result is complete. Failures the call returns
 * come back as they are; what goes wrong in between (a malformed or undeclared request, an abandoned
 * answer, too many rounds) comes back as an McpError value.
 */
export async function callToolToCompletion(call: CallTool, name: string, args: ToolArgs, options: CompletionOptions): Promise<CompleteOutcome | McpError> {
  const maxRounds = options.maxRounds ?? MAX_INPUT_ROUNDS;
  const { signal, timeoutMs, onNotification, wantProgress, logLevel } = options;
  const requestOptions: RequestOptions = { signal, timeoutMs, onNotification, wantProgress, logLevel };
  let outcome = await call(name, args, requestOptions);
  for (let round = 1; ; round += 1) {
    if (outcome instanceof McpError) return outcome;
    switch (outcome.kind) {
      case "complete":
        return outcome;
      case "input_required": {
        if (round > maxRounds) {
          return new McpError("protocol", `tools/call ${name}: the server still asked for input after ${maxRounds} rounds; giving up`);
        }
        const retry = await nextRetry(name, outcome, round, options);
        if (retry instanceof McpError) return retry;
        // A retry is an independent request: the peer gives it a new id, and its answers travel on it alone.
        outcome = await call(name, args, { ...requestOptions, ...retry });
        break;
      }
      default: {
        const unknown: never = outcome;
        throw new Error(`unknown outcome ${JSON.stringify(unknown)}`);
      }
    }
  }
}
