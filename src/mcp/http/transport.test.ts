import { afterEach, describe, expect, it } from "vitest";
import { buildRequestMeta } from "../wire.js";
import { McpError, type JsonObject, type JsonRpcMessage, type JsonRpcRequest } from "../jsonrpc.js";
import { createMessageInbox, type MessageInbox } from "../test-support/http-message-inbox.js";
import { rejection as failure, summary } from "../test-support/mcp-rejection.js";
import { type ScriptedExchange, sseEvent, startScriptedHttpServer, unusedLoopbackUrl } from "../test-support/scripted-http-server.js";
import { HttpFailure } from "./failure.js";
import { createHeaderTable, type HeaderTable } from "./headers.js";
import { createHttpTransport, type HttpTransportOptions } from "./transport.js";

const VERSION = "2026-07-28";
const META = buildRequestMeta({ protocolVersion: VERSION, clientCapabilities: {}, clientVersion: "0.15.0" });

function request(id: number, method: string, params: JsonObject = {}): JsonRpcRequest {
  return { jsonrpc: "2.0", id, method, params: { ...params, _meta: META } };
}
function result(id: number, value: JsonObject = {}): JsonRpcMessage {
  return { jsonrpc: "2.0", id, result: { resultType: "complete", ...value } };
}
function progress(progressValue: number): JsonRpcMessage {
  return { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: progressValue } };
}

