// The Streamable HTTP transport (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports#streamable-http):
// one POST per message over a keep-alive agent, built on node:http rather than fetch, which costs far more
// client CPU per call on Node 20. It moves messages and nothing else: what goes beside each message comes
// from the header table it is built with (headers.ts), a send's signal closes its response stream, and the
// login answers challenges. Which tools declare `x-mcp-header`, and when to cancel, is the client's.
import http from "node:http";
import https from "node:https";
import { McpError, type JsonRpcMessage, type Transport, type TransportHandlers } from "../jsonrpc.js";
import { MAX_REPLY_BYTES, startExchange, type Exchange } from "./exchange.js";
import { openListeningStream, type ListeningStream } from "./listening-stream.js";
import { abortFailure, describeMessage, HttpFailure, shownUrl } from "./failure.js";
import { buildRequestHeaders, createHeaderRedactor, createHeaderTable, userHeaders, type HeaderTable } from "./headers.js";
import { withLogin, type HttpAuth } from "../auth/oauth-session.js";

export type HttpTransportOptions = {
  /** The alias from the config: the `server` of every McpError this transport raises. */
  readonly label: string;
  readonly url: string;
  /** Sent on every request (e.g. Authorization); their values never appear in any error text. */
  readonly headers?: Readonly<Record<string, string>>;
  /** A caller's agent stays the caller's: close() leaves it open. By default the transport owns one. */
  readonly agent?: http.Agent;
  /** The cap on one message, a JSON reply or one event of a stream; MAX_REPLY_BYTES (16 MiB) by default. */
  readonly maxReplyBytes?: number;
  /**
   * MCP-Protocol-Version and `Mcp-Param-*` for each message, and whether it belongs to a legacy session: the
   * table the connection's wire keeps up to date. Absent: a table nobody tells, so each message's own
   * version is all that is sent.
   */
  readonly headerTable?: HeaderTable;
  /**
   * The server's login (https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization): its
   * `Authorization: Bearer` goes on every request, and a 401 or 403 `insufficient_scope` is handed to it;
   * when it has a new token, the request goes again.
   */
  readonly auth?: HttpAuth;
};

/**
 * Idle keep-alive sockets are dropped after this, under the 5 s idle limit common in servers, so that a
 * request is not written to a socket the server is closing (a server's `Keep-Alive: timeout` hint also counts).
 * Only idle sockets: an open request or event stream is never timed out by the agent.
 */
const IDLE_SOCKET_TIMEOUT_MS = 4000;
/** Ending a legacy session at close waits this long at most: the session ends with the server's own timeout anyway. */
const SESSION_DELETE_TIMEOUT_MS = 2000;

