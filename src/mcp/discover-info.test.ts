import { describe, expect, it } from "vitest";
import { parseDiscoverResult } from "./discover-info.js";

describe("parseDiscoverResult", () => {
  it("reads versions, capabilities, instructions and the identity in _meta", () => {
    expect(
      parseDiscoverResult(
        {
          resultType: "complete",
          supportedVersions: ["2026-07-28"],
          capabilities: { tools: {} },
          instructions: "Be kind.",
          ttlMs: 0,
          cacheScope: "public",
          _meta: { "io.modelcontextprotocol/serverInfo": { name: "notes", version: "1.0.0", title: "Notes" } },
        },
        "2026-07-28",
      ),
    ).toEqual({
      protocolVersion: "2026-07-28",
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: {} },
      instructions: "Be kind.",
      serverInfo: { name: "notes", version: "1.0.0", title: "Notes" },
    });
  });

  it("tolerates the identity in the body, as the conformance mocks send it", () => {
    expect(
      parseDiscoverResult(
        { supportedVersions: ["2026-07-28"], capabilities: {}, serverInfo: { name: "mock", version: "0.1" } },
        "2026-07-28",
      ),
    ).toEqual({
      protocolVersion: "2026-07-28",
      supportedVersions: ["2026-07-28"],
      capabilities: {},
      serverInfo: { name: "mock", version: "0.1" },
    });
  });

  it("fails when no version is mutual", () => {
    expect(parseDiscoverResult({ supportedVersions: ["2025-11-25"], capabilities: {} }, "2026-07-28")).toEqual(
      new Error("no protocol version in common: the server supports 2025-11-25; mca supports 2026-07-28"),
    );
  });

  it("fails when supportedVersions is missing", () => {
    expect(parseDiscoverResult({ capabilities: {} }, "2026-07-28")).toEqual(
      new Error("`supportedVersions` is not a list of strings"),
    );
  });
});