function gate(): { readonly promise: Promise<void>; open(): void } {
  let open = (): void => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(script: readonly ScriptedExchange[], options: Partial<HttpTransportOptions> = {}) {
  const server = await startScriptedHttpServer(script);
  cleanups.push(() => server.close());
  const inbox = createMessageInbox();
  const transport = createHttpTransport({ label: "tickets", url: server.url, ...options });
  cleanups.push(() => transport.close());
  await transport.start(inbox.handlers);
  return { server, inbox, transport };
}

/** A request the server took (its send resolves), and the failure its exchange then reported through onFailure. */
async function failureAfterTaken(sent: Promise<void>, inbox: MessageInbox, requestId: number): Promise<McpError> {
  await sent;
  const error = await inbox.failureOf(requestId);
  if (!(error instanceof McpError)) throw new Error(`expected an McpError, got ${String(error)}`);
  return error;
}

/** How long a test waits for the transport to close a stream: well past its grace for trailing events (1 s). */
const STREAM_CLOSE_LIMIT_MS = 5000;

/** Whether `promise` settles within `limitMs`: a wait on the condition that cannot hang the test. */
async function settlesWithin(promise: Promise<unknown>, limitMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), limitMs);
  });
  try {
    return await Promise.race([promise.then(() => true), limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** A started transport to a URL of the test's own making (another path, another scheme). */
async function startedTransport(url: string) {
  const transport = createHttpTransport({ label: "tickets", url });
  cleanups.push(() => transport.close());
  await transport.start(createMessageInbox().handlers);
  return transport;
}

describe("createHttpTransport: request headers", () => {
  it("sends every standard header, exact, with Mcp-Name and the client's Mcp-Param-* values encoded", async () => {
    const asked: JsonRpcMessage[] = [];
    const table = createHeaderTable();
    const headerTable: HeaderTable = {
      ...table,
      forMessage: (message) => {
        asked.push(message);
        const paramHeaders = [
          { name: "Region", value: "Hello, 世界" },
          { name: "Priority", value: "42" },
          { name: "Verbose", value: "false" },
        ];
        return { ...table.forMessage(message), paramHeaders };
      },
    };
    const { server, transport } = await setup([{ method: "tools/call", reply: { kind: "json", body: result(2) } }], { headerTable });
    const message = request(2, "tools/call", { name: "café", arguments: { region: "Hello, 世界", priority: 42, verbose: false, debug: null } });
    await transport.send(message);

    expect(asked).toEqual([message]);
    expect(server.received[0]?.headers).toEqual({
      host: new URL(server.url).host,
      connection: "keep-alive",
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(JSON.stringify(message))),
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": VERSION,
      "mcp-method": "tools/call",
      "mcp-name": "=?base64?Y2Fmw6k=?=",
      "mcp-param-region": "=?base64?SGVsbG8sIOS4lueVjA==?=",
      "mcp-param-priority": "42",
      "mcp-param-verbose": "false",
    });
    expect(server.received[0]?.body).toEqual(message);
  });

  it("hands a tools/list reply up as it came, tools with invalid header declarations included: judging them is the client's", async () => {
    const invalid = { type: "object", properties: { where: { type: "string", "x-mcp-header": "Bad Name" } } };
    const listed = result(1, { tools: [{ name: "broken", inputSchema: invalid }] });
    const { inbox, transport } = await setup([{ method: "tools/list", reply: { kind: "json", body: listed } }]);
    await transport.send(request(1, "tools/list"));
    expect({ message: await inbox.next(), warnings: inbox.warnings }).toEqual({ message: listed, warnings: [] });
  });

  it("sends Mcp-Name only for tools/call, prompts/get and resources/read", async () => {
    const methods = ["tools/list", "resources/read", "prompts/get", "server/discover"];
    const { server, transport } = await setup(
      methods.map((method, index) => ({ method, reply: { kind: "json", body: result(index) } })),
    );
    await transport.send(request(0, "tools/list", { name: "not-a-target" }));
    await transport.send(request(1, "resources/read", { uri: "file:///path/to/file%20name.txt" }));
    await transport.send(request(2, "prompts/get", { name: "test_prompt" }));
    await transport.send(request(3, "server/discover"));

    expect(server.received.map((r) => [r.headers["mcp-method"], r.headers["mcp-name"]])).toEqual([
      ["tools/list", undefined],
      ["resources/read", "file:///path/to/file%20name.txt"],
      ["prompts/get", "test_prompt"],
      ["server/discover", undefined],
    ]);
  });

  it("sends the connection's version for a message without one, and the requested one for a legacy initialize", async () => {
    const accepted = { kind: "text", status: 202, body: "" } as const;
    const headerTable = createHeaderTable();
    headerTable.speak(VERSION);
    const { server, transport } = await setup(
      [
        { method: "server/discover", reply: { kind: "json", body: result(0) } },
        { method: "notifications/initialized", reply: accepted },
        { method: "initialize", reply: { kind: "json", body: result(1) } },
        { method: "notifications/initialized", reply: accepted },
      ],
      { headerTable },
    );
    await transport.send(request(0, "server/discover"));
    await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await transport.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25" } });
    headerTable.speak("2025-06-18");
    await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });

    expect(server.received.map((r) => r.headers["mcp-protocol-version"])).toEqual([VERSION, VERSION, "2025-11-25", "2025-06-18"]);
    expect(server.missing()).toEqual([]);
  });

  it("echoes an Mcp-Session-Id a legacy server issued on later requests", async () => {
    const { server, transport } = await setup([
      { method: "initialize", reply: { kind: "json", body: result(1), headers: { "Mcp-Session-Id": "legacy-42" } } },
      { method: "tools/list", reply: { kind: "json", body: result(2) } },
    ]);
    await transport.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25" } });
    await transport.send(request(2, "tools/list"));

    expect(server.received.map((r) => r.headers["mcp-session-id"])).toEqual([undefined, "legacy-42"]);
  });

  it("never echoes an Mcp-Session-Id that a modern exchange carries", async () => {
    const { server, transport } = await setup([
      { method: "tools/list", reply: { kind: "json", body: result(1), headers: { "Mcp-Session-Id": "proxy-abc" } } },
      { method: "tools/list", reply: { kind: "json", body: result(2) } },
    ]);
    await transport.send(request(1, "tools/list"));
    await transport.send(request(2, "tools/list"));

    expect(server.received.map((r) => r.headers["mcp-session-id"])).toEqual([undefined, undefined]);
  });

  it("sends the configured headers on every request and never shows their values in an error", async () => {
    const secret = "Bearer s3cret-token-123456";
    const { server, transport } = await setup(
      [
        { method: "tools/list", reply: { kind: "json", body: result(1) } },
        { method: "tools/list", reply: { kind: "text", status: 401, contentType: "text/plain", body: `bad ${secret}` } },
      ],
      { headers: { Authorization: secret } },
    );
    await transport.send(request(1, "tools/list"));
    const error = await failure(transport.send(request(2, "tools/list")));

    expect(server.received.map((r) => r.headers.authorization)).toEqual([secret, secret]);
    expect(summary(error)).toEqual({
      kind: "protocol",
      server: "tickets",
      message: `${server.url} answered HTTP 401 Unauthorized without a JSON-RPC body to request 2: "bad [redacted]"`,
    });
    const refused = createHttpTransport({ label: "tickets", url: await unusedLoopbackUrl(), headers: { Authorization: secret } });
    cleanups.push(() => refused.close());
    await refused.start(createMessageInbox().handlers);
    const unreachable = await failure(refused.send(request(3, "tools/list")));
    for (const text of [error.message, String(error.stack), unreachable.message, String(unreachable.stack)]) {
      expect(text).not.toContain("s3cret");
    }
  });

  it("redacts a header value echoed in any case, before the body is cut to a snippet", async () => {
    const token = "tok-ABCDEFGHIJKLMNOP";
    // The token straddles the snippet's cut: redacting afterwards would leave its first characters shown.
    const page = `${"x".repeat(189)} ${token.toLowerCase()} ${"y".repeat(50)}`;
    const { server, transport } = await setup([{ method: "tools/list", reply: { kind: "text", status: 502, contentType: "text/html", body: page } }], {
      headers: { Authorization: `Bearer ${token}` },
    });
    const error = await failure(transport.send(request(1, "tools/list")));

    expect(error.message).toBe(
      `${server.url} answered HTTP 502 Bad Gateway without a JSON-RPC body to request 1: "${"x".repeat(189)} [redacted]…"`,
    );
  });

  it("refuses to send a configured header value that HTTP cannot carry, without showing the value", async () => {
    const { server, transport } = await setup([], { headers: { "X-Trace": "line1\nsecret-line2" } });
    const error = await failure(transport.send(request(1, "tools/list")));
    expect(summary(error)).toEqual({
      kind: "protocol",
      server: "tickets",
      message: `cannot send request 1 to ${server.url}: Invalid character in header content ["X-Trace"]`,
    });
    expect(server.received).toEqual([]);
  });
});

