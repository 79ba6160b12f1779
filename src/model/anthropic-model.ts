// The Claude model over the Anthropic Messages API: streaming, prompt caching, one retry policy.
// The SDK is imported lazily on the first request, so start-up and the mock path never load it.
import type * as Sdk from "@anthropic-ai/sdk";
import { describeError, type Model, type ModelReply, type ModelRequest, type Usage } from "../kernel/index.js";
import { createReplyAssembler, toApiMessages, toApiSystem, toApiTools } from "./anthropic-messages.js";

export const DEFAULT_MODEL = "claude-sonnet-5-5";
const DEFAULT_BASE_URL = "https://api.anthropic.com";
const DEFAULT_MAX_TOKENS = 16_384;
/** Per attempt, from sending the request to the end of the streamed reply. */
const REQUEST_TIMEOUT_MS = 600_000;

export interface AnthropicModelOptions {
  readonly apiKey: string;
  /** `ANTHROPIC_BASE_URL`, passed by the CLI; the SDK is never left to read the environment for it. */
  readonly baseURL?: string;
  readonly model: string;
  readonly maxTokens?: number;
  readonly retry?: RetryOptions;
}

interface Connection {
  readonly sdk: typeof Sdk;
  readonly client: Sdk.Anthropic;
}

type Attempt =
  | { readonly kind: "reply"; readonly reply: ModelReply }
  /** `failure` undefined: the caller aborted. `usage`: the tokens the API reported before it failed, billed all the same. */
  | { readonly kind: "failed"; readonly failure: Failure | undefined; readonly forwardedText: boolean; readonly usage: Usage | undefined };

export function createAnthropicModel(options: AnthropicModelOptions): Model {
  let connection: Promise<Connection> | undefined;
  const connect = (): Promise<Connection> => {
    connection ??= import("@anthropic-ai/sdk").then((sdk) => ({
      sdk,
      client: new sdk.Anthropic({
        apiKey: options.apiKey,
        baseURL: options.baseURL ?? DEFAULT_BASE_URL,
        maxRetries: 0,
        timeout: REQUEST_TIMEOUT_MS,
      }),
    }));
    return connection;
  };
  const retry = options.retry ?? {};
  const sleep = retry.sleep ?? abortableSleep;

  return {
    name: options.model,
    async complete(request) {
      const { sdk, client } = await connect();
      for (let retriesDone = 0; ; retriesDone += 1) {
        request.signal.throwIfAborted();
        const attempt = await attemptOnce(sdk, client, options, request);
        if (attempt.kind === "reply") return attempt.reply;
        if (attempt.usage !== undefined) request.onSpentUsage?.(attempt.usage);
        request.signal.throwIfAborted();
        const { failure, forwardedText } = attempt;
        if (failure === undefined) throw new Error("Anthropic API: request aborted");
        // Text already shown to the user cannot be taken back, so a broken reply is not retried.
        if (!failure.retryable || forwardedText || retriesDone === maxRetries(retry)) {
          throw new Error(failureMessage(failure, retriesDone, forwardedText, options.baseURL ?? DEFAULT_BASE_URL));
        }
        const delayMs = retryDelayMs(retriesDone + 1, failure, retry);
        // "rate limited (429); retrying in 2 s, attempt 2 of 4": the user sees why nothing happens meanwhile.
        request.onRetry?.(`${failure.label}; retrying in ${Math.max(1, Math.round(delayMs / 1000))} s, attempt ${retriesDone + 2} of ${maxRetries(retry) + 1}`);
        await sleep(delayMs, request.signal);
      }
    },
    async countTokens(request) {
      const { client } = await connect();
      // The API counts a conversation of at least one message: before the first prompt, one of a single character stands in.
      const messages = request.messages.length === 0 ? [{ role: "user" as const, content: "." }] : toApiMessages(request.messages);
      const counted = await client.messages.countTokens(
        {
          model: options.model,
          system: toApiSystem(request.system),
          messages,
          ...(request.tools.length > 0 ? { tools: toApiTools(request.tools) } : {}),
        },
        { signal: request.signal },
      );
      return counted.input_tokens;
    },
  };
}

async function attemptOnce(
  sdk: typeof Sdk,
  client: Sdk.Anthropic,
  options: AnthropicModelOptions,
  request: ModelRequest,
): Promise<Attempt> {
  const assembler = createReplyAssembler(request.onText);
  try {
    const stream = await client.messages.create(
      {
        model: options.model,
        max_tokens: options.maxTokens ?? DEFAULT_MAX_TOKENS,
        system: toApiSystem(request.system),
        messages: toApiMessages(request.messages),
        ...(request.tools.length > 0 ? { tools: toApiTools(request.tools) } : {}),
        stream: true,
      },
      { signal: request.signal },
    );
    // The SDK ends this loop quietly (no throw) when the signal aborts it mid-stream.
    for await (const event of stream) assembler.accept(event);
  } catch (error) {
    return { kind: "failed", failure: classifyFailure(error, sdk), forwardedText: assembler.forwardedText, usage: assembler.usage };
  }
  const reply = assembler.finish();
  if (!("problem" in reply)) return { kind: "reply", reply };
  const failure: Failure =
    reply.problem === "incomplete"
      ? { retryable: true, label: "broken stream", detail: reply.message }
      : { retryable: false, label: "malformed reply", detail: reply.message };
  return { kind: "failed", failure, forwardedText: assembler.forwardedText, usage: assembler.usage };
}

