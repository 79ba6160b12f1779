import { describe, expect, it } from "vitest";
import { clientJobs } from "./scenarios.js";

describe("clientJobs", () => {
  it("runs a scenario once at each version it applies to, and an extension forced at the newest", () => {
    const listing = [
      "Client scenarios (test against a client):",
      "  - tools_call [2025-06-18,2025-11-25,2026-07-28]",
      "  - auth/2025-03-26-oauth-endpoint-fallback [2025-03-26]",
      "  - auth/dpop [extension]",
      "",
    ].join("\n");
    expect(clientJobs(listing)).toEqual([
      { scenario: "tools_call", specVersion: "2025-06-18", forced: false },
      { scenario: "tools_call", specVersion: "2025-11-25", forced: false },
      { scenario: "tools_call", specVersion: "2026-07-28", forced: false },
      { scenario: "auth/2025-03-26-oauth-endpoint-fallback", specVersion: "2025-03-26", forced: false },
      { scenario: "auth/dpop", specVersion: "2026-07-28", forced: true },
    ]);
  });

  it("refuses a tag it does not know, so that a new kind of scenario is not silently skipped", () => {
    expect(clientJobs("  - x [draft-only]")).toEqual(new Error('the runner lists x with "draft-only", neither versions nor "extension"'));
  });

  it("refuses an empty list", () => {
    expect(clientJobs("Client scenarios (test against a client):\n")).toEqual(new Error("the runner listed no client scenarios"));
  });
});
