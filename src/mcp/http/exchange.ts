// One Streamable HTTP exchange (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports#streamable-http):
// POST one message, settle once the server took it (a success status) or refused it, then read the reply —
// one JSON message or an event stream scoped to the request — and hand every message up. A reply that is
// not what the protocol allows, and a connection that fails, become McpErrors that say so: before the
// server took the message, as the refusal; after, as the failure of the request it carried. A legacy
// request's stream that closes before its response is resumed with GET and `Last-Event-ID` (stream-resumption.ts).
import http from "node:http";
import https from "node:https";
import { describeError, type Redact } from "../../kernel/index.js";
import { McpError, parseMessage, type JsonRpcId, type JsonRpcMessage, type McpErrorKind } from "../jsonrpc.js";
import { abortFailure, bytesText, describeNetworkError, HttpFailure, isResponseTo, judgeReplyBody, mediaTypeOf, type ReplyBody, type ReplyFailure } from "./failure.js";
import { createSseReader, type SseReader } from "./sse-reader.js";
import { NEW_CURSOR, planResumption, type StreamCursor } from "./stream-resumption.js";

/** After the response, trailing notifications are read for this long at most; then the stream is closed. */
const TRAILING_EVENTS_GRACE_MS = 1000;
/** A notification is answered with 202 at once; nothing above waits on it with a timeout of its own. */
const NOTIFICATION_REPLY_TIMEOUT_MS = 10_000;
/**
 * The most one message may carry: a JSON reply, or one event of a stream. Past it the rest is not read and
 * the request fails saying so. A model sees 8,000 characters of a result, and a page of a thousand tools
 * with rich schemas is a few MB; 16 MiB leaves room for both (and for the lab's 10 MB results) while a
 * 250 MB answer costs a few times 16 MiB of memory, not its own size.
 */
export const MAX_REPLY_BYTES = 16 * 1024 * 1024;
/** A failure status's body only explains the failure: it is read this far, and for this long, at most. */
export const MAX_ERROR_BODY_BYTES = 1024 * 1024;
export const ERROR_BODY_TIMEOUT_MS = 10_000;
/** 2025-03-26: "The session ID MUST only contain visible ASCII characters (0x21 to 0x7E)." */
const SESSION_ID = /^[\x21-\x7e]+$/;

export type ExchangeInput = {
  /** The server's alias: the `server` of the McpError the exchange fails with. */
  readonly server: string;
  readonly url: URL;
  /** The URL as messages show it: without credentials, query or fragment. */
  readonly shownUrl: string;
  readonly agent: http.Agent;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** The id whose response ends the exchange; undefined when the message is not a request. */
  readonly requestId: JsonRpcId | undefined;
  /** How messages name the message sent: `request 7`, `notification notifications/initialized`. */
  readonly subject: string;
  readonly onMessage: (message: JsonRpcMessage) => void;
  /**
   * Legacy (2025-11-25) exchanges only: "The server MAY send JSON-RPC requests and notifications before
   * sending the JSON-RPC response", so a request on the stream is handed up instead of failing the exchange.
   */
  readonly serverRequestsAllowed: boolean;
  readonly onSessionId: (sessionId: string) => void;
  /** Called once, when the HTTP exchange is over (reply read to its end, or destroyed). */
  readonly onFinished: () => void;
  /** A request the server took failed before its response was handed up (its stream broke…); called at most once. */
  readonly onFailed: (error: McpError) => void;
  /** Aborted: the exchange stops, failing with the signal's reason (an McpError) or as aborted. Not aborted yet when given. */
  readonly signal?: AbortSignal;
  /** The cap on one message's bytes, a JSON reply or one event (MAX_REPLY_BYTES unless the transport was given another). */
  readonly maxReplyBytes: number;
  /** How long a failure status's body may take; ERROR_BODY_TIMEOUT_MS unless a test needs it short. */
  readonly errorBodyTimeoutMs?: number;
  /**
   * Legacy (2025-11-25) requests only: the headers of a GET that resumes the request's event stream when the
   * server closes it before the response (`Last-Event-ID` is added here). Absent, a closed stream fails the request.
   */
  readonly resumeHeaders?: () => Promise<Record<string, string>>;
  /** A 401/403 challenge goes to the login above, which may send the request again: its body is not handed up. */
  readonly holdAuthChallenges?: boolean;
  /** Removes secrets (the user's header values) from text that might echo them. */
  readonly redact: Redact;
};

