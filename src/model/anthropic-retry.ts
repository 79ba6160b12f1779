// The one retry policy of the Anthropic model (the SDK's own retries are off): rate limits (429),
// overload (529), other 5xx and network failures are retried with exponential backoff, honouring the
// server's retry-after; everything else fails at once with a message that names what went wrong.
import type * as Sdk from "@anthropic-ai/sdk";

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
  return { retryable: false, label: "unexpected failure", detail: error instanceof Error ? error.message : String(error) };
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
