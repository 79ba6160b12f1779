import { describe, expect, it } from "vitest";
import { McpError } from "./errors.js";
import type { JsonObject } from "./jsonrpc.js";
import { parseInitializeResult, runLegacyHandshake } from "./legacy-handshake.js";

describe("parseInitializeResult", () => {
  it("reads the agreed version, capabilities, instructions and server info", () => {
    const result = {
      protocolVersion: "2025-11-25",
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: "everything", title: "Everything", version: "2.0.0" },
      instructions: "Try echo.",
    };
    expect(parseInitializeResult(result)).toEqual({
      protocolVersion: "2025-11-25",
      capabilities: { tools: { listChanged: true } },
      instructions: "Try echo.",
      serverInfo: { name: "everything", title: "Everything", version: "2.0.0" },
    });
  });

  it("accepts an older legacy version the server chose", () => {
    expect(parseInitializeResult({ protocolVersion: "2024-11-05" })).toEqual({ protocolVersion: "2024-11-05", capabilities: {} });
  });

  it("refuses a version mca cannot speak with initialize", () => {
    expect(parseInitializeResult({ protocolVersion: "2026-07-28", capabilities: {} })).toEqual(
      new Error("the server chose protocol version 2026-07-28; with initialize mca speaks 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05"),
    );
  });

  it("refuses a result without a version or with capabilities that are no object", () => {
    expect(parseInitializeResult({ capabilities: {} })).toEqual(new Error("`protocolVersion` is not a string"));
    expect(parseInitializeResult({ protocolVersion: "2025-11-25", capabilities: [] })).toEqual(new Error("`capabilities` is not an object"));
  });
});

describe("runLegacyHandshake", () => {
  it("sends initialize, then notifications/initialized once the answer is good", async () => {
    const sent: Array<[string, JsonObject | undefined]> = [];
    const channel = {
      request: async (method: string, params: JsonObject) => {
        sent.push([method, params]);
        return { protocolVersion: "2025-11-25", capabilities: {} };
      },
      notify: async (method: string) => {
        sent.push([method, undefined]);
      },
    };
    expect(await runLegacyHandshake(channel, "1.2.3", "srv")).toEqual({ protocolVersion: "2025-11-25", capabilities: {} });
    expect(sent).toEqual([
      ["initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "mca", version: "1.2.3" } }],
      ["notifications/initialized", undefined],
    ]);
  });

  it("does not send notifications/initialized after an answer it refuses", async () => {
    const notified: string[] = [];
    const channel = { request: async () => ({ protocolVersion: "1999-01-01" }), notify: async (method: string) => void notified.push(method) };
    const error: unknown = await runLegacyHandshake(channel, "1.2.3", "srv").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(String(error)).toContain("srv: initialize: the server chose protocol version 1999-01-01");
    expect(notified).toEqual([]);
  });
});
