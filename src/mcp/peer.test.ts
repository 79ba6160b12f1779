import { describe, expect, it } from "vitest";
import { McpError } from "./errors.js";
import type { JsonRpcNotification } from "./jsonrpc.js";
import { createPeer } from "./peer.js";
import { createInMemoryTransport, type InMemoryTransportOptions } from "./test-support/in-memory-stdio-transport.js";
import { rejection } from "./test-support/mcp-rejection.js";

async function startedPeer(transportOptions: InMemoryTransportOptions = {}, requestTimeoutMs = 60_000) {
  const transport = createInMemoryTransport({ label: "srv", ...transportOptions });
  const notifications: JsonRpcNotification[] = [];
  const warnings: string[] = [];
  const peer = createPeer({
    transport,
    requestTimeoutMs,
    onNotification: (n) => notifications.push(n),
    onWarning: (w) => warnings.push(w),
  });
  await peer.start();
  return { transport, peer, notifications, warnings };
}

function describeError(error: McpError) {
  return { kind: error.kind, message: error.message, code: error.code, data: error.data };
}

describe("createPeer", () => {
  it("gives each request the next integer id and settles it with its own response", async () => {
    const { transport, peer } = await startedPeer();
    const first = peer.request("tools/list", { _meta: {} });
    const second = peer.request("server/discover", { _meta: {} });
    expect(transport.requests().map((r) => [r.id, r.method])).toEqual([
      [1, "tools/list"],
      [2, "server/discover"],
    ]);
    transport.deliver({ jsonrpc: "2.0", id: 2, result: { answer: "second" } });
    transport.deliver({ jsonrpc: "2.0", id: 1, result: { answer: "first" } });
    expect(await Promise.all([first, second])).toEqual([{ answer: "first" }, { answer: "second" }]);
  });

  it("hands a message without an id to the notification listener and never takes it for a response", async () => {
    const { transport, peer, notifications } = await startedPeer();
    const call = peer.request("tools/call", { _meta: {} });
    transport.deliver({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } });
    transport.deliver({ jsonrpc: "2.0", id: 1, result: { done: true } });
    expect(await call).toEqual({ done: true });
    expect(notifications).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } },
    ]);
  });

  it("drops responses whose id no one waits for or whose id is not an integer", async () => {
    const { transport, peer } = await startedPeer();
    const call = peer.request("tools/list", { _meta: {} });
    transport.deliver({ jsonrpc: "2.0", id: 99, result: { stray: true } });
    transport.deliver({ jsonrpc: "2.0", id: "1", result: { wrongType: true } });
    transport.deliver({ jsonrpc: "2.0", id: 1, result: { mine: true } });
    expect(await call).toEqual({ mine: true });
  });

  it("rejects a JSON-RPC error as a server error carrying the server's code and data", async () => {
    const { peer } = await startedPeer({
      answer: () => ({ error: { code: -32602, message: "Unknown tool: nope", data: { tool: "nope" } } }),
    });
    expect(describeError(await rejection(peer.request("tools/call", { _meta: {} })))).toEqual({
      kind: "server",
      message: "srv: Unknown tool: nope (code -32602)",
      code: -32602,
      data: { tool: "nope" },
    });
  });

  it("fails the one waiting request at once with an error the server could not tie to a request (id null)", async () => {
    const { transport, peer, warnings } = await startedPeer();
    const call = peer.request("tools/call", { _meta: {} });
    transport.deliver({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Line too long" } });
    expect(describeError(await rejection(call))).toEqual({ kind: "server", message: "srv: Line too long (code -32700)", code: -32700, data: undefined });
    expect(warnings).toEqual(["srv: Line too long (code -32700), in answer to no request in particular"]);
  });

  it("only reports an error with id null when several requests wait, since it cannot say which", async () => {
    const { transport, peer, warnings } = await startedPeer();
    const first = peer.request("tools/list", { _meta: {} });
    const second = peer.request("tools/list", { _meta: {} });
    transport.deliver({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    transport.deliver({ jsonrpc: "2.0", id: 1, result: { one: true } });
    transport.deliver({ jsonrpc: "2.0", id: 2, result: { two: true } });
    expect(await Promise.all([first, second])).toEqual([{ one: true }, { two: true }]);
    expect(warnings).toEqual(["srv: Parse error (code -32700), in answer to no request in particular"]);
  });

  it("times out a request, cancels it on the transport and drops its late response", async () => {
    const { transport, peer } = await startedPeer({}, 60_000);
    const error = await rejection(peer.request("tools/call", { _meta: {} }, { timeoutMs: 5 }));
    expect(describeError(error)).toEqual({
      kind: "timeout",
      message: "srv: tools/call timed out after 5 ms",
      code: undefined,
      data: undefined,
    });
    expect(transport.cancels).toEqual([{ id: 1, reason: "timed out after 5 ms" }]);
    transport.deliver({ jsonrpc: "2.0", id: 1, result: { late: true } });
    const next = peer.request("tools/list", { _meta: {} });
    transport.deliver({ jsonrpc: "2.0", id: 2, result: { fresh: true } });
    expect(await next).toEqual({ fresh: true });
  });

  it("fails every waiting request at once with the transport's reason when the connection dies", async () => {
    const { transport, peer } = await startedPeer();
    const waiting = [1, 2, 3].map(() => rejection(peer.request("tools/call", { _meta: {} })));
    transport.die(new McpError("closed", "srv exited with code 3 (signal none); stderr: boom"));
    const errors = await Promise.all(waiting);
    expect(errors.map((e) => [e.kind, e.message])).toEqual(
      Array(3).fill(["closed", "srv exited with code 3 (signal none); stderr: boom"]),
    );
    const later = await rejection(peer.request("tools/list", { _meta: {} }));
    expect(later.message).toBe("srv exited with code 3 (signal none); stderr: boom");
    expect(transport.requests()).toHaveLength(3);
  });

  it("wraps a plain Error from the transport's onClose into a closed McpError", async () => {
    const { transport, peer } = await startedPeer();
    const waiting = rejection(peer.request("tools/list", { _meta: {} }));
    transport.die(new Error("pipe burst"));
    expect(describeError(await waiting)).toEqual({ kind: "closed", message: "srv: pipe burst", code: undefined, data: undefined });
  });

  it("fails only the request whose send rejected, with that error", async () => {
    const { peer } = await startedPeer({
      answer: (request) =>
        request.method === "tools/call"
          ? { sendFails: new McpError("broken", "srv: the event stream ended before the response") }
          : { result: { ok: true } },
    });
    const call = rejection(peer.request("tools/call", { _meta: {} }));
    const list = peer.request("tools/list", { _meta: {} });
    expect((await call).message).toBe("srv: the event stream ended before the response");
    expect(await list).toEqual({ ok: true });
  });

  it("rejects an aborted request at once and cancels it on the transport", async () => {
    const { transport, peer } = await startedPeer();
    const controller = new AbortController();
    const call = rejection(peer.request("tools/call", { _meta: {} }, { signal: controller.signal }));
    controller.abort();
    expect((await call).kind).toBe("aborted");
    expect(transport.cancels).toEqual([{ id: 1, reason: "aborted by the client" }]);
  });

  it("does not send a request whose signal is already aborted", async () => {
    const { transport, peer } = await startedPeer();
    const error = await rejection(peer.request("tools/call", { _meta: {} }, { signal: AbortSignal.abort() }));
    expect([error.kind, error.message]).toEqual(["aborted", "srv: tools/call was aborted"]);
    expect(transport.sent).toEqual([]);
  });

  it("passes param headers to the transport with the request", async () => {
    const { transport, peer } = await startedPeer({ answer: () => ({ result: {} }) });
    await peer.request("tools/call", { _meta: {} }, { paramHeaders: [{ name: "Region", value: "eu" }] });
    expect(transport.sent[0]?.options).toEqual({ paramHeaders: [{ name: "Region", value: "eu" }] });
  });

  it("closes once: pending requests fail, the transport is closed a single time", async () => {
    const { transport, peer } = await startedPeer();
    const waiting = rejection(peer.request("tools/call", { _meta: {} }));
    const first = peer.close();
    expect(peer.close()).toBe(first);
    await first;
    expect([(await waiting).kind, (await waiting).message]).toEqual(["closed", "srv: connection closed"]);
    expect(transport.closeCalls()).toBe(1);
  });

  it("ignores a request from the server and says so", async () => {
    const { transport, warnings, notifications } = await startedPeer();
    transport.deliver({ jsonrpc: "2.0", id: 5, method: "roots/list", params: {} });
    expect(warnings).toEqual(["srv: ignoring a request from the server (roots/list)"]);
    expect(notifications).toEqual([]);
  });

  it("fails later requests with the start error when the transport cannot start", async () => {
    const transport = createInMemoryTransport({ label: "srv" });
    const unreachable = new McpError("unreachable", "srv: cannot start `nope`: command not found (ENOENT)");
    const peer = createPeer({
      transport: { ...transport, start: () => Promise.reject(unreachable) },
      requestTimeoutMs: 1000,
      onNotification: () => undefined,
    });
    expect(await rejection(peer.start())).toBe(unreachable);
    expect(await rejection(peer.request("tools/list", { _meta: {} }))).toBe(unreachable);
  });
});
