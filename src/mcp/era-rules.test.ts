import { describe, expect, it } from "vitest";
import { createLegacyRules, createModernRules, type ListHearing } from "./era-rules.js";
import type { LegacyLifecycle } from "./legacy-lifecycle.js";
import type { ListKind } from "./list-changes.js";

const META = Object.freeze({ "io.modelcontextprotocol/protocolVersion": "2026-07-28" });
const modern = createModernRules({ meta: () => META, logLevel: "info" });
const lifecycle: LegacyLifecycle = {
  initialize: () => Promise.reject(new Error("not in these tests")),
  renewSession: () => Promise.resolve(),
  sessionRenewals: () => 0,
};

function legacy(speaksAgreedVersion: boolean) {
  return createLegacyRules({ server: "old", lifecycle, speaksAgreedVersion: () => speaksAgreedVersion, modern });
}

/** Which way a rule chose to hear list changes. */
function hearingOf(watch: (onChange: (kind: ListKind) => void, hearing: ListHearing) => void): string[] {
  const ways: string[] = [];
  watch(() => undefined, { byNotification: () => ways.push("notification"), bySubscription: () => ways.push("subscription") });
  return ways;
}

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

describe("createLegacyRules", () => {
  it("sends a request with the 2026 _meta unless it speaks the version initialize agreed, and then only a progress token", () => {
    expect([legacy(false).withMeta({}, undefined, "info"), legacy(true).withMeta({ a: 1 }, undefined, "info"), legacy(true).withMeta({ _meta: { k: "v" } }, "mca-2", "info")]).toEqual([
      { _meta: META },
      { a: 1 },
      { _meta: { k: "v", progressToken: "mca-2" } },
    ]);
  });

  it("answers ping, hears list changes by notification, and watches lists that way", () => {
    const rules = legacy(true);
    expect([
      rules.answer({ jsonrpc: "2.0", id: 1, method: "ping", params: {} }, ""),
      rules.listChangeOf({ jsonrpc: "2.0", method: "notifications/prompts/list_changed" }),
      hearingOf(rules.watchLists),
    ]).toEqual([{ result: {} }, "prompts", ["notification"]]);
  });

  it("mends only a lost session", async () => {
    expect(await legacy(true).recover(new Error("not a lost session"))).toBe(false);
  });
});
