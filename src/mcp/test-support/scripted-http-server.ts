// A scripted loopback HTTP server for transport tests: it answers a list of expected exchanges in order,
// records every request it received, and reports the expected ones that never came.
import http from "node:http";
import type { AddressInfo } from "node:net";

/** The longest a test waits for a request to arrive. */
const WAIT_LIMIT_MS = 5000;

/** Text written to an event stream as it is, or a gate the server waits on before writing on. */
export type StreamPart = string | Promise<void>;

export type ScriptedReply =
  | { readonly kind: "json"; readonly status?: number; readonly body: unknown; readonly headers?: Readonly<Record<string, string>> }
  | { readonly kind: "text"; readonly status: number; readonly contentType?: string; readonly body: string }
  | {
      readonly kind: "sse";
      readonly parts: readonly StreamPart[];
      /** After the parts: end the stream properly, destroy the socket mid-stream, or keep it open. */
      readonly then: "end" | "destroy" | "hold";
      readonly status?: number;
    }
  /** Never answer: the client has to give up. */
  | { readonly kind: "hold" };

/** `method` is the JSON-RPC method of the body, or the HTTP method of a request without one (a resuming `GET`). */
export type ScriptedExchange = { readonly method: string; readonly reply: ScriptedReply };

export type ReceivedRequest = {
  readonly httpMethod: string;
  readonly method: string | undefined;
  /** Header names in lower case, as node:http reports them. */
  readonly headers: http.IncomingHttpHeaders;
  readonly body: unknown;
  /** The client's port: the same value across requests means the same TCP connection. */
  readonly remotePort: number;
  /** Resolves when the TCP connection that carried the request is closed. */
  readonly socketClosed: Promise<void>;
};

export interface ScriptedHttpServer {
  readonly url: string;
  readonly received: readonly ReceivedRequest[];
  /**
   * GETs without Last-Event-ID (a legacy client listening for the server's own messages): answered 405,
   * as by a server that offers no such stream, and kept apart from the script.
   */
  readonly listens: readonly ReceivedRequest[];
  /** Requests that came beyond the script or did not match the exchange they arrived for. */
  readonly unexpected: readonly ReceivedRequest[];
  /** The methods of scripted exchanges that never came. */
  missing(): string[];
  /** Resolves with the request number `index` (0-based) once it has arrived. */
  request(index: number): Promise<ReceivedRequest>;
  /** The same for the listening GETs (`listens`). */
  listen(index: number): Promise<ReceivedRequest>;
  /** How many TCP connections clients opened. */
  connections(): number;
  close(): Promise<void>;
}

/** An SSE event carrying one JSON value. */
export function sseEvent(message: unknown): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function methodOf(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || !("method" in body)) return undefined;
  return typeof body.method === "string" ? body.method : undefined;
}

function write(res: http.ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => res.write(text, () => resolve()));
}

async function serve(reply: ScriptedReply, res: http.ServerResponse): Promise<void> {
  switch (reply.kind) {
    case "json":
      res.writeHead(reply.status ?? 200, { "Content-Type": "application/json", ...reply.headers });
      res.end(JSON.stringify(reply.body));
      return;
    case "text":
      res.writeHead(reply.status, reply.contentType === undefined ? {} : { "Content-Type": reply.contentType });
      res.end(reply.body);
      return;
    case "sse":
      res.writeHead(reply.status ?? 200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
      res.flushHeaders();
      for (const part of reply.parts) {
        if (typeof part === "string") await write(res, part);
        else await part;
      }
      if (reply.then === "end") res.end();
      else if (reply.then === "destroy") res.socket?.destroy();
      return;
    case "hold":
      return;
    default: {
      const unknown: never = reply;
      throw new Error(`unknown reply ${JSON.stringify(unknown)}`);
    }
  }
}

export async function startScriptedHttpServer(script: readonly ScriptedExchange[]): Promise<ScriptedHttpServer> {
  const received: ReceivedRequest[] = [];
  const unexpected: ReceivedRequest[] = [];
  const listens: ReceivedRequest[] = [];
  const waiters: Array<() => void> = [];
  let connections = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = parseBody(Buffer.concat(chunks).toString("utf8"));
      const socket = req.socket;
      const socketClosed = socket.destroyed
        ? Promise.resolve()
        : new Promise<void>((resolve) => socket.once("close", () => resolve()));
      const request: ReceivedRequest = {
        httpMethod: req.method ?? "",
        method: methodOf(body),
        headers: req.headers,
        body,
        remotePort: socket.remotePort ?? 0,
        socketClosed,
      };
      if (request.httpMethod === "GET" && req.headers["last-event-id"] === undefined) {
        listens.push(request);
        for (const wake of waiters.splice(0)) wake();
        res.writeHead(405, { Allow: "POST" });
        res.end();
        return;
      }
      const expected = script[received.length];
      received.push(request);
      for (const wake of waiters.splice(0)) wake();
      res.on("error", () => {});
      if (expected === undefined || expected.method !== (request.method ?? request.httpMethod)) {
        unexpected.push(request);
        res.writeHead(500, { "Content-Type": "text/plain" });
        res.end(`unexpected request ${String(request.method)}`);
        return;
      }
      void serve(expected.reply, res);
    });
  });
  server.on("connection", () => {
    connections += 1;
  });
  /** Resolves with `list[index]` once it has arrived. */
  function arrival(list: readonly ReceivedRequest[], index: number): Promise<ReceivedRequest> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`request ${index} did not arrive`)), WAIT_LIMIT_MS);
      const check = (): void => {
        const found = list[index];
        if (found === undefined) return void waiters.push(check);
        clearTimeout(timer);
        resolve(found);
      };
      check();
    });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address: AddressInfo | string | null = server.address();
  if (address === null || typeof address === "string") throw new Error("the scripted server has no port");

  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    received,
    listens,
    unexpected,
    missing: () => script.slice(received.length).map((exchange) => exchange.method),
    request: (index) => arrival(received, index),
    listen: (index) => arrival(listens, index),
    connections: () => connections,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback URL where nothing listens: a port just released by a server of our own. */
export async function unusedLoopbackUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return `http://127.0.0.1:${address.port}/mcp`;
}