describe("createHttpTransport: replies", () => {
  it("settles the send once the server took the request, and hands up its JSON reply", async () => {
    const { server, inbox, transport } = await setup([
      { method: "tools/list", reply: { kind: "json", body: result(1, { tools: [] }) } },
    ]);
    await transport.send(request(1, "tools/list"));
    expect(await inbox.next()).toEqual(result(1, { tools: [] }));
    expect(server.missing()).toEqual([]);
  });

  it("hands up notifications before and after the response of an event stream, and correlates the response by id", async () => {
    const later = gate();
    const { inbox, transport } = await setup([
      {
        method: "tools/call",
        reply: {
          kind: "sse",
          parts: [": keep-alive\n\n", sseEvent(progress(1)), sseEvent(result(7, { content: [] })), later.promise, sseEvent(progress(2))],
          then: "end",
        },
      },
    ]);
    await transport.send(request(7, "tools/call", { name: "search", arguments: {} }));
    await expect.poll(() => inbox.messages).toEqual([progress(1), result(7, { content: [] })]);

    later.open();
    expect([await inbox.next(), await inbox.next(), await inbox.next()]).toEqual([
      progress(1),
      result(7, { content: [] }),
      progress(2),
    ]);
  });

  it("settles the send once the server took the request, before its stream carries the response", async () => {
    const respond = gate();
    const { server, inbox, transport } = await setup([
      { method: "tools/call", reply: { kind: "sse", parts: [respond.promise, sseEvent(result(3))], then: "end" } },
    ]);
    await transport.send(request(3, "tools/call", { name: "search" }));
    expect(inbox.messages).toEqual([]);
    respond.open();
    expect(await inbox.next()).toEqual(result(3));
    expect(server.missing()).toEqual([]);
  });

  it("closes a stream the server keeps open after the response", async () => {
    const { server, inbox, transport } = await setup([
      { method: "tools/call", reply: { kind: "sse", parts: [sseEvent(result(4))], then: "hold" } },
    ]);
    await transport.send(request(4, "tools/call", { name: "search" }));
    expect(await inbox.next()).toEqual(result(4));
    // The server holds the stream open for good: only the transport can close its connection.
    const { socketClosed } = await server.request(0);
    expect(await settlesWithin(socketClosed, STREAM_CLOSE_LIMIT_MS)).toBe(true);
  });

  it("fails the request (the server took it) at once with kind broken when the stream breaks before the response", async () => {
    const { server, inbox, transport } = await setup([
      { method: "tools/call", reply: { kind: "sse", parts: [sseEvent(progress(1))], then: "destroy" } },
    ]);
    const error = await failureAfterTaken(transport.send(request(7, "tools/call", { name: "search" })), inbox, 7);
    expect(summary(error)).toEqual({
      kind: "broken",
      server: "tickets",
      message: `the event stream from ${server.url} broke before the response to request 7`,
    });
    expect(inbox.messages).toEqual([progress(1)]);
  });

  it("fails the request with kind broken when the stream ends without the response", async () => {
    const { server, inbox, transport } = await setup([
      { method: "tools/call", reply: { kind: "sse", parts: [sseEvent(progress(1))], then: "end" } },
    ]);
    const error = await failureAfterTaken(transport.send(request(7, "tools/call", { name: "search" })), inbox, 7);
    expect(summary(error)).toEqual({
      kind: "broken",
      server: "tickets",
      message: `the event stream from ${server.url} ended before the response to request 7`,
    });
  });

  it("fails a reply that outgrows the cap on one reply, JSON or event stream, with a message naming the cap", async () => {
    const big = { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "x".repeat(5000) }] } };
    const { server, inbox, transport } = await setup(
      [
        { method: "tools/call", reply: { kind: "json", body: big } },
        { method: "tools/call", reply: { kind: "sse", parts: [sseEvent({ ...big, id: 2 })], then: "end" } },
      ],
      { maxReplyBytes: 1000 },
    );
    for (const id of [1, 2]) {
      const error = await failureAfterTaken(transport.send(request(id, "tools/call", { name: "search" })), inbox, id);
      expect(summary(error)).toEqual({
        kind: "protocol",
        server: "tickets",
        message: `${server.url} sent a message larger than 1000 bytes in answer to request ${id}; it was not read to the end (the cap on one message)`,
      });
    }
  });

  it("caps each event of a stream, not the stream: small events adding up past the cap pass", async () => {
    const parts = [...Array.from({ length: 20 }, (_, index) => sseEvent(progress(index))), sseEvent(result(1))];
    const { inbox, transport } = await setup([{ method: "tools/call", reply: { kind: "sse", parts, then: "end" } }], { maxReplyBytes: 1000 });
    await transport.send(request(1, "tools/call", { name: "search" }));
    await expect.poll(() => inbox.messages.length).toBe(21);
  });

  it("fails the exchange, handing nothing up, when the stream carries a response to another request", async () => {
    const { server, inbox, transport } = await setup([
      { method: "tools/call", reply: { kind: "sse", parts: [sseEvent(result(6)), sseEvent(result(7))], then: "end" } },
    ]);
    const error = await failureAfterTaken(transport.send(request(7, "tools/call", { name: "search" })), inbox, 7);
    expect(summary(error)).toEqual({
      kind: "protocol",
      server: "tickets",
      message: `the event stream from ${server.url} for request 7 carried a response to another request`,
    });
    expect(inbox.messages).toEqual([]);
  });

  it("fails the request on a server-to-client request on its stream, a protocol violation, and does not hand it up", async () => {
    const sampling = { jsonrpc: "2.0", id: 99, method: "sampling/createMessage", params: {} };
    const { server, inbox, transport } = await setup([
      { method: "tools/call", reply: { kind: "sse", parts: [sseEvent(sampling), sseEvent(result(7))], then: "end" } },
    ]);
    const error = await failureAfterTaken(transport.send(request(7, "tools/call", { name: "search" })), inbox, 7);
    expect(summary(error)).toEqual({
      kind: "protocol",
      server: "tickets",
      message:
        `${server.url} sent a sampling/createMessage request on the event stream of request 7; ` +
        "servers must not send requests (MRTR replaced them)",
    });
    expect(inbox.messages).toEqual([]);
  });

  it("fails the request with the server's error and the HTTP status for an error body with a failure status (400, -32020)", async () => {
    const mismatch = { jsonrpc: "2.0", id: 1, error: { code: -32020, message: "Header mismatch: Mcp-Name" } };
    const { inbox, transport } = await setup([
      {
        method: "tools/call",
        reply: { kind: "json", status: 400, body: mismatch, headers: { "Content-Type": "application/json; charset=utf-8" } },
      },
    ]);
    const error = await failure(transport.send(request(1, "tools/call", { name: "search" })));
    expect({ ...summary(error), code: error.code, status: error instanceof HttpFailure && error.status }).toEqual({
      kind: "server",
      server: "tickets",
      message: "Header mismatch: Mcp-Name (code -32020)",
      code: -32020,
      status: 400,
    });
    expect(inbox.messages).toEqual([]);
  });

  it("hands up a JSON-RPC error body that comes with a success status", async () => {
    const notFound = { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Unknown tool" } };
    const { inbox, transport } = await setup([{ method: "tools/call", reply: { kind: "json", status: 200, body: notFound } }]);
    await transport.send(request(1, "tools/call", { name: "search" }));
    expect(await inbox.next()).toEqual(notFound);
  });

  it("rejects with the server's code when the body is an error without an id", async () => {
    const forbidden = { jsonrpc: "2.0", id: null, error: { code: -32000, message: "Forbidden: bad Origin" } };
    const { server, inbox, transport } = await setup([
      { method: "tools/list", reply: { kind: "json", status: 403, body: forbidden } },
    ]);
    const error = await failure(transport.send(request(1, "tools/list")));
    expect({ ...summary(error), code: error.code }).toEqual({
      kind: "server",
      server: "tickets",
      message: `${server.url} answered HTTP 403 Forbidden: Forbidden: bad Origin (code -32000)`,
      code: -32000,
    });
    expect(inbox.messages).toEqual([]);
  });

  it("rejects a 404 without a JSON-RPC body with a protocol error naming the status", async () => {
    const { server, transport } = await setup([
      { method: "tools/list", reply: { kind: "text", status: 404, contentType: "text/html", body: "<pre>Cannot POST /mcp</pre>" } },
    ]);
    const error = await failure(transport.send(request(1, "tools/list")));
    expect(summary(error)).toEqual({
      kind: "protocol",
      server: "tickets",
      message: `${server.url} answered HTTP 404 Not Found without a JSON-RPC body to request 1: "<pre>Cannot POST /mcp</pre>"`,
    });
  });

  it("fails the request on a reply of an unexpected content type", async () => {
    const { server, inbox, transport } = await setup([
      { method: "tools/list", reply: { kind: "text", status: 200, contentType: "text/plain", body: "hello" } },
    ]);
    const error = await failureAfterTaken(transport.send(request(1, "tools/list")), inbox, 1);
    expect(summary(error)).toEqual({
      kind: "protocol",
      server: "tickets",
      message: `${server.url} answered HTTP 200 OK with unexpected content type "text/plain" to request 1`,
    });
  });

  it("accepts a text/plain reply that is the request's own JSON-RPC response", async () => {
    const { inbox, transport } = await setup([
      { method: "tools/list", reply: { kind: "text", status: 200, contentType: "text/plain", body: JSON.stringify(result(1)) } },
    ]);
    await transport.send(request(1, "tools/list"));
    expect(await inbox.next()).toEqual(result(1));
  });

  it("accepts 202 with Content-Type application/json and the body null for a notification, and hands up nothing", async () => {
    const { server, inbox, transport } = await setup([
      { method: "notifications/initialized", reply: { kind: "json", status: 202, body: null } },
    ]);
    await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(server.received.map((r) => r.headers["mcp-method"])).toEqual(["notifications/initialized"]);
    expect(inbox.messages).toEqual([]);
  });

  it("says that the old HTTP+SSE transport is not supported when a URL ending in /sse answers 404", async () => {
    const server = await startScriptedHttpServer([
      { method: "server/discover", reply: { kind: "text", status: 404, contentType: "text/html", body: "Cannot POST /sse" } },
    ]);
    cleanups.push(() => server.close());
    const url = server.url.replace(/\/mcp$/, "/sse");
    const transport = await startedTransport(url);
    const error = await failure(transport.send(request(1, "server/discover")));
    expect(summary(error)).toEqual({
      kind: "protocol",
      server: "tickets",
      message:
        `${url} answered HTTP 404 to request 1: a URL ending in /sse is usually the old HTTP+SSE transport, ` +
        'which mca speaks as "type": "sse"; otherwise use the server\'s Streamable HTTP endpoint (often /mcp)',
    });
  });

  it("accepts 202 with an empty body for a notification", async () => {
    const { server, transport } = await setup([
      { method: "notifications/initialized", reply: { kind: "text", status: 202, body: "" } },
    ]);
    await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(server.received.map((r) => r.headers["mcp-method"])).toEqual(["notifications/initialized"]);
  });
});

