import { describe, expect, it } from "vitest";
import { statusLines } from "./session-status.js";
import type { ServerStatus } from "./mcp-servers.js";

const SERVER: ServerStatus = { alias: "notes\u001b[31m", transport: "stdio", state: "connected", protocolVersion: "2026-07-28", tools: 2, error: null, stderrTail: null };

describe("statusLines", () => {
  it("names the model, the context against the window, each server's state and the session", () => {
    const agent = { contextUse: () => ({ tokens: 12_345, estimated: false }) };
    const model = { answering: { name: "claude-x" } };
    expect(statusLines({ agent, servers: { statuses: () => [SERVER] }, model, id: "20261202-100000-1", projectDir: "/p" })).toEqual([
      "model: claude-x",
      "context: 12,345 tokens at the last request (of 200,000)",
      "MCP servers: notes\\u001b[31m connected",
      "session: 20261202-100000-1 · project /p",
    ]);
  });

  it("says when no request was made yet, and when no server is configured", () => {
    expect(statusLines({ agent: { contextUse: () => null }, servers: { statuses: () => [] }, model: { answering: { name: "mock" } }, id: "s-1", projectDir: "/p" })).toEqual([
      "model: mock",
      "context: no request yet (or none since the last /clear or compaction)",
      "MCP servers: none",
      "session: s-1 · project /p",
    ]);
  });
});
