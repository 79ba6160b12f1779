// How an exchange over HTTP fails, said the same way by both transports: a reply that is not an event stream
// judged into a verdict, a dead connection named, and the failures that say more than an McpError does — the
// status of a refused reply and the challenge it carried (what the login reads), a legacy session the server
// no longer knows, a login nobody could give here. The layers above only ask `instanceof`.
import type { Redact } from "../../kernel/index.js";
import { isJsonObject, McpError, parseMessage, type JsonRpcId, type JsonRpcMessage, type McpErrorDetails, type McpErrorKind } from "../jsonrpc.js";

export interface HttpFailureDetails extends McpErrorDetails {
  /** The HTTP status of the reply that failed: 401/403 say "auth", never "legacy". */
  readonly status: number;
  /** The `WWW-Authenticate` of a 401 or 403 reply: what the server asks for to let the request in. */
  readonly wwwAuthenticate?: string;
  /** RFC 9449 §9: the `DPoP-Nonce` of a 401 that asks for a nonce in the next proof. */
  readonly dpopNonce?: string;
  /**
   * 2025-11-25 Streamable HTTP: the request carried an `Mcp-Session-Id` and the server answered 404, so the
   * session is gone; the client "MUST start a new session by sending a new InitializeRequest".
   */
  readonly sessionExpired?: boolean;
}

export class HttpFailure extends McpError {
  readonly status: number;
  readonly wwwAuthenticate: string | undefined;
  readonly dpopNonce: string | undefined;
  readonly sessionExpired: boolean;

  constructor(kind: McpErrorKind, message: string, details: HttpFailureDetails) {
    super(kind, message, details);
    this.status = details.status;
    this.wwwAuthenticate = details.wwwAuthenticate;
    this.dpopNonce = details.dpopNonce;
    this.sessionExpired = details.sessionExpired === true;
  }
}

/** The server asks for a login nobody could give here (no stored token, no terminal): `mca mcp login` fixes it. */
export class LoginNeeded extends McpError {
  constructor(message: string, server: string) {
    super("protocol", message, { server });
  }
}

/**
 * What a refusing server said, as quoted text: its `WWW-Authenticate` `error_description` when the body
 * (as judgeReplyBody quoted it, redacted) gave no reason. A JSON body's `error_description`, `detail`,
 * `message` or `error` is the reason; else the body's text as it was quoted.
 */
function refusalReason(error: HttpFailure): string | undefined {
  const quoted = /: ("(?:[^"\\]|\\.)*")$/.exec(error.message)?.[1];
  const fromRpc = /^(?:\S+ answered HTTP \d+[^:]*: )?(.+) \(code -?\d+\)$/.exec(error.message)?.[1];
  if (quoted !== undefined) {
    const text: unknown = JSON.parse(quoted);
    const field = typeof text === "string" ? reasonField(text) : undefined;
    return field === undefined ? quoted : snippet(field, (same) => same);
  }
  if (fromRpc !== undefined) return snippet(fromRpc, (same) => same);
  const description = /error_description\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(error.wwwAuthenticate ?? "")?.[1];
  return description === undefined ? undefined : snippet(description.replace(/\\(.)/g, "$1"), (same) => same);
}

function reasonField(text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJsonObject(body)) return undefined;
  for (const key of ["error_description", "detail", "message", "error"]) {
    const value = body[key];
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  return undefined;
}

/**
 * A 401 from a server that publishes no OAuth metadata at all (no RFC 9728 document, no RFC 8414 one, and no
 * registration at the 2025-03-26 default `/register`): no login can answer it, so the server's own reason
 * is what the user needs, and where a key or token goes.
 */
export function plainRefusal(error: HttpFailure): HttpFailure {
  const reason = refusalReason(error);
  const said = reason === undefined ? `HTTP ${error.status} without a reason` : `HTTP ${error.status}: ${reason}`;
  const text = `${said}; the server publishes no OAuth metadata, so if it takes an API key or token, set it in "headers" for this server in the config`;
  return new HttpFailure(error.kind, text, { server: error.server, code: error.code, data: error.data, status: error.status, wwwAuthenticate: error.wwwAuthenticate });
}

/** Whether `error` says the legacy session its request carried is gone. */
export function isLostSession(error: unknown): error is HttpFailure {
  return error instanceof HttpFailure && error.sessionExpired;
}

/** The failure of a send stopped by its signal: the signal's reason when it is an McpError, or one naming the message. */
export function abortFailure(server: string, subject: string, reason: unknown): McpError {
  return reason instanceof McpError ? reason : new McpError("aborted", `${subject} was stopped`, { server });
}

/** The HTTP status of the reply `error` failed on, if it failed on one. */
export function httpStatusOf(error: McpError): number | undefined {
  return error instanceof HttpFailure ? error.status : undefined;
}

// ---------------------------------------------------------------------------------------------------
// How messages name what was sent and where.

/** How messages name the message sent: `request 7`, `notification notifications/initialized`. */
export function describeMessage(message: JsonRpcMessage): string {
  if (!("method" in message)) return `response ${JSON.stringify(message.id)}`;
  if ("id" in message) return `request ${JSON.stringify(message.id)}`;
  return `notification ${message.method}`;
}

/** A URL as messages show it: without credentials, query (it may carry codes) or fragment; quoted when it is no URL. */
export function shownUrl(url: URL | string): string {
  try {
    const parsed = typeof url === "string" ? new URL(url) : url;
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return JSON.stringify(url);
  }
}

