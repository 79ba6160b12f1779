import { describe, expect, it } from "vitest";
import { buildRequestMeta } from "./wire.js";
import type { JsonRpcMessage } from "./jsonrpc.js";
import { isLegacyVersion, messageProtocolVersion, pickMutualVersion, readSupportedVersions } from "./versions.js";

describe("pickMutualVersion", () => {
  it("keeps the current version when the server offers it", () => {
    expect(pickMutualVersion(["2099-01-01", "2026-07-28"], "2026-07-28")).toBe("2026-07-28");
  });

  it("finds a version both sides support", () => {
    expect(pickMutualVersion(["2026-07-28"], "2099-01-01")).toBe("2026-07-28");
  });

  it("finds none when the server offers only versions this client does not speak", () => {
    expect(pickMutualVersion(["2099-01-01", "2025-11-25"], "2026-07-28")).toBeUndefined();
  });
});

describe("readSupportedVersions", () => {
  it("reads data.supported of a -32022 error", () => {
    expect(readSupportedVersions({ supported: ["2026-07-28"], requested: "x" })).toEqual(["2026-07-28"]);
  });

  it("refuses anything else", () => {
    expect([readSupportedVersions(undefined), readSupportedVersions({ supported: "2026-07-28" }), readSupportedVersions({ supported: [1] })]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe("isLegacyVersion", () => {
  it("takes every dated version before 2026-07-28 for legacy, known to mca or not", () => {
    expect(["2025-11-25", "2024-11-05", "2023-01-01", "2026-07-28", "2099-01-01", "draft"].map(isLegacyVersion)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});

describe("messageProtocolVersion", () => {
  it("reads the version from params._meta", () => {
    const meta = buildRequestMeta({ protocolVersion: "2026-07-28", clientCapabilities: {}, clientVersion: "1" });
    expect(messageProtocolVersion({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } })).toBe("2026-07-28");
  });

  it("reads the requested version of a legacy initialize", () => {
    const initialize: JsonRpcMessage = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25" } };
    expect(messageProtocolVersion(initialize)).toBe("2025-11-25");
  });

  it("is undefined for a message that names no version", () => {
    expect(messageProtocolVersion({ jsonrpc: "2.0", method: "notifications/initialized" })).toBeUndefined();
    expect(messageProtocolVersion({ jsonrpc: "2.0", id: 1, result: {} })).toBeUndefined();
  });
});
