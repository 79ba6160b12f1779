import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { McpError } from "../jsonrpc.js";
import { rejection } from "../test-support/mcp-rejection.js";
import { HttpFailure } from "./failure.js";
import { describeNetworkError, judgeReplyBody, MAX_REPLY_BYTES, startExchange, type ExchangeInput, type ReplyBody } from "./exchange.js";

const URL_SHOWN = "http://127.0.0.1:3115/mcp";

function reply(overrides: Partial<ReplyBody>): ReplyBody {
  return {
    status: 200,
    statusMessage: "OK",
    mediaType: "application/json",
    text: "",
    requestId: 7,
    subject: "request 7",
    shownUrl: URL_SHOWN,
    ...overrides,
  };
}

describe("judgeReplyBody", () => {
  it("accepts the response whose id is the request's", () => {
    const text = '{"jsonrpc":"2.0","id":7,"result":{}}';
    expect(judgeReplyBody(reply({ text }))).toEqual({
      outcome: "accepted",
      handUp: { jsonrpc: "2.0", id: 7, result: {} },
    });
  });

  it("accepts an empty 202 for a notification, and refuses an empty body for a request", () => {
    expect(judgeReplyBody(reply({ status: 202, statusMessage: "Accepted", mediaType: "", requestId: undefined }))).toEqual({
      outcome: "accepted",
      handUp: undefined,
    });
    expect(judgeReplyBody(reply({}))).toEqual({
      outcome: "failed",
      handUp: undefined,
      failure: { kind: "protocol", text: `${URL_SHOWN} answered HTTP 200 OK with an empty body to request 7` },
    });
  });

  it("accepts any 2xx to a notification whatever its body, and keeps refusing a failure status", () => {
    const notification = { requestId: undefined, subject: "notification notifications/initialized" };
    expect(judgeReplyBody(reply({ ...notification, status: 202, statusMessage: "Accepted", text: "null" }))).toEqual({
      outcome: "accepted",
      handUp: undefined,
    });
    expect(judgeReplyBody(reply({ ...notification, status: 200, mediaType: "text/html", text: "<p>ok</p>" }))).toEqual({
      outcome: "accepted",
      handUp: undefined,
    });
    expect(judgeReplyBody(reply({ ...notification, status: 400, statusMessage: "Bad Request", mediaType: "text/plain", text: "no" }))).toEqual({
      outcome: "failed",
      handUp: undefined,
      failure: { kind: "protocol", text: `${URL_SHOWN} answered HTTP 400 Bad Request without a JSON-RPC body to notification notifications/initialized: "no"` },
    });
  });

  it("never hands up a response to another request, and fails the exchange", () => {
    const text = '{"jsonrpc":"2.0","id":8,"result":{}}';
    expect(judgeReplyBody(reply({ text }))).toEqual({
      outcome: "failed",
      handUp: undefined,
      failure: { kind: "protocol", text: `${URL_SHOWN} answered HTTP 200 OK to request 7 with a message that is not its response` },
    });
  });

  it("names a JSON body that is not JSON-RPC, with the start of the body", () => {
    expect(judgeReplyBody(reply({ status: 500, statusMessage: "Internal Server Error", text: '{"error":"boom"}' }))).toEqual({
      outcome: "failed",
      handUp: undefined,
      failure: {
        kind: "protocol",
        text:
          `${URL_SHOWN} answered HTTP 500 Internal Server Error with a body that is not JSON-RPC ` +
          '(not a JSON-RPC message: `jsonrpc` is not "2.0") to request 7: "{\\"error\\":\\"boom\\"}"',
      },
    });
  });

  it("accepts a JSON media type with a +json suffix", () => {
    const text = '{"jsonrpc":"2.0","id":7,"result":{}}';
    expect(judgeReplyBody(reply({ mediaType: "application/vnd.api+json", text })).outcome).toBe("accepted");
  });
});

const DNS_URL_SHOWN = "http://tickets.example:3115/mcp";

function codeError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

function describeForRequest7(error: Error, responded = false) {
  return describeNetworkError(error, { shownUrl: DNS_URL_SHOWN, subject: "request 7", responded });
}

describe("describeNetworkError", () => {
  it("names a refused connection and a failed DNS lookup as unreachable", () => {
    expect(describeForRequest7(codeError("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:3115"))).toEqual({
      kind: "unreachable",
      text: `cannot reach ${DNS_URL_SHOWN}: connection refused`,
    });
    expect(describeForRequest7(codeError("ENOTFOUND", "getaddrinfo ENOTFOUND tickets.example"))).toEqual({
      kind: "unreachable",
      text: `cannot reach ${DNS_URL_SHOWN}: host not found`,
    });
  });

  it("names a reset connection as broken, for the message it was carrying", () => {
    expect(describeForRequest7(codeError("ECONNRESET", "socket hang up"))).toEqual({
      kind: "broken",
      text: `the connection to ${DNS_URL_SHOWN} was reset before the response to request 7`,
    });
  });

  it("names any failure after the server began to answer as broken", () => {
    expect(describeForRequest7(new Error("aborted"), true)).toEqual({
      kind: "broken",
      text: `the connection to ${DNS_URL_SHOWN} failed (aborted) before the response to request 7`,
    });
  });

  it("keeps the code of an unknown connection failure", () => {
    expect(describeForRequest7(codeError("DEPTH_ZERO_SELF_SIGNED_CERT", "self-signed certificate"))).toEqual({
      kind: "unreachable",
      text: `cannot reach ${DNS_URL_SHOWN}: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)`,
    });
  });
});

// ---------------------------------------------------------------------------------------------------
// A reply that never ends, from a real loopback server that writes until its socket is closed.

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
