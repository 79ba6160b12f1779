// A scripted server of the old HTTP+SSE transport on loopback, for the transport's hostile cases: GET /sse
// opens the stream and writes what the script says first (an endpoint event, or not); each message POSTed
// to /message is recorded, answered 202, and the script's answer to it is written on the stream (or the
// stream is broken). Anything else is a 404, as an Express server answers.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseMessage, type JsonRpcMessage } from "../jsonrpc.js";

/** An event as the old transport writes it. */
export function legacyEvent(event: "endpoint" | "message", data: string): string {
  return `event: ${event}\ndata: ${data}\n\n`;
}

/** What the stream writes for a message POSTed: events, nothing, or "break" (the socket destroyed). */
export type LegacyAnswer = readonly string[] | "break";

export type LegacySseScript = {
  /** Written on the stream as soon as it opens; `{origin}` is replaced by the server's own origin. */
  readonly opening: readonly string[];
  /** The stream's answer to each message POSTed; nothing by default. */
  readonly answer?: (message: JsonRpcMessage) => LegacyAnswer;
  /** A status other than 200 for the GET, with a plain-text body. */
  readonly getStatus?: number;
  /** A status other than 202 for every POST, with a plain-text body. */
  readonly postStatus?: number;
  /** When set, a GET or POST whose `Authorization` is not `Bearer <token>` is answered 401 with CHALLENGE. */
  readonly token?: string;
};

/** The `WWW-Authenticate` of the 401 a request without the script's token gets. */
export const CHALLENGE = 'Bearer resource_metadata="http://127.0.0.1:1/prm"';

export type ReceivedPost = { readonly path: string; readonly headers: http.IncomingHttpHeaders; readonly message: JsonRpcMessage | string };

export interface LegacySseServer {
  /** The URL of the event stream: `http://127.0.0.1:<port>/sse`. */
  readonly url: string;
  readonly origin: string;
  readonly posts: readonly ReceivedPost[];
  readonly getHeaders: readonly http.IncomingHttpHeaders[];
  /** Resolves once a GET stream the server opened was closed by the client. */
  streamClosed(): Promise<void>;
  close(): Promise<void>;
}

export async function startLegacySseServer(script: LegacySseScript): Promise<LegacySseServer> {
  const posts: ReceivedPost[] = [];
  const getHeaders: http.IncomingHttpHeaders[] = [];
  const streams = new Set<http.ServerResponse>();
  let origin = "";
  let closedStream = (): void => {};
  const streamClosed = new Promise<void>((resolve) => {
    closedStream = resolve;
  });

  function onGet(req: http.IncomingMessage, res: http.ServerResponse): void {
    getHeaders.push(req.headers);
    if (script.getStatus !== undefined) {
      res.writeHead(script.getStatus, { "Content-Type": "text/plain" });
      return void res.end("no stream here");
    }
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
    streams.add(res);
    res.on("close", () => {
      streams.delete(res);
      closedStream();
    });
    for (const part of script.opening) res.write(part.replaceAll("{origin}", origin));
  }

  function onPost(req: http.IncomingMessage, res: http.ServerResponse, path: string): void {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const parsed = parseMessage(text);
      const message = parsed instanceof Error ? text : parsed;
      posts.push({ path, headers: req.headers, message });
      res.writeHead(script.postStatus ?? 202, { "Content-Type": "text/plain" });
      res.end(script.postStatus === undefined ? "Accepted" : "Could not parse message");
      if (typeof message === "string" || script.answer === undefined) return;
      const answer = script.answer(message);
      for (const stream of streams) {
        if (answer === "break") stream.socket?.destroy();
        else for (const event of answer) stream.write(event);
      }
    });
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", origin);
    if (script.token !== undefined && req.headers.authorization !== `Bearer ${script.token}`) {
      if (req.method === "GET") getHeaders.push(req.headers);
      req.resume();
      res.writeHead(401, { "Content-Type": "application/json", "WWW-Authenticate": CHALLENGE });
      return void res.end('{"error":"invalid_token"}');
    }
    if (req.method === "GET" && url.pathname === "/sse") return onGet(req, res);
    if (req.method === "POST" && url.pathname === "/message") return onPost(req, res, `${url.pathname}${url.search}`);
    req.resume();
    res.writeHead(404, { "Content-Type": "text/html" });
    res.end(`Cannot ${req.method ?? "GET"} ${url.pathname}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address: AddressInfo | string | null = server.address();
  if (address === null || typeof address === "string") throw new Error("the legacy SSE server has no port");
  origin = `http://127.0.0.1:${address.port}`;
  return {
    url: `${origin}/sse`,
    origin,
    posts,
    getHeaders,
    streamClosed: () => streamClosed,
    close: async () => {
      for (const stream of streams) stream.socket?.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
