// What a failed HTTP connection means for the caller: the server could not be reached at all
// ("unreachable"), or the connection died under one exchange ("broken"). Messages name the URL.
import type { McpErrorKind } from "./errors.js";

const UNREACHABLE: ReadonlyMap<string, string> = new Map([
  ["ECONNREFUSED", "connection refused"],
  ["ENOTFOUND", "host not found"],
  ["EAI_AGAIN", "host name lookup failed"],
  ["ETIMEDOUT", "connection timed out"],
  ["EHOSTUNREACH", "host unreachable"],
  ["ENETUNREACH", "network unreachable"],
]);
const RESET = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED"]);

export type NetworkErrorContext = {
  /** The URL as messages show it. */
  readonly shownUrl: string;
  /** The message that was being sent: `request 7`. */
  readonly subject: string;
  /** Whether the server had begun to answer when the connection failed. */
  readonly responded: boolean;
};

export function describeNetworkError(
  error: Error,
  context: NetworkErrorContext,
): { readonly kind: Extract<McpErrorKind, "unreachable" | "broken">; readonly text: string } {
  const code = "code" in error && typeof error.code === "string" ? error.code : undefined;
  const { shownUrl, subject } = context;
  if (context.responded || (code !== undefined && RESET.has(code))) {
    const how = code !== undefined && RESET.has(code) ? "was reset" : `failed (${error.message})`;
    return { kind: "broken", text: `the connection to ${shownUrl} ${how} before the response to ${subject}` };
  }
  const known = code === undefined ? undefined : UNREACHABLE.get(code);
  const why = known ?? (code !== undefined && !error.message.includes(code) ? `${error.message} (${code})` : error.message);
  return { kind: "unreachable", text: `cannot reach ${shownUrl}: ${why}` };
}