export function createHttpTransport(options: HttpTransportOptions): Transport {
  const { label: server } = options;
  const url = new URL(options.url);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new McpError("unreachable", `${url.protocol} is not an HTTP URL`, { server });
  }
  const shown = shownUrl(url);
  const ownAgent = options.agent === undefined;
  const agentOptions = { keepAlive: true, timeout: IDLE_SOCKET_TIMEOUT_MS };
  const agent = options.agent ?? (url.protocol === "https:" ? new https.Agent(agentOptions) : new http.Agent(agentOptions));
  const extraHeaders = userHeaders(options.headers ?? {});
  // A token is a secret like the user's header values: never in an error's text.
  const redactWith = createHeaderRedactor(extraHeaders);
  const headerTable = options.headerTable ?? createHeaderTable();
  const inFlight = new Set<Exchange>();
  let handlers: TransportHandlers | undefined;
  let sessionId: string | undefined;
  /** The GET stream of the legacy session it was opened for (listening-stream.ts). */
  let listening: { readonly session: string; readonly stream: ListeningStream } | undefined;
  let closing: Promise<void> | undefined;

  function send(message: JsonRpcMessage, signal?: AbortSignal): Promise<void> {
    const subject = describeMessage(message);
    if (closing !== undefined) return Promise.reject(new McpError("closed", `cannot send ${subject}: the transport is closed`, { server }));
    if (handlers === undefined) return Promise.reject(new McpError("closed", `cannot send ${subject}: the transport was not started`, { server }));
    const started = handlers;
    if (options.auth === undefined) return sendOnce(message, started, undefined, signal);
    // The target lets the login sign a DPoP proof of this very request (RFC 9449 §4.2: `htm` and `htu`).
    const target = { method: "POST", url: options.url };
    return withLogin(options.auth, () => closing !== undefined, (authorization, dpop) => sendOnce(message, started, authorization, signal, dpop), target);
  }

  function sendOnce(
    message: JsonRpcMessage,
    started: TransportHandlers,
    authorization: string | undefined,
    signal: AbortSignal | undefined,
    dpop?: string,
  ): Promise<void> {
    const subject = describeMessage(message);
    if (signal?.aborted === true) return Promise.reject(abortFailure(server, subject, signal.reason));
    const { protocolVersion, legacy, paramHeaders } = headerTable.forMessage(message);
    const body = Buffer.from(JSON.stringify(message), "utf8");
    const requestId = "method" in message && "id" in message ? message.id : undefined;
    const headers = buildRequestHeaders({
      message,
      protocolVersion,
      paramHeaders,
      sessionId,
      userHeaders: {
        ...extraHeaders,
        ...(authorization === undefined ? {} : { Authorization: authorization }),
        ...(dpop === undefined ? {} : { DPoP: dpop }),
      },
      contentLength: body.length,
    });
    const exchange = startExchange({
      server,
      url,
      shownUrl: shown,
      agent,
      headers,
      body,
      requestId,
      subject,
      onMessage: started.onMessage,
      maxReplyBytes: options.maxReplyBytes ?? MAX_REPLY_BYTES,
      serverRequestsAllowed: legacy,
      // Only a legacy server opens a session (with its answer to `initialize`); 2026-07-28 sends no
      // `Mcp-Session-Id` at all, so one a modern exchange happens to carry (a proxy's, say) is never echoed.
      onSessionId: (id) => {
        if (legacy) sessionId = id;
      },
      onFinished: () => {
        inFlight.delete(exchange);
      },
      onFailed: (error) => {
        if (requestId !== undefined) started.onFailure?.(requestId, error);
      },
      ...(signal === undefined ? {} : { signal }),
      redact: redactWith(authorization),
      holdAuthChallenges: options.auth !== undefined,
      ...(legacy && requestId !== undefined ? { resumeHeaders: getHeaders } : {}),
    });
    inFlight.add(exchange);
    const sentSession = sessionId;
    if (sentSession === undefined) return exchange.done;
    return exchange.done.then(() => {
      // The session carried a message (notifications/initialized, in practice): the server now listens for it.
      if (legacy) listenOn(sentSession);
    }, (error: unknown) => {
      if (!(error instanceof HttpFailure) || error.status !== 404) throw error;
      // The session this request carried is gone (the server restarted, or dropped it): never sent again.
      if (sessionId === sentSession) sessionId = undefined;
      if (listening?.session === sentSession) stopListening();
      const text = `${error.message}; the server no longer knows the session this ${subject} carried`;
      throw new HttpFailure(error.kind, text, { server, code: error.code, data: error.data, status: 404, sessionExpired: true });
    });
  }

  /**
   * A legacy session's GET: the one that resumes a request's event stream (2025-11-25: "Resumption is always
   * via HTTP GET with Last-Event-ID", added by its caller) and the one that listens. The session and version
   * in use, the login's current token, and a proof of this GET.
   */
  async function getHeaders(): Promise<Record<string, string>> {
    const authorization = await options.auth?.authorization();
    const protocolVersion = headerTable.version();
    const dpop = authorization === undefined ? undefined : await options.auth?.proof?.("GET", options.url);
    return {
      ...extraHeaders,
      ...(authorization === undefined ? {} : { Authorization: authorization }),
      ...(dpop === undefined ? {} : { DPoP: dpop }),
      Accept: "text/event-stream",
      ...(protocolVersion === undefined ? {} : { "MCP-Protocol-Version": protocolVersion }),
      ...(sessionId === undefined ? {} : { "Mcp-Session-Id": sessionId }),
    };
  }

  /** "The client MAY issue an HTTP GET to the MCP endpoint" to hear what the server sends outside our requests. */
  function listenOn(session: string): void {
    if (closing !== undefined || handlers === undefined || listening?.session === session) return;
    stopListening();
    const started = handlers;
    const stream = openListeningStream({ url, agent, headers: getHeaders, onMessage: (message) => started.onMessage(message), maxReplyBytes: options.maxReplyBytes ?? MAX_REPLY_BYTES });
    listening = { session, stream };
  }

  function stopListening(): void {
    listening?.stream.close();
    listening = undefined;
  }

  /**
   * 2025-11-25: "Clients that no longer need a particular session … SHOULD send an HTTP DELETE to the MCP
   * endpoint with the Mcp-Session-Id header". Best effort, bounded: a 405 (the server keeps its sessions)
   * or no answer changes nothing for us.
   */
  function endSession(id: string): Promise<void> {
    const version = headerTable.version();
    const headers: Record<string, string> = { ...extraHeaders, "Mcp-Session-Id": id, ...(version === undefined ? {} : { "MCP-Protocol-Version": version }) };
    return new Promise((resolve) => {
      const request = (url.protocol === "https:" ? https : http).request(url, { method: "DELETE", agent, headers, timeout: SESSION_DELETE_TIMEOUT_MS });
      request.on("response", (res) => {
        res.resume();
        res.on("end", () => resolve());
        res.on("error", () => resolve());
      });
      request.on("timeout", () => request.destroy());
      request.on("error", () => resolve());
      request.on("close", () => resolve());
      request.end();
    });
  }

  return {
    label: server,
    cancellation: "close-stream",
    start(startHandlers) {
      handlers = startHandlers;
      return Promise.resolve();
    },
    send,
    close() {
      if (closing !== undefined) return closing;
      const reason = new McpError("closed", "the transport was closed", { server });
      for (const exchange of [...inFlight]) exchange.abort(reason);
      stopListening();
      handlers?.onClose(reason);
      const ended = sessionId === undefined ? Promise.resolve() : endSession(sessionId);
      sessionId = undefined;
      closing = ended.then(() => {
        if (ownAgent) agent.destroy();
      });
      return closing;
    },
  };
}
