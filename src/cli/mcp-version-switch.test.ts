import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { legacyStdioServer } from "../mcp/test-support/legacy-stdio-server.js";
import { createTempProject, type TempProject } from "./test-support/run-cli.js";

describe("/mcp after a server switched protocol version mid-session", () => {
  let project: TempProject;

  beforeEach(async () => {
    project = await createTempProject();
    // A legacy server that, after the handshake, answers a call with -32022 offering only 2026-07-28.
    const old = legacyStdioServer("--upgraded");
    await writeFile(join(project.dir, "mcp.config.json"), JSON.stringify({ mcpServers: { old: { command: old.command, args: old.args } } }));
  });

  afterEach(async () => {
    await project.remove();
  });

  it("shows the version the server's requests speak now, not the one agreed at start-up", async () => {
    const run = await project.run(["--trust-project", "--allow", "mcp__*"], '/mcp\n/call mcp__old__echo {"a":1}\n/mcp\n');
    const statusLines = run.stdout.split("\n").filter((line) => line.startsWith("old  stdio"));
    expect(statusLines).toEqual(["old  stdio  connected  protocol legacy 2025-11-25  2 tools", "old  stdio  connected  protocol 2026-07-28  2 tools"]);
    expect(run.stdout).toContain('{"a":1}');
    expect(run.code).toBe(0);
  });
});