export interface Exchange {
  /**
   * Resolves when the server took the message (a success status); rejects with the McpError of a refusal
   * (a failure status, with what its body said) or of a connection that failed before it. What fails after
   * goes to `onFailed`.
   */
  readonly done: Promise<void>;
  /** Fails the exchange with `reason` (its `done` if still pending) and destroys the request and its stream. */
  abort(reason: McpError): void;
}

export function startExchange(input: ExchangeInput): Exchange {
  const { server, shownUrl, requestId, subject } = input;
  /** `done` settled: the server took the message, or the exchange failed before it did. */
  let settled = false;
  /** A request's own response was handed up: what fails afterwards concerns nobody. */
  let answered = false;
  /** The server took the message (a success status). */
  let taken = false;
  let failedAfter = false;
  let stopped = false;
  let finished = false;
  let request: http.ClientRequest | undefined;
  let graceTimer: NodeJS.Timeout | undefined;
  /** What is being read, once the server began to answer. */
  let reading: "event stream" | "reply" | undefined;
  /** The event stream being read (the POST's, then each resumption's): closed once, however its end is heard. */
  let openStream: { readonly reader: SseReader; closed: boolean } | undefined;
  let cursor: StreamCursor = NEW_CURSOR;
  /** Between a stream's close and the GET that resumes it: the request that closed is not the end of the exchange. */
  let resumeTimer: NodeJS.Timeout | undefined;
  let resuming = false;
  let resolve: () => void = () => {};
  let reject: (error: McpError) => void = () => {};
  const done = new Promise<void>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });

  function settle(error?: McpError): void {
    if (settled) return;
    settled = true;
    if (error !== undefined) return reject(error);
    taken = true;
    resolve();
  }

  /** Whether a failure now concerns anyone: `done` still pending, or a request the server took still unanswered. */
  function failureMatters(): boolean {
    return !settled || (taken && requestId !== undefined && !answered && !failedAfter);
  }
  /** Before the server took the message, `done` fails; after, the request it carried (unless its response came). */
  function failWith(error: McpError): void {
    if (!settled) return settle(error);
    if (!failureMatters()) return;
    failedAfter = true;
    input.onFailed(error);
  }
  function fail(kind: McpErrorKind, text: string): void {
    // Every exchange ends through here (finish): the error, its stack and its redaction are made only when someone reads them.
    if (failureMatters()) failWith(new McpError(kind, input.redact(text), { server }));
  }
  /** A failure on a reply's status: the login above reads the status and the challenge. */
  function failOnStatus(failure: ReplyFailure, status: number, wwwAuthenticate: string | undefined, dpopNonce?: string): void {
    const { kind, text, code, data } = failure;
    failWith(new HttpFailure(kind, input.redact(text), { server, code, data, status, wwwAuthenticate, dpopNonce }));
  }
  function onAbort(): void {
    abort(abortFailure(server, subject, input.signal?.reason));
  }
  function abort(reason: McpError): void {
    if (finished) return;
    failWith(reason);
    stop();
  }
  function stop(): void {
    stopped = true;
    clearTimeout(graceTimer);
    request?.destroy();
    if (resumeTimer === undefined) return;
    // Waiting to resume, no request is open: the exchange ends here.
    clearTimeout(resumeTimer);
    resumeTimer = undefined;
    resuming = false;
    finish();
  }
  function failBroken(): void {
    const what = reading === undefined ? `the connection to ${shownUrl} closed` : `the ${reading} from ${shownUrl} broke`;
    fail("broken", `${what} before the response to ${subject}`);
  }
  function finish(): void {
    if (finished) return;
    finished = true;
    clearTimeout(graceTimer);
    input.signal?.removeEventListener("abort", onAbort);
    // The request closes before its response reports a cut: name what was cut here too.
    failBroken();
    input.onFinished();
  }

  /** Past the cap on one message the exchange fails and the response is destroyed: the rest is never read. */
  function tooLarge(): void {
    fail("protocol", `${shownUrl} sent a message larger than ${bytesText(input.maxReplyBytes)} in answer to ${subject}; ` +
      "it was not read to the end (the cap on one message)");
    stop();
  }

  /** A server's error text may echo what it was sent (a token): it passes the same redaction as ours. */
  function handUp(message: JsonRpcMessage): void {
    if (requestId !== undefined && isResponseTo(message, requestId)) answered = true;
    if ("error" in message) input.onMessage({ ...message, error: { ...message.error, message: input.redact(message.error.message) } });
    else input.onMessage(message);
  }

  function readEventStream(res: http.IncomingMessage): void {
    const reader = createSseReader((data) => {
      // 2025-11-25 servers that can resume "SHOULD immediately send an SSE event consisting of an event ID
      // and an empty data field" (priming): no message travels in it.
      if (stopped || data === "") return;
      const message = parseMessage(data);
      if (message instanceof Error) {
        fail("protocol", `the event stream from ${shownUrl} carried an event that is not JSON-RPC (${message.message})`);
        return stop();
      }
      if ("method" in message && "id" in message && !input.serverRequestsAllowed) {
        fail("protocol", `${shownUrl} sent a ${message.method} request on the event stream of ${subject}; ` +
          "servers must not send requests (MRTR replaced them)");
        return stop();
      }
      const isOwnResponse = requestId !== undefined && isResponseTo(message, requestId);
      if (!("method" in message) && !isOwnResponse) {
        fail("protocol", `the event stream from ${shownUrl} for ${subject} carried a response to another request`);
        return stop();
      }
      const first = isOwnResponse && !answered;
      handUp(message);
      if (first) graceTimer = setTimeout(stop, TRAILING_EVENTS_GRACE_MS);
    }, input.maxReplyBytes);
    const stream = { reader, closed: false };
    openStream = stream;
    res.on("data", (chunk: Buffer) => {
      if (!stopped && reader.push(chunk) !== undefined) tooLarge();
    });
    res.on("end", () => {
      reader.end();
      if (requestId === undefined) settle();
      else streamClosed(`the event stream from ${shownUrl} ended before the response to ${subject}`);
    });
    res.on("close", () => {
      if (!res.complete) streamClosed(`the event stream from ${shownUrl} broke before the response to ${subject}`);
    });
  }

  /**
   * The open stream ended or broke before the response: resumed where the request allows it, else the
   * request fails with `why`. Heard once per stream, from its end, its close, or its request's close.
   */
  function streamClosed(why: string): void {
    const stream = openStream;
    if (stream === undefined || stream.closed) return;
    stream.closed = true;
    if (stopped || !failureMatters()) return;
    if (input.resumeHeaders === undefined) return fail("broken", why);
    const planned = planResumption(cursor, { lastEventId: stream.reader.lastEventId(), reconnectionTimeMs: stream.reader.reconnectionTimeMs() });
    cursor = planned.cursor;
    const { next } = planned;
    if (next.kind === "give-up") return fail("broken", `${why}; it was not resumed: ${next.reason}`);
    resumeTimer = setTimeout(() => {
      resumeTimer = undefined;
      void resume(next.lastEventId);
    }, next.delayMs);
  }

  async function resume(lastEventId: string): Promise<void> {
    resuming = true;
    let headers: Record<string, string> | undefined;
    try {
      headers = await input.resumeHeaders?.();
    } catch (error) {
      fail("broken", `the event stream of ${subject} could not be resumed: ${describeError(error)}`);
    }
    resuming = false;
    if (stopped || headers === undefined) return finish();
    open("GET", { ...headers, "Last-Event-ID": lastEventId }, undefined);
  }

  /** A resumption's answer: the same stream, going on, or the request fails saying what came instead. */
  function onResumed(res: http.IncomingMessage): void {
    const status = res.statusCode ?? 0;
    res.on("error", () => {});
    const mediaType = mediaTypeOf(res.headers["content-type"]);
    if (status >= 200 && status < 300 && mediaType === "text/event-stream") {
      reading = "event stream";
      return readEventStream(res);
    }
    res.resume();
    const what = status >= 200 && status < 300 ? `${mediaType === "" ? "no content type" : mediaType} instead of an event stream` : `HTTP ${status}`;
    fail("broken", `${shownUrl} did not resume the event stream of ${subject} (${what})`);
    stop();
  }

  function readBody(res: http.IncomingMessage, mediaType: string): void {
    const status = res.statusCode ?? 0;
    const failing = status < 200 || status >= 300;
    const cap = failing ? Math.min(input.maxReplyBytes, MAX_ERROR_BODY_BYTES) : input.maxReplyBytes;
    const chunks: Buffer[] = [];
    let bytes = 0;
    let bodyTimer: NodeJS.Timeout | undefined;
    const text = (): string => Buffer.concat(chunks, Math.min(bytes, cap)).toString("utf8");
    /** A failure's body is judged as far as it came, then the response is destroyed. */
    const cut = (why: string): void => {
      clearTimeout(bodyTimer);
      takeBody(res, mediaType, text(), why);
      stop();
    };
    const limitMs = input.errorBodyTimeoutMs ?? ERROR_BODY_TIMEOUT_MS;
    if (failing) bodyTimer = setTimeout(() => cut(`not finished within ${limitMs} ms`), limitMs);
    res.on("data", (chunk: Buffer) => {
      if (stopped) return;
      const room = cap - bytes;
      bytes += chunk.length;
      if (chunk.length <= room) return void chunks.push(chunk);
      if (!failing) return tooLarge();
      chunks.push(chunk.subarray(0, room));
      cut(`larger than ${bytesText(cap)}`);
    });
    res.on("end", () => {
      clearTimeout(bodyTimer);
      if (!stopped) takeBody(res, mediaType, text());
    });
    res.on("close", () => {
      clearTimeout(bodyTimer);
      if (!res.complete) failBroken();
    });
  }

  function takeBody(res: http.IncomingMessage, mediaType: string, text: string, cut?: string): void {
    const status = res.statusCode ?? 0;
    const statusMessage = res.statusMessage ?? "";
    const body: ReplyBody = { status, statusMessage, mediaType, text, requestId, subject, shownUrl, ...(cut === undefined ? {} : { cut }) };
    const verdict = judgeReplyBody(body, input.redact);
    const challenge = status === 401 || status === 403 ? res.headers["www-authenticate"] : undefined;
    const held = input.holdAuthChallenges === true && challenge !== undefined;
    // RFC 9449 §9: a resource server that wants a nonce answers 401 with `DPoP-Nonce`; the login retries with it.
    const nonce = res.headers["dpop-nonce"];
    const dpopNonce = status === 401 && typeof nonce === "string" ? nonce : undefined;
    if (verdict.handUp !== undefined && !held) handUp(verdict.handUp);
    if (verdict.outcome === "accepted" && !held) return;
    if (verdict.outcome === "accepted") {
      return failOnStatus({ kind: "protocol", text: `${shownUrl} refused ${subject} (HTTP ${status})` }, status, challenge, dpopNonce);
    }
    failOnStatus(verdict.failure, status, challenge, dpopNonce);
  }

  function onResponse(res: http.IncomingMessage): void {
    const status = res.statusCode ?? 0;
    // A success status is the server taking the message; what its body or stream carries comes after.
    if (status >= 200 && status < 300) settle();
    const sessionId = res.headers["mcp-session-id"];
    if (typeof sessionId === "string" && SESSION_ID.test(sessionId)) input.onSessionId(sessionId);
    // Errors of the response surface as its "close" without `complete`; the listener keeps them from throwing.
    res.on("error", () => {});
    const mediaType = mediaTypeOf(res.headers["content-type"]);
    reading = mediaType === "text/event-stream" ? "event stream" : "reply";
    if (reading === "event stream") readEventStream(res);
    else readBody(res, mediaType);
  }

  /** The POST of the message, or (with no body) a GET resuming its stream. */
  function open(method: "POST" | "GET", headers: Readonly<Record<string, string>>, body: Buffer | undefined): void {
    const options = { method, agent: input.agent, headers };
    openStream = undefined;
    let req: http.ClientRequest;
    try {
      req = input.url.protocol === "https:" ? https.request(input.url, options) : http.request(input.url, options);
    } catch (error) {
      fail("protocol", `cannot send ${subject} to ${shownUrl}: ${describeError(error)}`);
      // Later, so that the caller holds the exchange before hearing that it finished.
      return queueMicrotask(finish);
    }
    request = req;
    let responded = false;
    req.on("response", (res) => {
      responded = true;
      if (body === undefined) onResumed(res);
      else onResponse(res);
    });
    req.on("error", (error) => {
      const { kind, text } = describeNetworkError(error, { shownUrl, subject, responded });
      fail(kind, text);
    });
    req.on("close", () => {
      if (request !== req) return;
      // A socket that closes mid-stream closes the request before its response: the stream is cut here.
      streamClosed(`the event stream from ${shownUrl} broke before the response to ${subject}`);
      if (resumeTimer === undefined && !resuming) finish();
    });
    if (requestId === undefined) {
      req.setTimeout(NOTIFICATION_REPLY_TIMEOUT_MS, () => {
        fail("timeout", `${shownUrl} did not answer ${subject} within ${NOTIFICATION_REPLY_TIMEOUT_MS} ms`);
        stop();
      });
    }
    req.end(body);
  }

  input.signal?.addEventListener("abort", onAbort, { once: true });
  open("POST", input.headers, input.body);
  return { done, abort };
}
