// The GET stream of a legacy (2025-11-25) Streamable HTTP session, where the server sends what belongs to no
// request of ours (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#listening-for-messages-from-the-server):
// "The client MAY issue an HTTP GET to the MCP endpoint. This can be used to open an SSE stream, allowing the
// server to communicate to the client, without the client first sending data via HTTP POST." Servers built on
// the SDK v1 send their `elicitation/create` asked outside a request, resource updates and list changes
// there, and nowhere else. Best effort: a server that offers none (405) or refuses is left alone.
import http from "node:http";
import https from "node:https";
import { parseMessage, type JsonRpcMessage } from "../jsonrpc.js";
import { mediaTypeOf } from "./failure.js";
import { createSseReader, type SseReader } from "./sse-reader.js";
import { DEFAULT_RECONNECTION_TIME_MS, MAX_RECONNECTION_TIME_MS, MAX_RESUMPTIONS_WITHOUT_PROGRESS, SENDABLE_EVENT_ID } from "./stream-resumption.js";

/**
 * "The server MAY close the SSE stream at any time", and should then send `retry` and let the client
 * reconnect. A stream the server keeps closing is reopened no more than once a second, whatever its `retry`.
 */
const MIN_LISTEN_RECONNECT_MS = 1000;

export type ListeningStreamInput = {
  readonly url: URL;
  readonly agent: http.Agent;
  /** The GET's headers, read afresh for each connection (the token may have been renewed). */
  readonly headers: () => Promise<Record<string, string>>;
  /** The server's requests and notifications; a response here answers nothing of ours and is dropped. */
  readonly onMessage: (message: JsonRpcMessage) => void;
  readonly maxReplyBytes: number;
};

export interface ListeningStream {
  close(): void;
}

export function openListeningStream(input: ListeningStreamInput): ListeningStream {
  let closed = false;
  let request: http.ClientRequest | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** The cursor of this stream across its reconnections: "Resumption is always via HTTP GET with Last-Event-ID." */
  let lastEventId = "";
  let reconnectionTimeMs: number | undefined;
  let withoutProgress = 0;

  function stop(): void {
    closed = true;
    clearTimeout(timer);
    request?.destroy();
  }

  async function connect(): Promise<void> {
    timer = undefined;
    const headers = await input.headers().catch(() => undefined);
    if (closed || headers === undefined) return stop();
    const resume = SENDABLE_EVENT_ID.test(lastEventId) ? { "Last-Event-ID": lastEventId } : {};
    const options = { method: "GET", agent: input.agent, headers: { ...headers, ...resume } };
    const req = input.url.protocol === "https:" ? https.request(input.url, options) : http.request(input.url, options);
    request = req;
    let reader: SseReader | undefined;
    let progressed = false;
    let ended = false;
    /** Heard once, from the response's close or the request's, whichever comes first. */
    function end(): void {
      if (ended || closed || request !== req) return;
      ended = true;
      // Never opened (unreachable, refused): nothing to listen to. Opened and closed: reconnect, bounded.
      if (reader === undefined) return stop();
      reader.end();
      const id = reader.lastEventId();
      if (id !== "" && id !== lastEventId) {
        lastEventId = id;
        progressed = true;
      }
      reconnectionTimeMs = reader.reconnectionTimeMs() ?? reconnectionTimeMs;
      withoutProgress = progressed ? 0 : withoutProgress + 1;
      const delayMs = Math.max(reconnectionTimeMs ?? DEFAULT_RECONNECTION_TIME_MS, MIN_LISTEN_RECONNECT_MS);
      if (withoutProgress > MAX_RESUMPTIONS_WITHOUT_PROGRESS || delayMs > MAX_RECONNECTION_TIME_MS) return stop();
      timer = setTimeout(() => void connect(), delayMs);
    }
    req.on("response", (res) => {
      res.on("error", () => {});
      const status = res.statusCode ?? 0;
      if (status < 200 || status >= 300 || mediaTypeOf(res.headers["content-type"]) !== "text/event-stream") {
        // 405: "the server does not offer an SSE stream at this endpoint"; anything else is no better.
        res.resume();
        return stop();
      }
      const opened = createSseReader((data) => {
        if (closed || data === "") return;
        const message = parseMessage(data);
        if (message instanceof Error || !("method" in message)) return;
        progressed = true;
        input.onMessage(message);
      }, input.maxReplyBytes);
      reader = opened;
      res.on("data", (chunk: Buffer) => {
        if (!closed && opened.push(chunk) !== undefined) stop();
      });
      res.on("close", end);
    });
    req.on("error", () => {});
    req.on("close", end);
    req.end();
  }

  void connect();
  return { close: stop };
}