/** A network failure names the URL it tried: a mistyped ANTHROPIC_BASE_URL is then plain to see. */
function failureMessage(failure: Failure, retriesDone: number, forwardedText: boolean, baseURL: string): string {
  const when = forwardedText
    ? " in the middle of the reply"
    : failure.retryable
      ? ` after ${retriesDone} ${retriesDone === 1 ? "retry" : "retries"}`
      : "";
  const where = failure.label === "network error" ? ` reaching ${baseURL}` : "";
  return `Anthropic API: ${failure.label}${where}${when}: ${failure.detail}`;
}

// The one retry policy (the SDK's own retries are off): rate limits (429), overload (529), other 5xx
// and network failures are retried with exponential backoff, honouring the server's retry-after;
// everything else fails at once with a message that names what went wrong.

export interface RetryOptions {
  /** Retries after the first attempt; default 3. */
  readonly maxRetries?: number;
  /** The first backoff delay, doubled for each further retry; default 1,000 ms (1 s, 2 s, 4 s). */
  readonly initialDelayMs?: number;
  /** How to wait; tests pass one that records the delays instead of sleeping. */
  readonly sleep?: (delayMs: number, signal: AbortSignal) => Promise<void>;
}

const DEFAULT_MAX_RETRIES = 3;
const DEFAULT_INITIAL_DELAY_MS = 1_000;
/** A retry-after longer than this is not honoured; the backoff delay applies instead. */
const MAX_RETRY_AFTER_MS = 60_000;

export interface Failure {
  readonly retryable: boolean;
  /** "rate limited (429)", "overloaded (529)", "bad request (400)", "network error", … */
  readonly label: string;
  readonly detail: string;
  readonly retryAfterMs?: number;
}

type SdkModule = typeof Sdk;

/** Classifies what an SDK call or stream threw; `undefined` means the caller aborted. */
export function classifyFailure(error: unknown, sdk: SdkModule): Failure | undefined {
  if (error instanceof sdk.APIUserAbortError) return undefined;
  // A connection lost while the body streams surfaces as fetch's TypeError("terminated"), unwrapped.
  const lostMidBody = error instanceof TypeError && error.message === "terminated";
  if (error instanceof sdk.APIConnectionError || lostMidBody) {
    return { retryable: true, label: "network error", detail: causeMessage(error) };
  }
  if (error instanceof sdk.APIError) {
    const detail = error.apiMessage ?? error.message;
    const retryAfterMs = parseRetryAfter(error.headers);
    const status = error.status ?? statusOfStreamError(error.type);
    return { ...describeStatus(status), detail, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  }
  return { retryable: false, label: "unexpected failure", detail: describeError(error) };
}

/** The delay before retry number `retry` (1-based): the server's retry-after, else exponential backoff. */
export function retryDelayMs(retry: number, failure: Failure, options: RetryOptions): number {
  if (failure.retryAfterMs !== undefined) return failure.retryAfterMs;
  return (options.initialDelayMs ?? DEFAULT_INITIAL_DELAY_MS) * 2 ** (retry - 1);
}

export function maxRetries(options: RetryOptions): number {
  return options.maxRetries ?? DEFAULT_MAX_RETRIES;
}

export function abortableSleep(delayMs: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, delayMs);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function describeStatus(status: number | undefined): { retryable: boolean; label: string } {
  if (status === undefined) return { retryable: false, label: "error" };
  if (status === 429) return { retryable: true, label: "rate limited (429)" };
  if (status === 529) return { retryable: true, label: "overloaded (529)" };
  if (status >= 500) return { retryable: true, label: `server error (${status})` };
  const names: Readonly<Record<number, string>> = {
    400: "bad request",
    401: "authentication failed",
    403: "permission denied",
    404: "not found",
    413: "request too large",
  };
  return { retryable: false, label: `${names[status] ?? "request refused"} (${status})` };
}

/** An `error` event inside a stream has no HTTP status; its type says which one it stands for. */
function statusOfStreamError(type: string | null): number | undefined {
  if (type === "overloaded_error") return 529;
  if (type === "rate_limit_error") return 429;
  if (type === "api_error") return 500;
  return undefined;
}

/** `retry-after-ms` (milliseconds), else `retry-after` (seconds or an HTTP date). */
function parseRetryAfter(headers: Headers | undefined): number | undefined {
  const milliseconds = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (Number.isFinite(milliseconds)) return usable(milliseconds);
  const value = headers?.get("retry-after");
  if (value === undefined || value === null) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds)) return usable(seconds * 1_000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? usable(date - Date.now()) : undefined;
}

function usable(delayMs: number): number | undefined {
  return delayMs >= 0 && delayMs <= MAX_RETRY_AFTER_MS ? Math.ceil(delayMs) : undefined;
}

function causeMessage(error: Error): string {
  const cause = error.cause;
  return cause instanceof Error && cause.message !== "" ? `${error.message} (${cause.message})` : error.message;
}
