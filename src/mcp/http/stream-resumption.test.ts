import { afterEach, describe, expect, it } from "vitest";
import { openLegacyClient } from "../legacy-client.js";
import { createWire } from "../wire.js";
import { McpError, type JsonRpcMessage } from "../jsonrpc.js";
import { createMessageInbox } from "../test-support/http-message-inbox.js";
import { rejection, summary } from "../test-support/mcp-rejection.js";
import { type ScriptedExchange, sseEvent, startScriptedHttpServer } from "../test-support/scripted-http-server.js";
import {
  DEFAULT_RECONNECTION_TIME_MS,
  MAX_RESUMPTIONS_WITHOUT_PROGRESS,
  NEW_CURSOR,
  planResumption,
  type StreamCursor,
} from "./stream-resumption.js";
import { createHeaderTable } from "./headers.js";
import { createHttpTransport } from "./transport.js";

const LEGACY = "2025-11-25";

function asMcpError(error: Error): McpError {
  if (!(error instanceof McpError)) throw new Error(`expected an McpError, got ${String(error)}`);
  return error;
}

describe("planResumption", () => {
  it("resumes from the stream's last event id after its retry", () => {
    expect(planResumption(NEW_CURSOR, { lastEventId: "e-1", reconnectionTimeMs: 500 })).toEqual({
      cursor: { lastEventId: "e-1", reconnectionTimeMs: 500, resumptions: 1, withoutProgress: 0 },
      next: { kind: "resume", lastEventId: "e-1", delayMs: 500 },
    });
  });

  it("keeps the request's cursor and retry when a resumed stream carried neither, and waits the default without any", () => {
    const cursor: StreamCursor = { lastEventId: "e-4", reconnectionTimeMs: undefined, resumptions: 1, withoutProgress: 0 };
    expect(planResumption(cursor, { lastEventId: "", reconnectionTimeMs: undefined })).toEqual({
      cursor: { lastEventId: "e-4", reconnectionTimeMs: undefined, resumptions: 2, withoutProgress: 1 },
      next: { kind: "resume", lastEventId: "e-4", delayMs: DEFAULT_RECONNECTION_TIME_MS },
    });
  });

  it.each<[string, StreamCursor, string, number | undefined, string]>([
    ["no event id ever", NEW_CURSOR, "", 10, "the server sent no event id to resume it from"],
    ["an id that is no header value", NEW_CURSOR, "a b", 10, "its last event id cannot be sent back in a Last-Event-ID header"],
    ["a retry past the bound", NEW_CURSOR, "e-1", 120_000, "the server asked to reconnect after 120000 ms, longer than mca waits (30000 ms)"],
    [
      "resumptions that bring nothing new",
      { lastEventId: "e-1", reconnectionTimeMs: 10, resumptions: 3, withoutProgress: MAX_RESUMPTIONS_WITHOUT_PROGRESS },
      "e-1",
      10,
      "3 resumptions in a row brought no new event",
    ],
    ["too many resumptions", { lastEventId: "e-1", reconnectionTimeMs: 10, resumptions: 50, withoutProgress: 0 }, "e-2", 10, "it was resumed 50 times"],
  ])("gives up on %s", (_name, cursor, lastEventId, reconnectionTimeMs, reason) => {
    expect(planResumption(cursor, { lastEventId, reconnectionTimeMs }).next).toEqual({ kind: "give-up", reason });
  });
});

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const CALL: JsonRpcMessage = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "slow", arguments: {} } };
const RESPONSE: JsonRpcMessage = { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "done" }] } };
const PROGRESS: JsonRpcMessage = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: 1 } };
const INITIALIZE = { method: "initialize", reply: { kind: "json", body: { jsonrpc: "2.0", id: 1, result: {} }, headers: { "Mcp-Session-Id": "sess-1" } } } as const;

/** A priming event as 2025-11-25 asks for it: an id, the retry, and empty data. */
function priming(id: string, retryMs: number): string {
  return `id: ${id}\nretry: ${retryMs}\ndata: \n\n`;
}
function withId(id: string, message: JsonRpcMessage): string {
  return `id: ${id}\n${sseEvent(message)}`;
}

async function legacyTransport(script: readonly ScriptedExchange[], protocolVersion: string = LEGACY) {
  const server = await startScriptedHttpServer(script);
  cleanups.push(() => server.close());
  const inbox = createMessageInbox();
  const headerTable = createHeaderTable();
  headerTable.speak(protocolVersion);
  const transport = createHttpTransport({ label: "old", url: server.url, headers: { "X-Api-Key": "k-1" }, headerTable });
  cleanups.push(() => transport.close());
  await transport.start(inbox.handlers);
  await transport.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion } });
  await inbox.next();
  return { server, inbox, transport };
}

