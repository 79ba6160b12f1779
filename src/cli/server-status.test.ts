import { describe, expect, it } from "vitest";
import { formatServerStatus, NO_SERVERS_MESSAGE } from "./server-status.js";

describe("formatServerStatus", () => {
  it("says when no server is configured", () => {
    expect(formatServerStatus([])).toEqual([NO_SERVERS_MESSAGE]);
  });

  it("shows each server with its error and stderr tail indented", () => {
    expect(
      formatServerStatus([
        { alias: "notes", transport: "stdio", state: "connected", protocolVersion: "2026-07-28", tools: 3, error: null, stderrTail: "" },
        { alias: "tickets", transport: "http", state: "failed", protocolVersion: null, tools: 0, error: "connection refused", stderrTail: null },
        { alias: "old", transport: "stdio", state: "disconnected", protocolVersion: "2025-11-25", tools: 2, error: "exited with code 1", stderrTail: "boom\nbang\n" },
      ]),
    ).toEqual([
      "notes  stdio  connected  protocol 2026-07-28  3 tools",
      "tickets  http  failed  protocol -  0 tools",
      "  error: connection refused",
      "old  stdio  disconnected  protocol legacy 2025-11-25  2 tools",
      "  error: exited with code 1",
      "  stderr| boom",
      "  stderr| bang",
    ]);
  });
});
