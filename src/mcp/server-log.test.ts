import { describe, expect, it } from "vitest";
import { createServerLog, isShownAsItComes, LOG_LEVELS, type ServerLogEntry } from "./server-log.js";

const redactSecret = (text: string): string => text.replaceAll("s3cret", "[redacted]");

describe("createServerLog", () => {
  it("hands on and keeps the messages at or above its level, redacted, and drops the rest", () => {
    const handed: ServerLogEntry[] = [];
    const log = createServerLog("db", "warning", redactSecret, (entry) => handed.push(entry));
    log.take({ level: "info", data: "connected" });
    log.take({ level: "error", logger: "pool", data: "login failed for s3cret" });
    log.take({ level: "warning", data: { retries: 3 } });
    log.take({ level: "loud", data: "not a level" });
    log.take({ level: "error" });
    expect(handed).toEqual([
      { alias: "db", level: "error", logger: "pool", text: "login failed for [redacted]" },
      { alias: "db", level: "warning", text: '{"retries":3}' },
    ]);
    expect(log.recent()).toEqual(["error pool: login failed for [redacted]", 'warning: {"retries":3}']);
  });

  it("keeps only the latest five, and cuts a long message", () => {
    const log = createServerLog("db", "debug", (text) => text);
    for (let n = 1; n <= 7; n += 1) log.take({ level: "info", data: `message ${n}` });
    expect(log.recent()).toEqual(["info: message 3", "info: message 4", "info: message 5", "info: message 6", "info: message 7"]);
    log.take({ level: "info", data: "x".repeat(600) });
    expect(log.recent().at(-1)).toBe(`info: ${"x".repeat(500)}…`);
  });

  it("keeps the latest 200 for /mcp logs, each on one line, while the status keeps five", () => {
    const log = createServerLog("db", "debug", (text) => text);
    for (let n = 1; n <= 205; n += 1) log.take({ level: n % 2 === 0 ? "debug" : "info", data: `message ${n}` });
    log.take({ level: "warning", logger: "pool", data: "first line\r\n  second line\n" });
    expect(log.kept()).toHaveLength(200);
    expect(log.kept().slice(0, 2)).toEqual(["info: message 7", "debug: message 8"]);
    expect(log.kept().at(-1)).toBe("warning pool: first line second line");
    expect(log.recent()).toEqual(log.kept().slice(-5));
  });
});

describe("isShownAsItComes", () => {
  it("shows a warning and above as it comes, and every level with --verbose", () => {
    expect(LOG_LEVELS.filter((level) => isShownAsItComes(level, false))).toEqual(["warning", "error", "critical", "alert", "emergency"]);
    expect(LOG_LEVELS.filter((level) => isShownAsItComes(level, true))).toEqual(LOG_LEVELS);
  });
});
