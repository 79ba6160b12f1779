import { realpathSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { unusedLoopbackUrl } from "../mcp/test-support/scripted-http-server.js";
import { scriptedStdioServer } from "../mcp/test-support/scripted-stdio-server.js";
import { parseMcpConfig } from "../config/index.js";
import { configNoticeLines, formatServerStatus, NO_SERVERS_MESSAGE, type ServerStatus } from "./mcp-servers.js";
import { createTempProject, type TempProject } from "./test-support/run-cli.js";

const SECRET = "sekrit-4be1d2c3a9";
describe("mca with mcp.config.json", () => {
  let project: TempProject;

  async function writeConfig(text: string): Promise<void> {
    await writeFile(join(project.dir, "mcp.config.json"), text);
  }

  beforeEach(async () => {
    project = await createTempProject();
    const good = scriptedStdioServer();
    await writeConfig(
      JSON.stringify({
        mcpServers: {
          good: { command: good.command, args: good.args },
          down: { type: "http", url: await unusedLoopbackUrl(), headers: { Authorization: `Bearer ${SECRET}` } },
        },
      }),
    );
  });

  afterEach(async () => {
    await project.remove();
  });

  it("mounts the servers that come up, reports the one that failed before the first prompt, and names it in a call", async () => {
    const run = await project.run(["--trust-project", "--allow", "mcp__*"], "/tools\n/mcp\n/call mcp__down__search {}\n");
    expect(run.stdout).toContain("mcp__good__alpha");
    expect(run.stdout).toMatch(/down\s+http\s+failed/);
    expect(run.stdout).toMatch(/MCP server "down" is not available: it failed to start: .*cannot reach/);
    expect(run.stderr).toMatch(/^mcp: down \(http\) failed: cannot reach http:\/\/127\.0\.0\.1:\d+\/mcp: connection refused$/m);
    expect(run.stdout + run.stderr).not.toContain(SECRET);
    expect(run.code).toBe(1);
  });

  it("/mcp reconnect restarts one server and the next lines see the tools it lists now", async () => {
    const changing = scriptedStdioServer(`--tools-from=${join(project.dir, "tools.txt")}`);
    await writeFile(join(project.dir, "tools.txt"), "echo\nold_tool\n");
    await writeConfig(JSON.stringify({ mcpServers: { changing: { command: changing.command, args: changing.args } } }));
    const rewrite = JSON.stringify({ command: "printf 'echo\\nnew_tool\\n' > tools.txt" });
    const lines = ["/tools", `/call bash ${rewrite}`, "/mcp reconnect changing", "/tools", "/mcp reconnect nope"];
    const run = await project.run(["--trust-project", "--allow", "bash"], `${lines.join("\n")}\n`);
    const [before, after] = run.stdout.split(/^changing {2}stdio {2}connected .*$/mu);
    expect(before).toContain("mcp__changing__old_tool");
    expect(before).not.toContain("mcp__changing__new_tool");
    expect(after).toContain("mcp__changing__new_tool");
    expect(after).not.toContain("mcp__changing__old_tool");
    expect(run.stdout).toContain("  tools: echo, new_tool");
    expect(run.stderr).toContain('no MCP server "nope" in');
    expect(run.code).toBe(1);
  });

  it("lists each server's health as JSON", async () => {
    const run = await project.run(["mcp", "list", "--json", "--trust-project"], "");
    const servers = JSON.parse(run.stdout) as Array<Record<string, unknown>>;
    expect(servers.map(({ alias, transport, state, protocolVersion, tools }) => ({ alias, transport, state, protocolVersion, tools }))).toEqual([
      { alias: "good", transport: "stdio", state: "connected", protocolVersion: "2026-07-28", tools: 3 },
      { alias: "down", transport: "http", state: "failed", protocolVersion: null, tools: 0 },
    ]);
    expect(run.code).toBe(0);
  });

  it("mounts as many tools of a server as the user's mcp.maxToolsPerServer allows, and says so once", async () => {
    await mkdir(join(project.home, ".config", "mca"), { recursive: true });
    await writeFile(join(project.home, ".config", "mca", "settings.json"), '{"mcp": {"maxToolsPerServer": 2}}');
    const run = await project.run(["mcp", "list", "--json", "--trust-project"], "");
    const servers = JSON.parse(run.stdout) as Array<Record<string, unknown>>;
    expect(servers.map(({ alias, tools }) => ({ alias, tools }))).toEqual([
      { alias: "good", tools: 2 },
      { alias: "down", tools: 0 },
    ]);
    expect(run.stderr).toContain("mcp: good: lists 3 tools: 2 are mounted and the rest are not, since one server offers at most 2");
  });

  it("starts the usable servers of a config copied from other hosts, warns of what it does not apply, and lets no tool run unasked", async () => {
    const copied = scriptedStdioServer();
    await writeConfig(
      JSON.stringify(
        {
          mcpServers: {
            desktop: { command: copied.command, args: copied.args, alwaysAllow: ["alpha"], description: "from Claude Desktop" },
            cursor: { command: copied.command, args: copied.args, disabled: true },
            gemini: { httpUrl: await unusedLoopbackUrl(), trust: true },
            cline: { type: "websocket", url: "ws://127.0.0.1:1/" },
          },
        },
        null,
        2,
      ),
    );
    const run = await project.run(["--trust-project"], "/tools\n/mcp\n/call mcp__desktop__alpha {}\n");
    const file = join(realpathSync(project.dir), "mcp.config.json");
    const warnings = run.stderr.split("\n").filter((line) => line.startsWith(`mcp: ${file}:`));
    expect(warnings).toEqual([
      `mcp: ${file}:8:7: mcpServers.desktop.alwaysAllow: not applied: a config file never lets a tool run without asking; to let that tool run without asking, start mca with --allow mcp__desktop__alpha`,
      `mcp: ${file}:11:7: mcpServers.desktop.description: unknown field, ignored (mca reads: type, timeoutMs, timeout, startupTimeoutMs, logLevel, roots, enabled, disabled, includeTools, enabled_tools, tools, excludeTools, disabled_tools, disabledTools, alwaysAllow, autoApprove, trust, command, args, env, inheritEnv, pidNamespace, cwd, maxLineBytes)`,
      `mcp: ${file}:22:7: mcpServers.gemini.trust: not applied: a config file never lets a tool run without asking; to let every tool of "gemini" run without asking, start mca with --allow 'mcp__gemini__*'`,
      `mcp: ${file}:25:15: mcpServers.cline.type: must be one of "stdio", "http", "streamable-http", "streamableHttp", "sse", "local" (so server "cline" is skipped; the others start)`,
    ]);
    expect(run.stdout).toMatch(/^mcp__desktop__alpha\s+desktop\s+ask$/m);
    expect(run.stdout).not.toContain("mcp__cursor__");
    expect(run.stdout).toContain("cursor  stdio  disabled  protocol -  0 tools");
    expect(run.stderr).toMatch(/^mcp: gemini \(http\) failed: cannot reach http:\/\/127\.0\.0\.1:\d+\/mcp: connection refused$/m);
    expect(run.stderr).toContain("not run: mcp__desktop__alpha needs approval and there is no terminal to ask on");
  });

  it.each([
    ["names one alias twice", '{"mcpServers": {"twice": {"command": "a"}, "twice": {"command": "b"}}}', "mcp.config.json:1:44: mcpServers.twice: duplicate alias"],
    ["is not JSON", '{"mcpServers": {"a": {"command": "a"}}', "mcp.config.json:1:39: invalid JSON"],
  ])("refuses a config that %s, naming the file and the place, with exit 2 and no server started", async (_name, text, error) => {
    await writeConfig(text);
    const run = await project.run(["tools", "--trust-project"], "");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(error);
    expect(run.stdout).toBe("");
  });
});

describe("configNoticeLines", () => {
  it("shows each warning and skipped entry of the config, escaping what the file wrote", () => {
    const text = JSON.stringify({ mcpServers: { "evil\u001b[2J": { type: "websocket", url: "http://a/" }, ok: { command: "x", autoApprove: ["wipe\u0007"] } } });
    const config = parseMcpConfig(text, "mcp.config.json", {});
    if (config instanceof Error) throw config;
    expect(configNoticeLines(config)).toEqual([
      "mcp: mcp.config.json:1:91: mcpServers.ok.autoApprove: not applied: a config file never lets a tool run without asking; " +
        "to let that tool run without asking, start mca with --allow 'mcp__ok__wipe\\u0007'",
      'mcp: mcp.config.json:1:40: mcpServers["evil\\u001b[2J"].type: must be one of "stdio", "http", "streamable-http", "streamableHttp", "sse", "local" ' +
        '(so server "evil\\u001b[2J" is skipped; the others start)',
    ]);
  });
});

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

  it("says when the old HTTP+SSE transport was chosen because an http URL answered as that one does", () => {
    const status: ServerStatus = { alias: "hosted", transport: "sse", state: "connected", protocolVersion: "2025-06-18", tools: 4, error: null, stderrTail: null };
    expect(formatServerStatus([status, { ...status, alias: "detected", transportDetected: true }])).toEqual([
      "hosted  sse  connected  protocol legacy 2025-06-18  4 tools",
      "detected  sse (legacy, detected)  connected  protocol legacy 2025-06-18  4 tools",
    ]);
  });

  it("shows a server's URL, its tools, its last log messages and how often its lost session was renewed", () => {
    const status: ServerStatus = { alias: "docs", transport: "http", state: "connected", protocolVersion: "2025-11-25", tools: 1, error: null, stderrTail: null };
    expect(formatServerStatus([{ ...status, recentLogs: ["info: indexing", "warning db: slow"], sessionRenewals: 2, endpoint: "https://docs.example/mcp", toolNames: ["lookup"] }])).toEqual([
      "docs  http  connected  protocol legacy 2025-11-25  1 tools",
      "  url: https://docs.example/mcp",
      "  tools: lookup",
      "  session renewed 2× (the server had lost it)",
      "  log| info: indexing",
      "  log| warning db: slow",
    ]);
  });
});
