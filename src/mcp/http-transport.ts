// The Streamable HTTP transport (spec §5): one POST per message over a keep-alive agent, built on
// node:http rather than fetch, which costs far more client CPU per call on Node 20.
import http from "node:http";
import https from "node:https";
import { McpError } from "./errors.js";
import { type Exchange, MAX_REPLY_BYTES, startExchange } from "./http-exchange.js";
import { buildRequestHeaders, messageProtocolVersion, userHeaders } from "./http-request-headers.js";
import type { JsonRpcId, JsonRpcMessage } from "./jsonrpc.js";
import { isLegacyVersion } from "./legacy-version.js";
import type { SendOptions, Transport, TransportHandlers } from "./transport.js";

export type HttpTransportOptions = {
  /** The alias from the config; every message names the server by it. */
  readonly label: string;
  readonly url: string;
  /** Sent on every request (e.g. Authorization); their values never appear in any error text. */
  readonly headers?: Readonly<Record<string, string>>;
  /** A caller's agent stays the caller's: close() leaves it open. By default the transport owns one. */
  readonly agent?: http.Agent;
  /** The cap on one reply; MAX_REPLY_BYTES (256 MiB) by default. */
  readonly maxReplyBytes?: number;
};

/**
 * Idle keep-alive sockets are dropped after this, under the 5 s idle limit common in servers, so that a
 * request is not written to a socket the server is closing (a server's `Keep-Alive: timeout` hint also counts).
 * Only idle sockets: an open request or event stream is never timed out by the agent.
 */
const IDLE_SOCKET_TIMEOUT_MS = 4000;
/** Shorter values are not searched for in error text: redacting "1" would garble every message. */
const MIN_REDACTED_VALUE_CHARS = 4;
/** A word of a value ("Bearer <token>") is redacted on its own when it is at least this long. */
const MIN_REDACTED_WORD_CHARS = 8;

function describeMessage(message: JsonRpcMessage): string {
  if (!("method" in message)) return `response ${JSON.stringify(message.id)}`;
  if ("id" in message) return `request ${JSON.stringify(message.id)}`;
  return `notification ${message.method}`;
}

function redactor(headers: Readonly<Record<string, string>>): (text: string) => string {
  const secrets = new Set<string>();
  for (const value of Object.values(headers)) {
    if (value.length >= MIN_REDACTED_VALUE_CHARS) secrets.add(value);
    for (const word of value.split(/\s+/)) {
      if (word.length >= MIN_REDACTED_WORD_CHARS) secrets.add(word);
    }
  }
  const longestFirst = [...secrets].sort((a, b) => b.length - a.length);
  return (text) => longestFirst.reduce((out, secret) => out.split(secret).join("[redacted]"), text);
}

export function createHttpTransport(options: HttpTransportOptions): Transport {
  const { label } = options;
  const url = new URL(options.url);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`${label}: ${url.protocol} is not an HTTP URL`);
  }
  const shownUrl = `${url.origin}${url.pathname}`;
  const ownAgent = options.agent === undefined;
  const agentOptions = { keepAlive: true, timeout: IDLE_SOCKET_TIMEOUT_MS };
  const agent = options.agent ?? (url.protocol === "https:" ? new https.Agent(agentOptions) : new http.Agent(agentOptions));
  const extraHeaders = userHeaders(options.headers ?? {});
  const redact = redactor(extraHeaders);
  const inFlight = new Set<Exchange>();
  const byRequestId = new Map<JsonRpcId, Exchange>();
  let handlers: TransportHandlers | undefined;
  let lastProtocolVersion: string | undefined;
  let sessionId: string | undefined;
  let closing: Promise<void> | undefined;

  function send(message: JsonRpcMessage, sendOptions?: SendOptions): Promise<void> {
    const subject = describeMessage(message);
    if (closing !== undefined) return Promise.reject(new McpError("closed", `${label}: cannot send ${subject}: the transport is closed`));
    if (handlers === undefined) return Promise.reject(new McpError("closed", `${label}: cannot send ${subject}: the transport was not started`));
    const { onMessage } = handlers;
    const protocolVersion = messageProtocolVersion(message) ?? lastProtocolVersion;
    lastProtocolVersion = protocolVersion;
    const body = Buffer.from(JSON.stringify(message), "utf8");
    const headers = buildRequestHeaders({
      message,
      protocolVersion,
      paramHeaders: sendOptions?.paramHeaders ?? [],
      sessionId,
      userHeaders: extraHeaders,
      contentLength: body.length,
    });
    const requestId = "method" in message && "id" in message ? message.id : undefined;
    const exchange = startExchange({
      label,
      url,
      shownUrl,
      agent,
      headers,
      body,
      requestId,
      subject,
      onMessage,
      maxReplyBytes: options.maxReplyBytes ?? MAX_REPLY_BYTES,
      serverRequestsAllowed: protocolVersion !== undefined && isLegacyVersion(protocolVersion),
      // Only a legacy server's `initialize` opens a session; 2026-07-28 sends no `Mcp-Session-Id` at all, so
      // one a modern exchange happens to carry (a proxy's, say) is never echoed.
      onSessionId: (id) => {
        if ("method" in message && message.method === "initialize") sessionId = id;
      },
      onFinished: () => {
        inFlight.delete(exchange);
        if (requestId !== undefined && byRequestId.get(requestId) === exchange) byRequestId.delete(requestId);
      },
      redact,
    });
    inFlight.add(exchange);
    if (requestId !== undefined) byRequestId.set(requestId, exchange);
    return exchange.done;
  }

  return {
    kind: "http",
    label,
    start(startHandlers) {
      handlers = startHandlers;
      return Promise.resolve();
    },
    send,
    cancel(id, reason) {
      // "notifications/cancelled over HTTP → close the response stream" (spec §5.8).
      byRequestId.get(id)?.abort(new McpError("aborted", redact(`${label}: request ${JSON.stringify(id)} cancelled: ${reason}`)));
    },
    close() {
      if (closing !== undefined) return closing;
      const reason = new McpError("closed", `${label}: the transport was closed`);
      for (const exchange of [...inFlight]) exchange.abort(reason);
      if (ownAgent) agent.destroy();
      handlers?.onClose(reason);
      closing = Promise.resolve();
      return closing;
    },
  };
}
