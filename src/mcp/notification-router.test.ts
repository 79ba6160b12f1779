import { describe, expect, it } from "vitest";
import type { JsonRpcNotification } from "./jsonrpc.js";
import { createNotificationRouter } from "./notification-router.js";

const progress = (progressToken: unknown): JsonRpcNotification => ({
  jsonrpc: "2.0",
  method: "notifications/progress",
  params: { progressToken, progress: 1 },
});
const log: JsonRpcNotification = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } };
const listChanged: JsonRpcNotification = { jsonrpc: "2.0", method: "notifications/tools/list_changed" };

function recorder() {
  const seen: JsonRpcNotification[] = [];
  return { seen, listener: (n: JsonRpcNotification) => seen.push(n) };
}

describe("createNotificationRouter", () => {
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

  it("stops sending a call's progress once it is detached", () => {
    const everyone = recorder();
    const call = recorder();
    const router = createNotificationRouter(everyone.listener);
    router.attach({ progressToken: 7, wantsLogs: false }, call.listener)();
    router.route(progress(7));
    expect([call.seen, everyone.seen]).toEqual([[], [progress(7)]]);
  });
});
