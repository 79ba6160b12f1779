import { describe, expect, it } from "vitest";
import { createLegacyRules } from "./legacy-client.js";
import type { LegacyLifecycle } from "./legacy-lifecycle.js";
import { createModernRules } from "./modern-client.js";
import { hearingOf } from "./test-support/list-hearing.js";

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
