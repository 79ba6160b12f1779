import { describe, expect, it } from "vitest";
import { judgeDiscoverResult, judgeProbeFailure } from "./era-probe.js";
import { McpError } from "./errors.js";

const DISCOVER = { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, ttlMs: 0, cacheScope: "public" };

describe("judgeDiscoverResult", () => {
  it("takes a DiscoverResult with a mutual version for a modern server", () => {
    expect(judgeDiscoverResult(DISCOVER, "2026-07-28", "srv")).toEqual({
      era: "modern",
      info: { protocolVersion: "2026-07-28", supportedVersions: ["2026-07-28"], capabilities: { tools: {} } },
    });
  });

  it("takes a result without resultType for a legacy server, whatever else it says", () => {
    const { resultType: _dropped, ...legacyShaped } = DISCOVER;
    expect(judgeDiscoverResult(legacyShaped, "2026-07-28", "srv")).toEqual({
      era: "legacy",
      evidence: "server/discover answered a result without resultType",
      connectionLost: false,
    });
  });

  it("takes a result that is no DiscoverResult for a legacy server", () => {
    expect(judgeDiscoverResult({ resultType: "complete", hello: "world" }, "2026-07-28", "srv")).toEqual({
      era: "legacy",
      evidence: "server/discover answered something that is not a DiscoverResult (`supportedVersions` is not a list of strings)",
      connectionLost: false,
    });
  });

  it("takes a DiscoverResult listing only legacy versions for a legacy server", () => {
    expect(judgeDiscoverResult({ ...DISCOVER, supportedVersions: ["2025-11-25"] }, "2026-07-28", "srv")).toMatchObject({
      era: "legacy",
      evidence: "server/discover offered only 2025-11-25",
    });
  });

  it("fails on a DiscoverResult listing only modern versions mca does not speak", () => {
    const verdict = judgeDiscoverResult({ ...DISCOVER, supportedVersions: ["2027-01-01"] }, "2026-07-28", "srv");
    expect(verdict).toBeInstanceOf(McpError);
    expect(String(verdict)).toContain("srv: server/discover: no protocol version in common");
  });
});

describe("judgeProbeFailure", () => {
  const legacy = (evidence: string, connectionLost = false) => ({ era: "legacy", evidence, connectionLost });

  it("takes any JSON-RPC error code but -32022 for a legacy server", () => {
    for (const code of [-32601, -32602, -32600, -32000, -32002, -32020, -32021]) {
      expect(judgeProbeFailure(new McpError("server", "no", code), "http")).toEqual(legacy(`server/discover answered error ${code}`));
    }
  });

  it("keeps -32022 that offers a version mca speaks as an error: the server is modern", () => {
    const error = new McpError("server", "no", -32022, { supported: ["2026-07-28", "2025-11-25"], requested: "2026-07-28" });
    expect(judgeProbeFailure(error, "stdio")).toBe(error);
  });

  it("takes -32022 offering only legacy versions, or no readable list, for a legacy server", () => {
    expect(judgeProbeFailure(new McpError("server", "no", -32022, { supported: ["2025-06-18"], requested: "2026-07-28" }), "http")).toEqual(
      legacy("server/discover answered -32022 offering only 2025-06-18"),
    );
    expect(judgeProbeFailure(new McpError("server", "no", -32022, "?"), "http")).toEqual(
      legacy("server/discover answered -32022 without a list of supported versions"),
    );
  });

  it("takes an unreadable reply for a legacy server", () => {
    expect(judgeProbeFailure(new McpError("protocol", "srv: answered HTTP 404 with an empty body", undefined, undefined, 404), "http")).toEqual(
      legacy("server/discover got no modern answer: srv: answered HTTP 404 with an empty body"),
    );
  });

  it("takes silence and an exit for a legacy server on stdio only", () => {
    expect(judgeProbeFailure(new McpError("timeout", "srv: timed out"), "stdio")).toEqual(legacy("server/discover got no answer: srv: timed out"));
    expect(judgeProbeFailure(new McpError("closed", "srv exited"), "stdio")).toEqual(legacy("the server exited on server/discover: srv exited", true));
    const timeout = new McpError("timeout", "srv: timed out");
    const closed = new McpError("closed", "srv: closed");
    expect([judgeProbeFailure(timeout, "http"), judgeProbeFailure(closed, "http")]).toEqual([timeout, closed]);
  });

  it("keeps auth refusals, server failures and unreachable servers as errors", () => {
    const errors = [
      new McpError("protocol", "401", undefined, undefined, 401),
      new McpError("server", "403", -32000, undefined, 403),
      new McpError("protocol", "502", undefined, undefined, 502),
      new McpError("unreachable", "ECONNREFUSED"),
      new McpError("broken", "cut"),
      new McpError("aborted", "aborted"),
    ];
    for (const error of errors) expect(judgeProbeFailure(error, "http")).toBe(error);
  });
});
