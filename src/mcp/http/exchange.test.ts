import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { McpError } from "../jsonrpc.js";
import { rejection } from "../test-support/mcp-rejection.js";
import { HttpFailure } from "./failure.js";
import { MAX_REPLY_BYTES, startExchange, type ExchangeInput } from "./exchange.js";

type EndlessReply = { readonly status: number; readonly contentType: string; readonly prefix: string; readonly filler: string; readonly trickle?: boolean };

interface EndlessServer {
  readonly url: URL;
  /** Resolves with the bytes written once the client closed the connection. */
  readonly written: Promise<number>;
}

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function startEndlessServer(reply: EndlessReply): Promise<EndlessServer> {
  let reportWritten: (bytes: number) => void = () => {};
  const written = new Promise<number>((resolve) => {
    reportWritten = resolve;
  });
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(reply.status, { "Content-Type": reply.contentType });
    let bytes = 0;
    let open = true;
    res.on("close", () => {
      open = false;
      reportWritten(bytes);
    });
    const chunk = reply.filler.repeat(65_536 / reply.filler.length);
    const write = async (): Promise<void> => {
      res.write(reply.prefix);
      bytes += reply.prefix.length;
      // Trickling: one chunk, then nothing more, the response left open.
      if (reply.trickle === true) return void res.write(chunk);
      while (open) {
        bytes += chunk.length;
        if (!res.write(chunk)) await new Promise((resolve) => res.once("drain", resolve).once("close", resolve));
      }
    };
    void write();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address: AddressInfo | string | null = server.address();
  if (address === null || typeof address === "string") throw new Error("the endless server has no port");
  return { url: new URL(`http://127.0.0.1:${address.port}/mcp`), written };
}

/** The exchange's `done`, and the failure of its request after the server took it (`onFailed`). */
function exchangeWith(server: EndlessServer, overrides: Partial<ExchangeInput> = {}): { done: Promise<void>; failedAfter: Promise<McpError>; handedUp: unknown[] } {
  const handedUp: unknown[] = [];
  let failed: (error: McpError) => void = () => {};
  const failedAfter = new Promise<McpError>((resolve) => {
    failed = resolve;
  });
  const agent = new http.Agent();
  const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "dump" } }));
  const exchange = startExchange({
    server: "big",
    url: server.url,
    shownUrl: server.url.href,
    agent,
    headers: { "Content-Type": "application/json", "Content-Length": String(body.length) },
    body,
    requestId: 1,
    subject: "request 1",
    onMessage: (message) => handedUp.push(message),
    serverRequestsAllowed: false,
    onSessionId: () => undefined,
    onFinished: () => agent.destroy(),
    onFailed: (error) => failed(error),
    maxReplyBytes: MAX_REPLY_BYTES,
    redact: (text) => text,
    ...overrides,
  });
  return { done: exchange.done, failedAfter, handedUp };
}

const RESULT_PREFIX = '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"';

describe("startExchange: replies too large to read", () => {
  it("stops reading a JSON reply past 16 MiB and fails the request saying so, so that the server stops writing", async () => {
    const server = await startEndlessServer({ status: 200, contentType: "application/json", prefix: RESULT_PREFIX, filler: "x" });
    const { done, failedAfter, handedUp } = exchangeWith(server);
    // A success status: the server took the request; the failure is the request's, not the send's.
    await done;
    const error = await failedAfter;
    expect({ kind: error.kind, message: error.message, handedUp }).toEqual({
      kind: "protocol",
      message: `${server.url.href} sent a message larger than 16 MiB in answer to request 1; it was not read to the end (the cap on one message)`,
      handedUp: [],
    });
    // What the server got out before the connection closed: the cap, plus what the sockets buffer.
    expect(await server.written).toBeLessThan(3 * MAX_REPLY_BYTES);
  });

  it("stops reading an event past 16 MiB the same way", async () => {
    const server = await startEndlessServer({ status: 200, contentType: "text/event-stream", prefix: `data: ${RESULT_PREFIX}`, filler: "x" });
    const { done, failedAfter } = exchangeWith(server);
    await done;
    const error = await failedAfter;
    expect(error.message).toBe(
      `${server.url.href} sent a message larger than 16 MiB in answer to request 1; it was not read to the end (the cap on one message)`,
    );
    expect(await server.written).toBeLessThan(3 * MAX_REPLY_BYTES);
  });

  it("reads a failure status's body to 1 MiB, and fails with the status and the start of the body", async () => {
    const server = await startEndlessServer({ status: 500, contentType: "text/plain", prefix: "Internal error: ", filler: "e" });
    const error = await rejection(exchangeWith(server).done);
    expect({ kind: error.kind, status: error instanceof HttpFailure && error.status, message: error.message }).toEqual({
      kind: "protocol",
      status: 500,
      message: `${server.url.href} answered HTTP 500 Internal Server Error to request 1, with a body not read to its end (larger than 1 MiB): "Internal error: ${"e".repeat(184)}…"`,
    });
    expect(await server.written).toBeLessThan(MAX_REPLY_BYTES);
  });

  it("gives a failure status's body a limited time, then fails with what came", async () => {
    const server = await startEndlessServer({ status: 502, contentType: "text/plain", prefix: "upstream down", filler: ".", trickle: true });
    const error = await rejection(exchangeWith(server, { errorBodyTimeoutMs: 200 }).done);
    expect({ status: error instanceof HttpFailure && error.status, message: error.message }).toEqual({
      status: 502,
      message: `${server.url.href} answered HTTP 502 Bad Gateway to request 1, with a body not read to its end (not finished within 200 ms): "upstream down${".".repeat(187)}…"`,
    });
  });
});
