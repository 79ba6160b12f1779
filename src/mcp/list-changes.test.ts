import { describe, expect, it } from "vitest";
import { McpError, type JsonObject, type JsonRpcNotification } from "./jsonrpc.js";
import { changingLists, createCoalescer, LISTEN_STABLE_MS, openListSubscription, type ListKind, type ListenDeps } from "./list-changes.js";

const note = (method: string, params?: JsonObject): JsonRpcNotification => (params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
const ack = (notifications: JsonObject): JsonRpcNotification => note("notifications/subscriptions/acknowledged", { notifications });
const toolsChanged = note("notifications/tools/list_changed");
const broken = (): McpError => new McpError("broken", "the event stream broke before the response to request 3", { server: "notes" });

/** One listen request as the fake server plays it: what it sends, then how it ends. */
type Attempt = { readonly send: readonly JsonRpcNotification[]; readonly end: "result" | McpError | "hold" };

/** A scripted `listen`: each request plays the next attempt; records the params, the sleeps and what the subscription heard. */
function scripted(attempts: readonly Attempt[]) {
  const params: JsonObject[] = [];
  const slept: number[] = [];
  const changes: ListKind[] = [];
  const warnings: string[] = [];
  let held: ((value: JsonObject) => void) | undefined;
  const deps: ListenDeps = {
    listen: (sent, onNotification, signal) => {
      params.push(sent);
      const attempt = attempts[params.length - 1];
      if (attempt === undefined) return Promise.reject(new Error("no more attempts scripted"));
      for (const notification of attempt.send) onNotification(notification);
      if (attempt.end === "result") return Promise.resolve({ resultType: "complete" });
      if (attempt.end instanceof McpError) return Promise.reject(attempt.end);
      return new Promise((resolve, reject) => {
        held = resolve;
        signal.addEventListener("abort", () => reject(new McpError("aborted", "subscriptions/listen was aborted", { server: "notes" })), { once: true });
      });
    },
    onChange: (kind) => void changes.push(kind),
    warn: (message) => void warnings.push(message),
    sleep: async (ms) => void slept.push(ms),
  };
  return { deps, params, slept, changes, warnings, endHeld: () => held?.({ resultType: "complete" }) };
}

describe("changingLists", () => {
  it("names the lists whose capability declares listChanged true, and only those", () => {
    expect(changingLists({ tools: { listChanged: true }, prompts: { listChanged: false }, resources: { subscribe: true, listChanged: true }, logging: {} })).toEqual([
      "tools",
      "resources",
    ]);
  });
});

describe("openListSubscription", () => {
  it("asks for exactly the kinds given, records the filter the server acknowledged, and passes each change on", async () => {
    const server = scripted([{ send: [ack({ toolsListChanged: true }), toolsChanged, note("notifications/prompts/list_changed"), note("notifications/message")], end: "hold" }]);
    const subscription = openListSubscription(["tools", "prompts"], server.deps);
    expect({ params: server.params, accepted: subscription.accepted(), changes: server.changes }).toEqual({
      params: [{ notifications: { toolsListChanged: true, promptsListChanged: true } }],
      accepted: ["tools"],
      changes: ["tools", "prompts"],
    });
    subscription.close();
    await subscription.ended;
    expect({ requests: server.params.length, warnings: server.warnings }).toEqual({ requests: 1, warnings: [] });
  });

  it("takes a graceful end (a result) as final: nothing is opened again", async () => {
    const server = scripted([{ send: [ack({ toolsListChanged: true })], end: "hold" }]);
    const subscription = openListSubscription(["tools"], server.deps);
    server.endHeld();
    await subscription.ended;
    expect({ requests: server.params.length, slept: server.slept, warnings: server.warnings }).toEqual({ requests: 1, slept: [], warnings: [] });
  });

  it("opens it again after a drop, waiting 1, 2 and 4 s, then gives up with one warning", async () => {
    const server = scripted([1, 2, 3, 4].map(() => ({ send: [], end: broken() })));
    await openListSubscription(["tools"], server.deps).ended;
    expect({ requests: server.params.length, slept: server.slept, warnings: server.warnings }).toEqual({
      requests: 4,
      slept: [1000, 2000, 4000],
      warnings: ["stopped listening for changes to its lists after 4 drops in a row: the event stream broke before the response to request 3"],
    });
  });

  it("counts drops afresh after a stream that stayed open a minute", async () => {
    const dropAfterAck: Attempt = { send: [ack({ toolsListChanged: true }), toolsChanged], end: broken() };
    const server = scripted([dropAfterAck, dropAfterAck, dropAfterAck, dropAfterAck, { send: [], end: "result" }]);
    // Each stream is seen to last LISTEN_STABLE_MS: the clock moves that far between its opening and its drop.
    let clock = 0;
    const subscription = openListSubscription(["tools"], { ...server.deps, now: () => (clock += LISTEN_STABLE_MS) });
    await subscription.ended;
    expect({ requests: server.params.length, slept: server.slept, changes: server.changes.length, warnings: server.warnings }).toEqual({
      requests: 5,
      slept: [1000, 1000, 1000, 1000],
      changes: 4,
      warnings: [],
    });
  });

  it("keeps counting the drops of streams that are acknowledged and drop at once, and gives up", async () => {
    const dropAfterAck: Attempt = { send: [ack({ toolsListChanged: true })], end: broken() };
    const server = scripted([dropAfterAck, dropAfterAck, dropAfterAck, dropAfterAck, { send: [], end: "result" }]);
    await openListSubscription(["tools"], { ...server.deps, now: () => 0 }).ended;
    expect({ requests: server.params.length, slept: server.slept, warnings: server.warnings }).toEqual({
      requests: 4,
      slept: [1000, 2000, 4000],
      warnings: ["stopped listening for changes to its lists after 4 drops in a row: the event stream broke before the response to request 3"],
    });
  });

  it("says why when the subscription ends on an error that is not the server's", async () => {
    const server = scripted([]);
    await openListSubscription(["tools"], server.deps).ended;
    expect(server.warnings).toEqual(["stopped listening for changes to its lists: no more attempts scripted"]);
  });

  it("has no subscription, and says nothing, when the server does not know subscriptions/listen (-32601)", async () => {
    const server = scripted([{ send: [], end: new McpError("server", "Method not found (code -32601)", { server: "notes", code: -32601 }) }]);
    await openListSubscription(["tools"], server.deps).ended;
    expect({ requests: server.params.length, warnings: server.warnings }).toEqual({ requests: 1, warnings: [] });
  });

  it("does not open it again when the connection itself ended: whoever restarts the server subscribes anew", async () => {
    const server = scripted([{ send: [], end: new McpError("closed", "connection closed", { server: "notes" }) }]);
    await openListSubscription(["tools"], server.deps).ended;
    expect({ requests: server.params.length, slept: server.slept, warnings: server.warnings }).toEqual({ requests: 1, slept: [], warnings: [] });
  });
});

describe("createCoalescer", () => {
  it("runs a burst of requests as one run in flight and one queued", async () => {
    const gates: (() => void)[] = [];
    let runs = 0;
    const relist = createCoalescer(async () => {
      runs += 1;
      await new Promise<void>((resolve) => gates.push(resolve));
    });
    const burst = [relist(), relist(), relist(), relist()];
    gates.shift()?.();
    await burst[0];
    await Promise.resolve();
    gates.shift()?.();
    await Promise.all(burst);
    expect({ runs, waiting: gates.length }).toEqual({ runs: 2, waiting: 0 });
  });
});
