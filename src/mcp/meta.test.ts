import { describe, expect, it } from "vitest";
import { buildRequestMeta, withMeta } from "./meta.js";

describe("buildRequestMeta", () => {
  it("carries the protocol version, the client capabilities and the client info", () => {
    expect(buildRequestMeta({ protocolVersion: "2026-07-28", clientCapabilities: {}, clientVersion: "0.15.0" })).toEqual({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "mca", version: "0.15.0" },
    });
  });

  it("adds a progress token and a log level only when asked", () => {
    expect(
      buildRequestMeta({
        protocolVersion: "2026-07-28",
        clientCapabilities: { elicitation: {} },
        clientVersion: "1.0.0",
        progressToken: "mca-1",
        logLevel: "warning",
      }),
    ).toEqual({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
      "io.modelcontextprotocol/clientInfo": { name: "mca", version: "1.0.0" },
      progressToken: "mca-1",
      "io.modelcontextprotocol/logLevel": "warning",
    });
  });

  it("builds a fresh capabilities object for every request", () => {
    const clientCapabilities = { elicitation: {} };
    const meta = buildRequestMeta({ protocolVersion: "2026-07-28", clientCapabilities, clientVersion: "1" });
    expect(meta["io.modelcontextprotocol/clientCapabilities"]).not.toBe(clientCapabilities);
  });
});

describe("withMeta", () => {
  it("puts _meta inside params, keeping the caller's own keys and overriding the reserved ones", () => {
    expect(withMeta({ name: "t", _meta: { traceparent: "00-ab", progressToken: 1 } }, { progressToken: 2 })).toEqual({
      name: "t",
      _meta: { traceparent: "00-ab", progressToken: 2 },
    });
  });
});
