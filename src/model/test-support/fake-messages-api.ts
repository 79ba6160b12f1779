// A fake Anthropic Messages API on 127.0.0.1 (port 0) for tests: it answers POST /v1/messages (and
// /v1/messages/count_tokens) from a script of replies — real SSE event streams, JSON bodies or HTTP errors — and records every request it receives,
// so a test can check what was sent and that no scripted reply was left unused.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface SseEvent {
  readonly event: string;
  readonly data: unknown;
}

export type FakeReply =
  /** Streams the events, then ends the response; `cut` drops the connection instead, `hang` keeps
   * the response open until the client goes away. `paceMs`: a wait before each event (one for all, or one
   * per event in order), as a model writing its answer. */
  | { readonly kind: "stream"; readonly events: readonly SseEvent[]; readonly then?: "end" | "hang" | "cut"; readonly paceMs?: number | readonly number[] }
  | { readonly kind: "error"; readonly status: number; readonly body: unknown; readonly headers?: Readonly<Record<string, string>> }
  /** A JSON body with status 200: the answer to POST /v1/messages/count_tokens, `{ "input_tokens": n }`. */
  | { readonly kind: "json"; readonly body: unknown };

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

export interface FakeMessagesApi {
  readonly baseURL: string;
  readonly requests: readonly ReceivedRequest[];
  /** Scripted replies no request has consumed yet. */
  unusedReplies(): number;
  /** Resolves when the client has closed a hanging response; rejects after `limitMs`. */
  clientClosed(limitMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeMessagesApi(replies: readonly FakeReply[]): Promise<FakeMessagesApi> {
  const queue = [...replies];
  const requests: ReceivedRequest[] = [];
  let onClientClosed: () => void = () => {};
  const closedByClient = new Promise<void>((resolve) => {
    onClientClosed = resolve;
  });

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: parseJson(text) });
      const reply = queue.shift();
      if (reply === undefined) {
        sendJson(res, 400, { type: "error", error: { type: "invalid_request_error", message: "fake: unexpected request" } });
        return;
      }
      if (reply.kind === "error" || reply.kind === "json") {
        sendJson(res, reply.kind === "json" ? 200 : reply.status, reply.body, reply.kind === "error" ? reply.headers : {});
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const frame = (event: SseEvent): string => `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
      if (reply.paceMs !== undefined) {
        void streamPaced(res, reply.events.map(frame), reply.paceMs);
        return;
      }
      const sse = reply.events.map(frame).join("");
      const then = reply.then ?? "end";
      if (then === "end") res.end(sse);
      // Cut the connection only once the events are on the wire, so the client sees them first.
      else if (then === "cut") res.write(sse, () => res.socket?.destroy());
      else {
        res.on("close", () => onClientClosed());
        res.write(sse);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = addressOf(server.address());

  return {
    baseURL: `http://127.0.0.1:${port}`,
    requests,
    unusedReplies: () => queue.length,
    clientClosed(limitMs) {
      return Promise.race([
        closedByClient,
        new Promise<void>((_, reject) => {
          setTimeout(() => reject(new Error(`the client did not close the stream within ${limitMs} ms`)), limitMs).unref();
        }),
      ]);
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Each frame after its wait; the response ends after the last (or when the client has gone). */
async function streamPaced(res: ServerResponse, frames: readonly string[], paceMs: number | readonly number[]): Promise<void> {
  for (const [index, frame] of frames.entries()) {
    const waitMs = typeof paceMs === "number" ? paceMs : (paceMs[index] ?? 0);
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
    if (res.destroyed) return;
    res.write(frame);
  }
  res.end();
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function addressOf(address: string | AddressInfo | null): AddressInfo {
  if (address === null || typeof address === "string") throw new Error("fake Messages API: no TCP address");
  return address;
}