describe("createHttpTransport: connections", () => {
  it("rejects with kind unreachable naming the URL when the connection is refused", async () => {
    const url = await unusedLoopbackUrl();
    const transport = createHttpTransport({ label: "tickets", url });
    cleanups.push(() => transport.close());
    await transport.start(createMessageInbox().handlers);
    const error = await failure(transport.send(request(1, "tools/list")));
    expect(summary(error)).toEqual({ kind: "unreachable", message: `cannot reach ${url}: connection refused`, server: "tickets" });
  });

  it("says in plain words that an https:// URL points at a plain-HTTP port", async () => {
    const server = await startScriptedHttpServer([]);
    cleanups.push(() => server.close());
    const url = server.url.replace(/^http:/, "https:");
    const transport = await startedTransport(url);
    const error = await failure(transport.send(request(1, "server/discover")));
    expect(summary(error)).toEqual({
      kind: "unreachable",
      server: "tickets",
      message: `cannot reach ${url}: the server there speaks plain HTTP, not HTTPS (try ${server.url})`,
    });
  });

  it("reuses one keep-alive connection for sequential requests", async () => {
    const { server, transport } = await setup(
      [1, 2, 3].map((id) => ({ method: "tools/list", reply: { kind: "json", body: result(id) } })),
    );
    for (const id of [1, 2, 3]) await transport.send(request(id, "tools/list"));
    expect(server.connections()).toBe(1);
    expect(new Set(server.received.map((r) => r.remotePort)).size).toBe(1);
  });

  it("stops a request when its send's signal aborts: the send rejects with the reason, the server sees the socket close, nothing more is posted", async () => {
    const { server, transport } = await setup([{ method: "tools/call", reply: { kind: "hold" } }]);
    const stop = new AbortController();
    const sent = transport.send(request(5, "tools/call", { name: "slow" }), stop.signal);
    const received = await server.request(0);
    stop.abort(new McpError("aborted", "tools/call was aborted", { server: "tickets" }));
    expect(summary(await failure(sent))).toEqual({ kind: "aborted", message: "tools/call was aborted", server: "tickets" });
    await received.socketClosed;
    expect({ received: server.received.length, cancellation: transport.cancellation }).toEqual({ received: 1, cancellation: "close-stream" });
  });

  it("sends nothing for a signal aborted before the send", async () => {
    const { server, transport } = await setup([]);
    const stop = new AbortController();
    stop.abort();
    expect(summary(await failure(transport.send(request(6, "tools/call", { name: "slow" }), stop.signal)))).toEqual({
      kind: "aborted",
      message: "request 6 was stopped",
      server: "tickets",
    });
    expect(server.received).toEqual([]);
  });

  it("closes once: in-flight requests fail as closed, onClose is called once, later sends are refused", async () => {
    const { server, inbox, transport } = await setup([{ method: "tools/call", reply: { kind: "hold" } }]);
    const sent = transport.send(request(5, "tools/call", { name: "slow" }));
    const received = await server.request(0);
    const closing = transport.close();
    expect(transport.close()).toBe(closing);
    await closing;
    expect(summary(await failure(sent))).toEqual({ kind: "closed", message: "the transport was closed", server: "tickets" });
    await received.socketClosed;
    expect(inbox.closeReasons.map((reason) => reason.message)).toEqual(["the transport was closed"]);
    expect(summary(await failure(transport.send(request(6, "tools/list"))))).toEqual({
      kind: "closed",
      message: "cannot send request 6: the transport is closed",
      server: "tickets",
    });
  });
});