describe("createHttpTransport: a legacy stream closed before its response", () => {
  it("is resumed with GET, the session and the last event id of that stream, and the response comes on the resumed stream", async () => {
    const { server, inbox, transport } = await legacyTransport([
      INITIALIZE,
      { method: "tools/call", reply: { kind: "sse", parts: [priming("e-1", 20), withId("e-2", PROGRESS)], then: "end" } },
      { method: "GET", reply: { kind: "sse", parts: [priming("e-3", 20), withId("e-4", RESPONSE)], then: "hold" } },
    ]);
    await transport.send(CALL);
    expect([await inbox.next(), await inbox.next()]).toEqual([PROGRESS, RESPONSE]);
    const resumed = await server.request(2);
    expect({ httpMethod: resumed.httpMethod, headers: resumed.headers }).toEqual({
      httpMethod: "GET",
      headers: {
        host: new URL(server.url).host,
        connection: "keep-alive",
        accept: "text/event-stream",
        "x-api-key": "k-1",
        "mcp-protocol-version": LEGACY,
        "mcp-session-id": "sess-1",
        "last-event-id": "e-2",
      },
    });
    expect(server.unexpected).toHaveLength(0);
  });

  it("is resumed after a connection cut mid-stream, and again from the resumed stream's own last id", async () => {
    const { server, inbox, transport } = await legacyTransport([
      INITIALIZE,
      { method: "tools/call", reply: { kind: "sse", parts: [priming("e-1", 0)], then: "destroy" } },
      { method: "GET", reply: { kind: "sse", parts: [priming("e-2", 0), withId("e-3", PROGRESS)], then: "end" } },
      { method: "GET", reply: { kind: "sse", parts: [withId("e-4", RESPONSE)], then: "end" } },
    ]);
    await transport.send(CALL);
    expect([await inbox.next(), await inbox.next()]).toEqual([PROGRESS, RESPONSE]);
    expect(server.received.map((request) => request.headers["last-event-id"])).toEqual([undefined, undefined, "e-1", "e-3"]);
  });

  it("fails the request naming the status when the server will not resume it", async () => {
    const { inbox, transport, server } = await legacyTransport([
      INITIALIZE,
      { method: "tools/call", reply: { kind: "sse", parts: [priming("e-1", 0)], then: "end" } },
      { method: "GET", reply: { kind: "text", status: 405, body: "Method Not Allowed" } },
    ]);
    await transport.send(CALL);
    expect(summary(asMcpError(await inbox.failureOf(2)))).toEqual({
      kind: "broken",
      message: `${server.url} did not resume the event stream of request 2 (HTTP 405)`,
      server: "old",
    });
  });

  it("fails the request without a GET when the stream carried no event id", async () => {
    const { inbox, transport, server } = await legacyTransport([
      INITIALIZE,
      { method: "tools/call", reply: { kind: "sse", parts: [sseEvent(PROGRESS)], then: "end" } },
    ]);
    await transport.send(CALL);
    expect(await inbox.next()).toEqual(PROGRESS);
    expect(summary(asMcpError(await inbox.failureOf(2)))).toEqual({
      kind: "broken",
      message: `the event stream from ${server.url} ended before the response to request 2; it was not resumed: the server sent no event id to resume it from`,
      server: "old",
    });
    expect(server.received).toHaveLength(2);
  });

  it("is not resumed in the 2026-07-28 era, which has no GET streams", async () => {
    const { inbox, transport, server } = await legacyTransport(
      [INITIALIZE, { method: "tools/call", reply: { kind: "sse", parts: [priming("e-1", 0)], then: "end" } }],
      "2026-07-28",
    );
    await transport.send({ ...CALL, params: { name: "slow", arguments: {}, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } } });
    expect(summary(asMcpError(await inbox.failureOf(2)))).toEqual({
      kind: "broken",
      message: `the event stream from ${server.url} ended before the response to request 2`,
      server: "old",
    });
    expect(server.received).toHaveLength(2);
  });
});

describe("a legacy call whose stream is never resumed", () => {
  it("fails with the request's timeout while the resuming GET goes unanswered", async () => {
    const server = await startScriptedHttpServer([
      { method: "initialize", reply: { kind: "json", body: { jsonrpc: "2.0", id: 1, result: { protocolVersion: LEGACY, capabilities: { tools: {} }, serverInfo: { name: "old", version: "1" } } }, headers: { "Mcp-Session-Id": "sess-1" } } },
      { method: "notifications/initialized", reply: { kind: "text", status: 202, body: "" } },
      { method: "tools/call", reply: { kind: "sse", parts: [priming("e-1", 0)], then: "end" } },
      { method: "GET", reply: { kind: "hold" } },
    ]);
    cleanups.push(() => server.close());
    const headerTable = createHeaderTable();
    const transport = createHttpTransport({ label: "old", url: server.url, headerTable });
    const wire = createWire({ transport, headerTable, clientVersion: "0.15.0", requestTimeoutMs: 300 });
    cleanups.push(() => wire.close());
    await wire.start();
    const client = await openLegacyClient(wire);
    const failure = await rejection(client.callTool("slow", {}));
    expect({ failure: summary(failure), resumed: (await server.request(3)).headers["last-event-id"] }).toEqual({
      failure: { kind: "timeout", message: "tools/call timed out after 300 ms", server: "old" },
      resumed: "e-1",
    });
  });
});
