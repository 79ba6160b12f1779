import { describe, expect, it } from "vitest";
import { createModernRules } from "./modern-client.js";
import { hearingOf } from "./test-support/list-hearing.js";

const META = Object.freeze({ "io.modelcontextprotocol/protocolVersion": "2026-07-28" });
const modern = createModernRules({ meta: () => META, logLevel: "info" });

describe("createModernRules", () => {
  it("puts the connection's _meta on a plain request, and a copy with the caller's keys, a progress token and another log level otherwise", () => {
    expect([
      modern.withMeta({ name: "t" }, undefined, "info"),
      modern.withMeta({ _meta: { traceparent: "00-1" } }, "mca-1", "debug"),
    ]).toEqual([
      { name: "t", _meta: META },
      { _meta: { traceparent: "00-1", ...META, progressToken: "mca-1", "io.modelcontextprotocol/logLevel": "debug" } },
    ]);
  });

  it("answers no request of the server's, hears no list change by notification, mends no failure, and watches lists by subscription", async () => {
    const request = { jsonrpc: "2.0" as const, id: 1, method: "ping", params: {} };
    const notification = { jsonrpc: "2.0" as const, method: "notifications/tools/list_changed" };
    expect([modern.answer(request, ""), modern.listChangeOf(notification), await modern.recover(new Error("x")), hearingOf(modern.watchLists)]).toEqual([
      undefined,
      undefined,
      false,
      ["subscription"],
    ]);
  });
});