describe("createHttpTransport: authorization", () => {
  const CHALLENGE = 'Bearer resource_metadata="http://127.0.0.1:1/prm"';
  const STEP_UP = 'Bearer error="insufficient_scope", scope="write"';

  /** A login that hands out `access-token-<n>` each time it is challenged, and records what it was told. */
  function fakeAuth(grant: (status: number) => boolean = () => true) {
    const seen: Array<{ status: number; challenge: string | undefined }> = [];
    let issued = 0;
    let accepted = 0;
    return {
      seen,
      accepted: () => accepted,
      auth: {
        authorization: () => Promise.resolve(issued === 0 ? undefined : `Bearer access-token-${issued}`),
        challenged: (status: number, challenge: string | undefined) => {
          seen.push({ status, challenge });
          if (!grant(status)) return Promise.resolve(false);
          issued += 1;
          return Promise.resolve(true);
        },
        accepted: () => void (accepted += 1),
      },
    };
  }

  it("hands a 401's challenge to the login and sends the request again with the new token, once it has one", async () => {
    const login = fakeAuth();
    const { server, inbox, transport } = await setup(
      [
        { method: "tools/list", reply: { kind: "json", status: 401, body: { error: "invalid_token" }, headers: { "WWW-Authenticate": CHALLENGE } } },
        { method: "tools/list", reply: { kind: "json", body: result(1, { tools: [] }) } },
      ],
      { auth: login.auth },
    );
    await transport.send(request(1, "tools/list"));
    expect(login.seen).toEqual([{ status: 401, challenge: CHALLENGE }]);
    expect(server.received.map((received) => received.headers.authorization)).toEqual([undefined, "Bearer access-token-1"]);
    expect(await inbox.next()).toEqual(result(1, { tools: [] }));
    expect(login.accepted()).toBe(1);
  });

  it("fails with the server's refusal, the token kept out of its text, when the login has nothing new", async () => {
    const login = fakeAuth((status) => status !== 403);
    const { transport } = await setup(
      [
        { method: "tools/call", reply: { kind: "json", status: 401, body: { error: "invalid_token" }, headers: { "WWW-Authenticate": CHALLENGE } } },
        { method: "tools/call", reply: { kind: "text", status: 403, body: "access-token-1 may not write" } },
      ],
      { auth: login.auth },
    );
    const error = await transport.send(request(1, "tools/call", { name: "t", arguments: {} })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpFailure);
    expect(error).toMatchObject({ status: 403 });
    expect(String(error)).not.toContain("access-token-1");
    expect(login.seen.map((entry) => entry.status)).toEqual([401, 403]);
  });

  it("stops sending a request the server keeps challenging, whatever the login says", async () => {
    const login = fakeAuth();
    const stepUp = { kind: "json" as const, status: 403, body: { error: "insufficient_scope" }, headers: { "WWW-Authenticate": STEP_UP } };
    const { server, transport } = await setup(
      [1, 2, 3, 4].map(() => ({ method: "tools/call", reply: stepUp })),
      { auth: login.auth },
    );
    const error = await transport.send(request(1, "tools/call", { name: "t", arguments: {} })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpFailure);
    expect(error).toMatchObject({ status: 403, wwwAuthenticate: STEP_UP });
    expect(server.received).toHaveLength(4);
    expect(login.seen).toHaveLength(3);
  });
});
