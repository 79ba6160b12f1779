import { describe, expect, it } from "vitest";
import { McpError, type JsonObject, type JsonRpcNotification } from "./jsonrpc.js";
import { createNotificationRouter, createPeer, type PeerOptions } from "./peer.js";
import { createInMemoryTransport, type InMemoryTransportOptions } from "./test-support/in-memory-transport.js";
import { rejection, summary } from "./test-support/mcp-rejection.js";

async function startedPeer(transportOptions: InMemoryTransportOptions = {}, peerOptions: Partial<PeerOptions> = {}) {
  const transport = createInMemoryTransport({ label: "srv", ...transportOptions });
  const notifications: JsonRpcNotification[] = [];
  const warnings: string[] = [];
  const closes: McpError[] = [];
  const peer = createPeer({
    transport,
    requestTimeoutMs: 60_000,
    onNotification: (n) => notifications.push(n),
    onWarning: (w) => warnings.push(w),
    onClose: (reason) => closes.push(reason),
    ...peerOptions,
  });
  await peer.start();
  return { transport, peer, notifications, warnings, closes };
}

const cancelled = (requestId: number, reason: string) => ({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason } });

describe("createPeer", () => {
  it("gives each request the next integer id and settles it with its own response", async () => {
    const { transport, peer } = await startedPeer();
    const first = peer.request("tools/list", {});
    const second = peer.request("server/discover", {});
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
    const call = peer.request("tools/call", {});
    transport.deliver({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } });
    transport.deliver({ jsonrpc: "2.0", id: 1, result: { done: true } });
    expect(await call).toEqual({ done: true });
    expect(notifications).toEqual([{ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } }]);
  });

  it("drops responses whose id no one waits for or whose id is not an integer", async () => {
    const { transport, peer } = await startedPeer();
    const call = peer.request("tools/list", {});
    transport.deliver({ jsonrpc: "2.0", id: 99, result: { stray: true } });
    transport.deliver({ jsonrpc: "2.0", id: "1", result: { wrongType: true } });
    transport.deliver({ jsonrpc: "2.0", id: 1, result: { mine: true } });
    expect(await call).toEqual({ mine: true });
  });

  it("rejects a JSON-RPC error as a server error carrying the server, its code and data", async () => {
    const { peer } = await startedPeer({ answer: () => ({ error: { code: -32602, message: "Unknown tool: nope", data: { tool: "nope" } } }) });
    const error = await rejection(peer.request("tools/call", {}));
    expect({ ...summary(error), code: error.code, data: error.data }).toEqual({
      kind: "server",
      message: "Unknown tool: nope (code -32602)",
      server: "srv",
      code: -32602,
      data: { tool: "nope" },
    });
  });

  it("fails the one waiting request at once with an error the server could not tie to a request (id null)", async () => {
    const { transport, peer, warnings } = await startedPeer();
    const call = peer.request("tools/call", {});
    transport.deliver({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Line too long" } });
    const error = await rejection(call);
    expect({ ...summary(error), code: error.code }).toEqual({ kind: "server", message: "Line too long (code -32700)", server: "srv", code: -32700 });
    expect(warnings).toEqual(["Line too long (code -32700), in answer to no request in particular"]);
  });

  it("only reports an error with id null when several requests wait, since it cannot say which", async () => {
    const { transport, peer, warnings } = await startedPeer();
    const first = peer.request("tools/list", {});
    const second = peer.request("tools/list", {});
    transport.deliver({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    transport.deliver({ jsonrpc: "2.0", id: 1, result: { one: true } });
    transport.deliver({ jsonrpc: "2.0", id: 2, result: { two: true } });
    expect(await Promise.all([first, second])).toEqual([{ one: true }, { two: true }]);
    expect(warnings).toEqual(["Parse error (code -32700), in answer to no request in particular"]);
  });

  it("times out a request, sends notifications/cancelled for it and drops its late response", async () => {
    const { transport, peer } = await startedPeer();
    const error = await rejection(peer.request("tools/call", {}, { timeoutMs: 5 }));
    expect(summary(error)).toEqual({ kind: "timeout", message: "tools/call timed out after 5 ms", server: "srv" });
    expect(transport.notifications()).toEqual([cancelled(1, "timed out after 5 ms")]);
    transport.deliver({ jsonrpc: "2.0", id: 1, result: { late: true } });
    const next = peer.request("tools/list", {});
    transport.deliver({ jsonrpc: "2.0", id: 2, result: { fresh: true } });
    expect(await next).toEqual({ fresh: true });
  });

  it("never times out a request without a deadline, while others about it still time out at theirs", async () => {
    const { transport, peer } = await startedPeer({}, { requestTimeoutMs: 5 });
    const ids: number[] = [];
    const listen = peer.request("subscriptions/listen", {}, { noDeadline: true, onSent: (id) => ids.push(id) });
    const call = await rejection(peer.request("tools/call", {}));
    await new Promise((resolve) => setTimeout(resolve, 20));
    transport.deliver({ jsonrpc: "2.0", id: 1, result: { resultType: "complete" } });
    expect({ ids, listen: await listen, call: call.kind, cancelled: transport.notifications() }).toEqual({
      ids: [1],
      listen: { resultType: "complete" },
      call: "timeout",
      cancelled: [cancelled(2, "timed out after 5 ms")],
    });
  });

  it("times out each request at its own deadline, whatever order they were sent in", async () => {
    const { transport, peer } = await startedPeer();
    const timedOut: string[] = [];
    const track = (name: string, promise: Promise<unknown>) => rejection(promise).then(() => void timedOut.push(name));
    const slow = track("120 ms", peer.request("tools/call", {}, { timeoutMs: 120 }));
    const fast = track("20 ms", peer.request("tools/call", {}, { timeoutMs: 20 }));
    const answered = peer.request("tools/list", {}, { timeoutMs: 10 });
    transport.deliver({ jsonrpc: "2.0", id: 3, result: {} });
    await answered;
    await fast;
    expect(timedOut).toEqual(["20 ms"]);
    await slow;
    expect(timedOut).toEqual(["20 ms", "120 ms"]);
    expect(transport.notifications().map((n) => n.params?.requestId)).toEqual([2, 1]);
  });

  it("fails every waiting request at once with the transport's reason when the connection dies, and says so once", async () => {
    const { transport, peer, closes } = await startedPeer();
    const waiting = [1, 2, 3].map(() => rejection(peer.request("tools/call", {})));
    const reason = new McpError("closed", "the server exited with code 3 (signal none); stderr: boom", { server: "srv" });
    transport.die(reason);
    transport.die(new McpError("closed", "again"));
    expect(await Promise.all(waiting)).toEqual([reason, reason, reason]);
    expect(await rejection(peer.request("tools/list", {}))).toBe(reason);
    expect(transport.requests()).toHaveLength(3);
    expect(closes).toEqual([reason]);
  });

  it("wraps a plain Error from the transport's onClose into a closed McpError naming the server", async () => {
    const { transport, peer } = await startedPeer();
    const waiting = rejection(peer.request("tools/list", {}));
    transport.die(new Error("pipe burst"));
    expect(summary(await waiting)).toEqual({ kind: "closed", message: "pipe burst", server: "srv" });
  });

  it("fails only the request whose send rejected, with that error", async () => {
    const broken = new McpError("broken", "the event stream ended before the response", { server: "srv" });
    const { peer } = await startedPeer({ answer: (request) => (request.method === "tools/call" ? { sendFails: broken } : { result: { ok: true } }) });
    const call = rejection(peer.request("tools/call", {}));
    const list = peer.request("tools/list", {});
    expect(await call).toBe(broken);
    expect(await list).toEqual({ ok: true });
  });

  it("fails exactly the request whose exchange failed after the server took it, and keeps the connection", async () => {
    const { transport, peer, closes } = await startedPeer();
    const failing = rejection(peer.request("tools/call", {}));
    const other = peer.request("tools/list", {});
    transport.failRequest(1, new McpError("broken", "the event stream broke before the response to request 1", { server: "srv" }));
    transport.deliver({ jsonrpc: "2.0", id: 2, result: { ok: true } });
    expect([summary(await failing), await other, closes]).toEqual([
      { kind: "broken", message: "the event stream broke before the response to request 1", server: "srv" },
      { ok: true },
      [],
    ]);
  });

  it("rejects an aborted request at once and sends notifications/cancelled for it", async () => {
    const { transport, peer } = await startedPeer();
    const controller = new AbortController();
    const call = rejection(peer.request("tools/call", {}, { signal: controller.signal }));
    controller.abort();
    expect(summary(await call)).toEqual({ kind: "aborted", message: "tools/call was aborted", server: "srv" });
    expect(transport.notifications()).toEqual([cancelled(1, "aborted by the client")]);
  });

  it("gives up a request on a transport that cancels by closing its stream by aborting its send, sending nothing", async () => {
    const { transport, peer } = await startedPeer({ cancellation: "close-stream" });
    const controller = new AbortController();
    const call = rejection(peer.request("tools/call", {}, { signal: controller.signal, timeoutMs: 60_000 }));
    const timedOut = rejection(peer.request("tools/list", {}, { timeoutMs: 5 }));
    controller.abort();
    expect([summary(await call), summary(await timedOut)]).toEqual([
      { kind: "aborted", message: "tools/call was aborted", server: "srv" },
      { kind: "timeout", message: "tools/list timed out after 5 ms", server: "srv" },
    ]);
    expect(transport.signals().map((signal) => [signal?.aborted, signal?.reason instanceof McpError && signal.reason.kind])).toEqual([
      [true, "aborted"],
      [true, "timeout"],
    ]);
    expect(transport.notifications()).toEqual([]);
  });

  it("does not send a request whose signal is already aborted", async () => {
    const { transport, peer } = await startedPeer();
    const error = await rejection(peer.request("tools/call", {}, { signal: AbortSignal.abort() }));
    expect(summary(error)).toEqual({ kind: "aborted", message: "tools/call was aborted", server: "srv" });
    expect(transport.sent).toEqual([]);
  });

  it("closes once: pending requests fail, the transport is closed a single time, and onClose is not called", async () => {
    const { transport, peer, closes } = await startedPeer();
    const waiting = rejection(peer.request("tools/call", {}));
    const first = peer.close();
    expect(peer.close()).toBe(first);
    await first;
    transport.die(new Error("the transport's own close"));
    expect(summary(await waiting)).toEqual({ kind: "closed", message: "connection closed", server: "srv" });
    expect({ closeCalls: transport.closeCalls(), closes }).toEqual({ closeCalls: 1, closes: [] });
  });

  it("passes the transport's warnings on", async () => {
    const { transport, warnings } = await startedPeer();
    transport.warn("ignoring a line on stdout that is not JSON-RPC");
    expect(warnings).toEqual(["ignoring a line on stdout that is not JSON-RPC"]);
  });

  it("fails later requests with the start error when the transport cannot start", async () => {
    const transport = createInMemoryTransport({ label: "srv" });
    const unreachable = new McpError("unreachable", "cannot start `nope`: command not found (ENOENT)", { server: "srv" });
    const peer = createPeer({
      transport: { ...transport, start: () => Promise.reject(unreachable) },
      requestTimeoutMs: 1000,
      onNotification: () => undefined,
    });
    expect(await rejection(peer.start())).toBe(unreachable);
    expect(await rejection(peer.request("tools/list", {}))).toBe(unreachable);
  });
});

describe("createPeer answering the server", () => {
  it("sends onRequest's result or error back under the server's own id", async () => {
    const { transport, warnings } = await startedPeer({}, { onRequest: (request) => (request.method === "ping" ? { result: {} } : { error: { code: -32601, message: "no" } }) });
    transport.deliver({ jsonrpc: "2.0", id: "s-1", method: "ping", params: {} });
    transport.deliver({ jsonrpc: "2.0", id: 7, method: "roots/list", params: {} });
    expect({ sent: transport.sent, warnings }).toEqual({
      sent: [
        { jsonrpc: "2.0", id: "s-1", result: {} },
        { jsonrpc: "2.0", id: 7, error: { code: -32601, message: "no" } },
      ],
      warnings: [],
    });
  });

  it("sends an answer that takes a while once it is ready, under the request's id, while other messages flow", async () => {
    let ready: (answer: { result: JsonObject }) => void = () => undefined;
    const later = new Promise<{ result: JsonObject }>((resolve) => {
      ready = resolve;
    });
    const { transport, notifications } = await startedPeer({}, { onRequest: () => later });
    transport.deliver({ jsonrpc: "2.0", id: 3, method: "elicitation/create", params: {} });
    transport.deliver({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "still here" } });
    expect({ sent: [...transport.sent], notifications: notifications.length }).toEqual({ sent: [], notifications: 1 });
    ready({ result: { action: "accept", content: { name: "Ada" } } });
    await later;
    await Promise.resolve();
    expect(transport.sent).toEqual([{ jsonrpc: "2.0", id: 3, result: { action: "accept", content: { name: "Ada" } } }]);
  });

  it("leaves a request unanswered, with a warning, when there is no answer for it", async () => {
    const { transport, warnings, notifications } = await startedPeer({}, { onRequest: () => undefined });
    transport.deliver({ jsonrpc: "2.0", id: 1, method: "sampling/createMessage", params: {} });
    transport.deliver({ jsonrpc: "2.0", id: 5, method: "roots/list", params: {} });
    expect({ sent: transport.sent, warnings, notifications }).toEqual({
      sent: [],
      warnings: ["ignoring a request from the server (sampling/createMessage)", "ignoring a request from the server (roots/list)"],
      notifications: [],
    });
  });
});

describe("createPeer closing", () => {
  it("drops a server's request that arrives as it closes, and an answer that can no longer go out, without a warning", async () => {
    let ready: (answer: { result: JsonObject }) => void = () => undefined;
    const later = new Promise<{ result: JsonObject }>((resolve) => {
      ready = resolve;
    });
    const { transport, peer, warnings } = await startedPeer({}, { onRequest: () => later });
    transport.deliver({ jsonrpc: "2.0", id: "s-1", method: "roots/list", params: {} });
    await peer.close();
    transport.deliver({ jsonrpc: "2.0", id: "s-2", method: "roots/list", params: {} });
    ready({ result: { roots: [] } });
    await later;
    await new Promise((resolve) => setImmediate(resolve));
    expect({ warnings, sent: transport.sent }).toEqual({ warnings: [], sent: [] });
  });
});

describe("createPeer.notify", () => {
  it("sends a notification without an id, with params only when given", async () => {
    const { transport, peer } = await startedPeer();
    await peer.notify("notifications/initialized");
    await peer.notify("notifications/roots/list_changed", { reason: "test" });
    expect(transport.sent).toEqual([
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", method: "notifications/roots/list_changed", params: { reason: "test" } },
    ]);
  });

  it("fails with the connection's reason once it is dead", async () => {
    const { transport, peer } = await startedPeer();
    const reason = new McpError("closed", "the server exited with code 2", { server: "srv" });
    transport.die(reason);
    expect(await rejection(peer.notify("notifications/initialized"))).toBe(reason);
    expect(transport.sent).toEqual([]);
  });
});

describe("createNotificationRouter", () => {
  const progress = (progressToken: unknown): JsonRpcNotification => ({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken, progress: 1 } });
  const log: JsonRpcNotification = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } };
  const listChanged: JsonRpcNotification = { jsonrpc: "2.0", method: "notifications/tools/list_changed" };
  function recorder() {
    const seen: JsonRpcNotification[] = [];
    return { seen, listener: (n: JsonRpcNotification) => void seen.push(n) };
  }

  it("sends progress to the call whose token matches, and other tokens to the client-wide listener", () => {
    const everyone = recorder();
    const call = recorder();
    const router = createNotificationRouter(everyone.listener);
    router.attach({ progressToken: "mca-1", wantsLogs: false }, call.listener);
    router.route(progress("mca-1"));
    router.route(progress("mca-2"));
    router.route(progress(1));
    expect(call.seen).toEqual([progress("mca-1")]);
    expect(everyone.seen).toEqual([progress("mca-2"), progress(1)]);
  });

  it("sends log messages to every call in flight that asked for them, else to the client-wide listener", () => {
    const everyone = recorder();
    const first = recorder();
    const second = recorder();
    const router = createNotificationRouter(everyone.listener);
    const detach = router.attach({ wantsLogs: true }, first.listener);
    router.attach({ wantsLogs: true }, second.listener);
    router.route(log);
    detach();
    router.route(log);
    expect([first.seen, second.seen, everyone.seen]).toEqual([[log], [log, log], []]);
  });

  it("sends everything else to the client-wide listener", () => {
    const everyone = recorder();
    const call = recorder();
    const router = createNotificationRouter(everyone.listener);
    router.attach({ progressToken: "mca-1", wantsLogs: true }, call.listener);
    router.route(listChanged);
    expect([call.seen, everyone.seen]).toEqual([[], [listChanged]]);
  });

  it("sends a subscription's notifications, which name its request id, to it alone, and drops those of one that is over", () => {
    const everyone = recorder();
    const subscription = recorder();
    const router = createNotificationRouter(everyone.listener);
    const ofListen = (id: unknown): JsonRpcNotification => ({ ...listChanged, params: { _meta: { "io.modelcontextprotocol/subscriptionId": id } } });
    const detach = router.attachListen(4, subscription.listener);
    router.route(ofListen(4));
    router.route(ofListen(5));
    detach();
    router.route(ofListen(4));
    router.route(listChanged);
    expect([subscription.seen, everyone.seen]).toEqual([[ofListen(4)], [listChanged]]);
  });

  it("stops sending a call's progress once it is detached", () => {
    const everyone = recorder();
    const call = recorder();
    const router = createNotificationRouter(everyone.listener);
    router.attach({ progressToken: 7, wantsLogs: false }, call.listener)();
    router.route(progress(7));
    expect([call.seen, everyone.seen]).toEqual([[], [progress(7)]]);
  });
});
