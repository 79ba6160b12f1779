// The old HTTP+SSE transport (https://modelcontextprotocol.io/specification/2024-11-05/basic/transports#http-with-sse),
// still served by many hosted servers: one GET opens an event stream whose first event, `endpoint`, names
// the URI to POST each message to; every message from the server (responses, requests, notifications)
// arrives as a `message` event on that one stream. It moves messages and nothing else.
import http from "node:http";
import https from "node:https";
import { describeError, type Redact } from "../../kernel/index.js";
import { McpError, parseMessage, type JsonRpcMessage, type McpErrorKind, type Transport, type TransportHandlers } from "../jsonrpc.js";
import { withLogin, type HttpAuth } from "../auth/oauth-session.js";
import { MAX_ERROR_BODY_BYTES, MAX_REPLY_BYTES } from "./exchange.js";
import { abortFailure, bytesText, describeMessage, describeNetworkError, HttpFailure, mediaTypeOf, shownUrl, snippet } from "./failure.js";
import { createHeaderRedactor, createHeaderTable, userHeaders, type HeaderTable } from "./headers.js";
import { createSseReader } from "./sse-reader.js";

export type LegacySseTransportOptions = {
  /** The alias from the config: the `server` of every McpError this transport raises. */
  readonly label: string;
  /** The URL the event stream is opened at (by convention it ends in `/sse`). */
  readonly url: string;
  /** Sent on the GET and on every POST; their values never appear in any error text. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The cap on one event of the stream; MAX_REPLY_BYTES (16 MiB) by default. */
  readonly maxReplyBytes?: number;
  /** MCP-Protocol-Version: the version a message names, else the one `initialize` agreed (the wire tells the table). */
  readonly headerTable?: HeaderTable;
  /** The server's login: its `Authorization` goes on every request; a 401/403 is handed to it, and the request goes again. */
  readonly auth?: HttpAuth;
  /** How long the stream may take to name its endpoint; ENDPOINT_TIMEOUT_MS by default. */
  readonly endpointTimeoutMs?: number;
  /** How long a POST may take to be answered (202); POST_REPLY_TIMEOUT_MS by default. */
  readonly postReplyTimeoutMs?: number;
};

/** "When a client connects, the server MUST send an endpoint event": a stream silent this long is given up. */
export const ENDPOINT_TIMEOUT_MS = 15_000;
/** A POST is answered (202 Accepted) as soon as the server took the message; its answer comes on the stream. */
export const POST_REPLY_TIMEOUT_MS = 10_000;

type Reply = { readonly status: number; readonly statusMessage: string; readonly wwwAuthenticate: string | undefined; readonly body: string };

