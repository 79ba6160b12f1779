// How a reply that is not an event stream is judged (spec §5.5–5.6): the status alone is not trusted —
// a JSON-RPC body is handed up whatever the status — and a body that cannot be read is a named failure.
import type { McpErrorKind } from "./errors.js";
import { type JsonRpcId, type JsonRpcMessage, parseMessage } from "./jsonrpc.js";

const BODY_SNIPPET_CHARS = 200;

export type ReplyBody = {
  readonly status: number;
  readonly statusMessage: string;
  /** The media type of `Content-Type`, lower case, without parameters; "" when absent. */
  readonly mediaType: string;
  readonly text: string;
  /** The id of the request sent; undefined for a notification. */
  readonly requestId: JsonRpcId | undefined;
  /** `request 7`, as messages name it. */
  readonly subject: string;
  readonly shownUrl: string;
};

export type ReplyFailure = {
  readonly kind: McpErrorKind;
  readonly text: string;
  readonly code?: number;
  readonly data?: unknown;
};

export type BodyVerdict =
  /** The exchange is over and went well: the response is in, or the notification was accepted. */
  | { readonly outcome: "accepted"; readonly handUp: JsonRpcMessage | undefined }
  | { readonly outcome: "failed"; readonly handUp: JsonRpcMessage | undefined; readonly failure: ReplyFailure };

export function isResponseTo(message: JsonRpcMessage, id: JsonRpcId): boolean {
  return !("method" in message) && message.id === id;
}

function isJsonMediaType(mediaType: string): boolean {
  return mediaType === "application/json" || mediaType.endsWith("+json");
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return JSON.stringify(flat.length > BODY_SNIPPET_CHARS ? `${flat.slice(0, BODY_SNIPPET_CHARS)}…` : flat);
}

function failed(text: string, handUp?: JsonRpcMessage): BodyVerdict {
  return { outcome: "failed", handUp, failure: { kind: "protocol", text } };
}

export function judgeReplyBody(reply: ReplyBody): BodyVerdict {
  const { status, requestId, subject, text } = reply;
  const ok = status >= 200 && status < 300;
  const answered = `${reply.shownUrl} answered HTTP ${status}${reply.statusMessage ? ` ${reply.statusMessage}` : ""}`;
  if (text.trim() === "") {
    if (ok && requestId === undefined) return { outcome: "accepted", handUp: undefined };
    return failed(`${answered} with an empty body to ${subject}`);
  }
  if (!isJsonMediaType(reply.mediaType)) {
    if (ok) return failed(`${answered} with unexpected content type ${JSON.stringify(reply.mediaType)} to ${subject}`);
    return failed(`${answered} without a JSON-RPC body to ${subject}: ${snippet(text)}`);
  }
  const message = parseMessage(text);
  if (message instanceof Error) {
    return failed(`${answered} with a body that is not JSON-RPC (${message.message}) to ${subject}: ${snippet(text)}`);
  }
  if ("method" in message && "id" in message) {
    return failed(`${answered} to ${subject} with a ${message.method} request; servers must not send requests (MRTR replaced them)`);
  }
  const isOwnResponse = requestId !== undefined && isResponseTo(message, requestId);
  // An error with a failure status fails the exchange itself, so the status travels with it: a 401, 403
  // or 5xx is never mistaken for a legacy server's answer (spec §8 detection rules).
  if ("error" in message && !ok && (isOwnResponse || message.id === null)) {
    const { code, data } = message.error;
    const where = message.id === null ? `${answered}: ` : "";
    return { outcome: "failed", handUp: undefined, failure: { kind: "server", text: `${where}${message.error.message} (code ${code})`, code, data } };
  }
  if (requestId === undefined ? ok : isOwnResponse) return { outcome: "accepted", handUp: message };
  if ("error" in message && message.id === null) {
    const { code, data } = message.error;
    return { outcome: "failed", handUp: undefined, failure: { kind: "server", text: `${answered}: ${message.error.message} (code ${code})`, code, data } };
  }
  // A response to some other request is never handed up: only this exchange's own answer may settle anything.
  return failed(`${answered} to ${subject} with a message that is not its response`);
}