/** The media type of a reply's `Content-Type`, lower case, without parameters; "" when absent. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

// ---------------------------------------------------------------------------------------------------
// A reply that is not an event stream: the status alone is not trusted — a JSON-RPC body is
// handed up whatever the status — and a body that cannot be read is a named failure.

const BODY_SNIPPET_CHARS = 200;

export type ReplyBody = {
  readonly status: number;
  readonly statusMessage: string;
  /** The media type of `Content-Type`, lower case, without parameters; "" when absent. */
  readonly mediaType: string;
  readonly text: string;
  /** Why a failure status's body was not read to its end (`larger than 1 MiB`); `text` is what came before. */
  readonly cut?: string;
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

/** Redacted before it is cut, so that no fragment of a secret survives the cut. */
export function snippet(text: string, redact: Redact): string {
  const flat = redact(text).replace(/\s+/g, " ").trim();
  return JSON.stringify(flat.length > BODY_SNIPPET_CHARS ? `${flat.slice(0, BODY_SNIPPET_CHARS)}…` : flat);
}

/** `16 MiB` for a whole number of MiB, else `1000 bytes`. */
export function bytesText(bytes: number): string {
  const mib = 1024 * 1024;
  return bytes % mib === 0 ? `${bytes / mib} MiB` : `${bytes} bytes`;
}

function failed(text: string, handUp?: JsonRpcMessage): BodyVerdict {
  return { outcome: "failed", handUp, failure: { kind: "protocol", text } };
}

/**
 * The old HTTP+SSE transport (2024-11-05) listened for GETs at a URL that by convention ends in `/sse`; a
 * POST there finds nothing. Said plainly: when the GET there opens no such stream either, this is what is left.
 */
function oldSseTransportHint(reply: ReplyBody): string | undefined {
  if (reply.status !== 404 && reply.status !== 405) return undefined;
  if (!/\/sse\/?$/.test(new URL(reply.shownUrl).pathname)) return undefined;
  return `${reply.shownUrl} answered HTTP ${reply.status} to ${reply.subject}: a URL ending in /sse is usually the old HTTP+SSE transport, ` +
    'which mca speaks as "type": "sse"; otherwise use the server\'s Streamable HTTP endpoint (often /mcp)';
}

/**
 * Be liberal where a detail does not matter, strict where it does. Accepted: any 2xx to a notification,
 * whatever its body (the server has nothing to say; some answer 202 with `Content-Type: application/json`
 * and `null`), and the request's own response under a missing or wrong Content-Type. Refused: a reply to
 * another request's id, a failure status without a JSON-RPC error, a request where requests are not allowed.
 */
export function judgeReplyBody(reply: ReplyBody, redact: Redact = (text) => text): BodyVerdict {
  const { status, requestId, subject, text } = reply;
  const ok = status >= 200 && status < 300;
  const answered = `${reply.shownUrl} answered HTTP ${status}${reply.statusMessage ? ` ${reply.statusMessage}` : ""}`;
  if (ok && requestId === undefined) return { outcome: "accepted", handUp: undefined };
  if (reply.cut !== undefined) return failed(`${answered} to ${subject}, with a body not read to its end (${reply.cut}): ${snippet(text, redact)}`);
  if (text.trim() === "") return failed(oldSseTransportHint(reply) ?? `${answered} with an empty body to ${subject}`);
  const message = parseMessage(text);
  if (message instanceof Error) {
    const hint = oldSseTransportHint(reply);
    if (hint !== undefined) return failed(hint);
    if (isJsonMediaType(reply.mediaType)) {
      return failed(`${answered} with a body that is not JSON-RPC (${message.message}) to ${subject}: ${snippet(text, redact)}`);
    }
    if (ok) return failed(`${answered} with unexpected content type ${JSON.stringify(reply.mediaType)} to ${subject}`);
    return failed(`${answered} without a JSON-RPC body to ${subject}: ${snippet(text, redact)}`);
  }
  if ("method" in message && "id" in message) {
    return failed(`${answered} to ${subject} with a ${message.method} request; servers must not send requests (MRTR replaced them)`);
  }
  const isOwnResponse = requestId !== undefined && isResponseTo(message, requestId);
  // An error with a failure status fails the exchange itself, so the status travels with it: a 401, 403
  // or 5xx is never mistaken for a legacy server's answer when the era is probed.
  if ("error" in message && !ok && (isOwnResponse || message.id === null)) {
    const { code, data } = message.error;
    const where = message.id === null ? `${answered}: ` : "";
    return { outcome: "failed", handUp: undefined, failure: { kind: "server", text: `${where}${message.error.message} (code ${code})`, code, data } };
  }
  if (isOwnResponse) return { outcome: "accepted", handUp: message };
  if ("error" in message && message.id === null) {
    const { code, data } = message.error;
    return { outcome: "failed", handUp: undefined, failure: { kind: "server", text: `${answered}: ${message.error.message} (code ${code})`, code, data } };
  }
  // A response to some other request is never handed up: only this exchange's own answer may settle anything.
  return failed(`${answered} to ${subject} with a message that is not its response`);
}

// ---------------------------------------------------------------------------------------------------
// A failed connection: the server could not be reached at all ("unreachable"), or the connection died
// under one exchange ("broken"). Messages name the URL.

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
  if (shownUrl.startsWith("https:") && /wrong version number|packet length too long|http request/i.test(error.message)) {
    // OpenSSL's words for a TLS handshake answered in plain HTTP.
    const plain = shownUrl.replace(/^https:/, "http:");
    return { kind: "unreachable", text: `cannot reach ${shownUrl}: the server there speaks plain HTTP, not HTTPS (try ${plain})` };
  }
  const known = code === undefined ? undefined : UNREACHABLE.get(code);
  const why = known ?? (code !== undefined && !error.message.includes(code) ? `${error.message} (${code})` : error.message);
  return { kind: "unreachable", text: `cannot reach ${shownUrl}: ${why}` };
}