export function createLegacySseTransport(options: LegacySseTransportOptions): Transport {
  const headerTable = options.headerTable ?? createHeaderTable();
  const { label: server } = options;
  const sseUrl = new URL(options.url);
  if (sseUrl.protocol !== "http:" && sseUrl.protocol !== "https:") {
    throw new McpError("unreachable", `${sseUrl.protocol} is not an HTTP URL`, { server });
  }
  const streamUrl = shownUrl(sseUrl);
  const client = sseUrl.protocol === "https:" ? https : http;
  const agent = new client.Agent({ keepAlive: true });
  const extraHeaders = userHeaders(options.headers ?? {});
  const maxEventBytes = options.maxReplyBytes ?? MAX_REPLY_BYTES;
  const redactWith = createHeaderRedactor(extraHeaders);
  let redact: Redact = redactWith(undefined);
  const requests = new Set<http.ClientRequest>();
  let handlers: TransportHandlers | undefined;
  let endpoint: URL | undefined;
  let closing: Promise<void> | undefined;
  let ended = false;
  /** The GET of the event stream, once it went. */
  let stream: http.ClientRequest | undefined;

  function error(kind: McpErrorKind, text: string): McpError {
    return new McpError(kind, redact(text), { server });
  }

  /** The headers of every request, with the login's token (a secret like the user's header values) when there is one. */
  function headersWith(authorization: string | undefined, own: Readonly<Record<string, string>>): Record<string, string> {
    if (authorization !== undefined) redact = redactWith(authorization);
    const version = headerTable.version();
    return {
      ...extraHeaders,
      ...(authorization === undefined ? {} : { Authorization: authorization }),
      ...(version === undefined ? {} : { "MCP-Protocol-Version": version }),
      ...own,
    };
  }

  /** Runs `attempt` again while the login has a new token for the challenge it met (see withLogin). */
  function loggedIn<T>(attempt: (authorization: string | undefined) => Promise<T>): Promise<T> {
    return options.auth === undefined ? attempt(undefined) : withLogin(options.auth, () => closing !== undefined, attempt);
  }

  /** A failure status as an HttpFailure that names the URL and quotes what the body said. */
  function refused(reply: Reply, subject: string, url: URL): HttpFailure {
    const said = reply.body.trim() === "" ? "" : `: ${snippet(reply.body, redact)}`;
    const text = `${shownUrl(url)} answered HTTP ${reply.status}${reply.statusMessage === "" ? "" : ` ${reply.statusMessage}`} to ${subject}${said}`;
    return new HttpFailure("protocol", redact(text), { server, status: reply.status, wwwAuthenticate: reply.wwwAuthenticate });
  }

  /** Reads a reply's body, as far as MAX_ERROR_BODY_BYTES, for what it says. */
  function readReply(res: http.IncomingMessage): Promise<Reply> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      const done = (): void => {
        const challenge = res.headers["www-authenticate"];
        resolve({ status: res.statusCode ?? 0, statusMessage: res.statusMessage ?? "", wwwAuthenticate: challenge, body: Buffer.concat(chunks).toString("utf8") });
      };
      res.on("data", (chunk: Buffer) => {
        if (bytes >= MAX_ERROR_BODY_BYTES) return void res.destroy();
        bytes += chunk.length;
        chunks.push(chunk);
      });
      res.on("end", done);
      res.on("close", done);
      res.on("error", () => {});
    });
  }

  // -------------------------------------------------------------------------------------------------
  // The stream: opened once by `start`, it must name the endpoint first; it ending ends the connection.

  /** The connection is over: every request waiting for an answer on the stream fails with `reason` at once. */
  function end(reason: McpError): void {
    if (ended) return;
    ended = true;
    for (const request of [...requests]) request.destroy();
    requests.clear();
    handlers?.onClose(reason);
  }

  /** The endpoint's URI is the server's word: resolved against the stream's URL, and taken only on the same origin. */
  function readEndpoint(data: string): URL | McpError {
    let url: URL;
    try {
      url = new URL(data.trim(), sseUrl);
    } catch {
      return error("protocol", `the endpoint event from ${streamUrl} names no URI: ${snippet(data, redact)}`);
    }
    if (url.origin !== sseUrl.origin) {
      return error("protocol", `the endpoint event from ${streamUrl} names another origin (${url.origin}); messages are only sent to ${sseUrl.origin}`);
    }
    return url;
  }

  async function openStream(started: TransportHandlers, authorization: string | undefined): Promise<void> {
    const headers = headersWith(authorization, { Accept: "text/event-stream" });
    if (closing !== undefined) throw error("closed", "the transport was closed before its event stream opened");
    return new Promise<void>((resolve, reject) => {
      /** Before the endpoint came, a failure fails `start`; after, it ends the connection; once over, nothing. */
      let phase: "connecting" | "open" | "over" = "connecting";
      const fail = (failure: McpError): void => {
        clearTimeout(timer);
        if (phase === "open") end(failure);
        else if (phase === "connecting") reject(failure);
        phase = "over";
        request.destroy();
      };
      const limitMs = options.endpointTimeoutMs ?? ENDPOINT_TIMEOUT_MS;
      const timer = setTimeout(() => fail(error("timeout", `${streamUrl} sent no endpoint event within ${limitMs} ms of the GET`)), limitMs);
      const reader = createSseReader((data, event) => {
        if (phase === "over") return;
        if (event === "endpoint") {
          // Only the first names where messages go: a later one is not followed.
          if (phase === "open") return;
          const found = readEndpoint(data);
          if (found instanceof McpError) return fail(found);
          endpoint = found;
          phase = "open";
          clearTimeout(timer);
          return resolve();
        }
        if (event !== "message") return;
        const message = parseMessage(data);
        if (message instanceof Error) {
          started.onWarning?.(redact(`${streamUrl} sent an event that is not JSON-RPC (${message.message}); it was dropped`));
          return;
        }
        started.onMessage("error" in message ? { ...message, error: { ...message.error, message: redact(message.error.message) } } : message);
      }, maxEventBytes);
      const request = client.request(sseUrl, { method: "GET", agent, headers });
      stream = request;
      request.on("error", (cause) => {
        const { kind, text } = describeNetworkError(cause, { shownUrl: streamUrl, subject: "the GET of its event stream", responded: phase === "open" });
        fail(error(kind, phase === "open" ? `the event stream from ${streamUrl} broke (${describeError(cause)})` : text));
      });
      request.on("response", (res) => {
        const mediaType = mediaTypeOf(res.headers["content-type"]);
        const status = res.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          return void readReply(res).then((reply) => fail(refused(reply, "the GET of its event stream", sseUrl)));
        }
        if (mediaType !== "text/event-stream") {
          return fail(error("protocol", `${streamUrl} answered the GET with ${JSON.stringify(mediaType)}, not an event stream`));
        }
        res.on("error", () => {});
        res.on("data", (chunk: Buffer) => {
          if (phase === "over" || reader.push(chunk) === undefined) return;
          fail(error("protocol", `${streamUrl} sent an event larger than ${bytesText(maxEventBytes)} on its stream; the connection was ended (the cap on one message)`));
        });
        res.on("close", () => {
          reader.end();
          fail(error("broken", `the event stream from ${streamUrl} ${res.complete ? "ended" : "broke"}`));
        });
      });
      request.end();
    });
  }

  // -------------------------------------------------------------------------------------------------
  // Messages: each one POSTed to the endpoint, taken with a success status (202 Accepted).

  async function post(message: JsonRpcMessage, url: URL, authorization: string | undefined, signal: AbortSignal | undefined): Promise<void> {
    const subject = describeMessage(message);
    const body = Buffer.from(JSON.stringify(message), "utf8");
    const version = headerTable.forMessage(message).protocolVersion;
    const headers = headersWith(authorization, {
      "Content-Type": "application/json",
      "Content-Length": String(body.length),
      ...(version === undefined ? {} : { "MCP-Protocol-Version": version }),
    });
    if (closing !== undefined) throw error("closed", `cannot send ${subject}: the transport is closed`);
    return new Promise<void>((resolve, reject) => {
      const request = client.request(url, { method: "POST", agent, headers, timeout: options.postReplyTimeoutMs ?? POST_REPLY_TIMEOUT_MS });
      requests.add(request);
      const onAbort = (): void => {
        reject(abortFailure(server, subject, signal?.reason));
        request.destroy();
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      let responded = false;
      request.on("close", () => {
        requests.delete(request);
        signal?.removeEventListener("abort", onAbort);
        // Once answered, the reply's own reading settles the send.
        if (!responded) reject(error(ended ? "closed" : "broken", `the connection to ${shownUrl(url)} closed before it took ${subject}`));
      });
      request.on("timeout", () => {
        reject(error("timeout", `${shownUrl(url)} did not take ${subject} within ${options.postReplyTimeoutMs ?? POST_REPLY_TIMEOUT_MS} ms`));
        request.destroy();
      });
      request.on("error", (cause) => {
        const { kind, text } = describeNetworkError(cause, { shownUrl: shownUrl(url), subject, responded: false });
        reject(error(kind, text));
      });
      request.on("response", (res) => {
        responded = true;
        void readReply(res).then((reply) => {
          if (reply.status >= 200 && reply.status < 300) resolve();
          else reject(refused(reply, subject, url));
        });
      });
      request.end(body);
    });
  }

  function send(message: JsonRpcMessage, signal?: AbortSignal): Promise<void> {
    const subject = describeMessage(message);
    if (closing !== undefined || ended) return Promise.reject(error("closed", `cannot send ${subject}: the transport is closed`));
    if (endpoint === undefined) return Promise.reject(error("closed", `cannot send ${subject}: the transport was not started`));
    if (signal?.aborted === true) return Promise.reject(error("aborted", `${subject} was stopped`));
    const url = endpoint;
    return loggedIn((authorization) => post(message, url, authorization, signal));
  }

  return {
    label: server,
    // Every answer comes on the one shared stream: a request is given up by telling the server so.
    cancellation: "notify",
    async start(startHandlers) {
      handlers = startHandlers;
      await loggedIn((authorization) => openStream(startHandlers, authorization));
    },
    send,
    close() {
      if (closing !== undefined) return closing;
      closing = Promise.resolve();
      stream?.destroy();
      end(error("closed", "the transport was closed"));
      agent.destroy();
      return closing;
    },
  };
}
