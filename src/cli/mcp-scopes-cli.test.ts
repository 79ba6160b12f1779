// End to end through the real CLI: the user's, local and project scopes (`mca mcp list --json` compared
// whole), a project whose only servers are in Claude Code's .mcp.json, another host's project file named at
// start-up, and a limit on a real server's tools that is never widened.
import { mkdir, realpath, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUILT_NOTES_SERVER, createTempProject, type TempProject } from "./test-support/run-cli.js";

const notes = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ command: process.execPath, args: [BUILT_NOTES_SERVER], ...extra });

let project: TempProject;

beforeEach(async () => {
  project = await createTempProject();
});

afterEach(async () => {
  await project.remove();
});

const configDir = (): string => join(project.home, ".config", "mca");

async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(join(file, ".."), { recursive: true });
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** A server entry as `mca mcp list --json` shows one that came up (the notes server) or is disabled. */
function listed(alias: string, scope: string, file: string, state = "connected"): Record<string, unknown> {
  const up = state === "connected";
  return {
    alias,
    transport: "stdio",
    state,
    protocolVersion: up ? expect.any(String) : null,
    tools: up ? expect.any(Number) : 0,
    error: null,
    stderrTail: up ? expect.anything() : null,
    recentLogs: [],
    scope,
    file,
  };
}

describe("mca mcp list with scopes", () => {
  it("shows a server of the user scope in every project, with its scope and file", async () => {
    await writeJson(join(configDir(), "mcp.json"), { mcpServers: { notes: notes() } });
    const other = join(project.dir, "..", "other-project");
    await mkdir(other);
    await writeFile(join(other, ".git"), "");
    const here = await project.run(["mcp", "list", "--json"], "");
    const there = await project.runIn("../other-project", ["mcp", "list", "--json"], "");
    const expected = [listed("notes", "user", join(configDir(), "mcp.json"))];
    expect([here.code, JSON.parse(here.stdout)]).toEqual([0, expected]);
    expect([there.code, JSON.parse(there.stdout)]).toEqual([0, expected]);
    await rm(other, { recursive: true, force: true });
  });

  it("takes an alias from the narrowest scope that has it, saying so in one line, and reads the local store for this project only", async () => {
    const dir = await realpath(project.dir);
    await writeJson(join(configDir(), "mcp.json"), { mcpServers: { notes: notes(), spare: notes({ enabled: false }) } });
    await writeJson(join(configDir(), "local-mcp.json"), {
      projects: { [dir]: { mcpServers: { notes: notes({ disabled: true }) } }, "/elsewhere": { mcpServers: { stray: notes() } } },
    });
    const run = await project.run(["mcp", "list", "--json"], "");
    expect(JSON.parse(run.stdout)).toEqual([
      listed("notes", "local", join(configDir(), "local-mcp.json"), "disabled"),
      listed("spare", "user", join(configDir(), "mcp.json"), "disabled"),
    ]);
    expect(run.stderr).toBe(
      `mcp: server "notes": the local scope's entry (${join(configDir(), "local-mcp.json")}) is used, not the user scope's (${join(configDir(), "mcp.json")})\n`,
    );
  });

  it("names the files it looked at when no scope has a server", async () => {
    const run = await project.run(["mcp", "list"], "");
    expect(run).toEqual({
      code: 0,
      stdout: "no MCP servers configured (looked at ~/.config/mca/local-mcp.json, mcp.config.json, .mcp.json, ~/.config/mca/mcp.json)\n",
      stderr: "",
    });
  });
});

describe("a project whose servers are in .mcp.json", () => {
  it("starts none of them before the project is trusted, and starts them once it is", async () => {
    await writeJson(join(project.dir, ".mcp.json"), { mcpServers: { notes: notes() } });
    const before = await project.run(["mcp", "list", "--json"], "");
    expect(JSON.parse(before.stdout)).toEqual([]);
    expect(before.stderr).toMatch(/is not trusted: its MCP servers are not started/);
    const trust = await project.run(["trust"], "");
    expect(trust.stdout).toContain(".mcp.json would start these MCP servers:");
    const after = await project.run(["mcp", "list", "--json"], "");
    expect(JSON.parse(after.stdout)).toEqual([listed("notes", "project", join(await realpath(project.dir), ".mcp.json"))]);
  });
});

describe("another host's project file", () => {
  it("is named at start with the command that imports it, while mca does not have its servers", async () => {
    await writeJson(join(project.dir, ".cursor", "mcp.json"), { mcpServers: { notes: notes(), web: { url: "https://example.com/mcp" } } });
    const run = await project.run(["mcp", "list", "--json"], "");
    expect(run.stderr).toBe("mcp: .cursor/mcp.json has MCP servers mca does not read (notes, web): bring them in with `mca mcp import cursor`\n");
    await writeJson(join(configDir(), "mcp.json"), { mcpServers: { notes: notes({ enabled: false }), web: { url: "https://example.com/mcp", enabled: false } } });
    expect((await project.run(["mcp", "list", "--json"], "")).stderr).toBe("");
  });
});

describe("a limit on a server's tools", () => {
  it("is never widened: the notes server with excludeTools [\"search\"] offers no search", async () => {
    await writeJson(join(configDir(), "mcp.json"), { mcpServers: { notes: notes({ excludeTools: ["search"] }) } });
    const run = await project.run(["tools", "--json"], "");
    const names = (JSON.parse(run.stdout) as { name: string }[]).map((tool) => tool.name).filter((name) => name.startsWith("mcp__"));
    expect(names.length).toBeGreaterThan(0);
    expect(names).not.toContain("mcp__notes__search");
    expect(run.stderr).toBe("");
  });

  it("fails the entry, at its place, when a field looks like a limit mca does not know", async () => {
    await writeJson(join(configDir(), "mcp.json"), { mcpServers: { notes: notes({ allowedTools: ["search"] }) } });
    const run = await project.run(["tools", "--json"], "");
    expect((JSON.parse(run.stdout) as { name: string }[]).some((tool) => tool.name.startsWith("mcp__notes__"))).toBe(false);
    expect(run.stderr).toContain(`mcp: ${join(configDir(), "mcp.json")}:8:7: mcpServers.notes.allowedTools: looks like a limit on this server's tools`);
  });
});

describe("--mcp-config given more than once", () => {
  it("starts the servers of every file named, and only those", async () => {
    await writeJson(join(configDir(), "mcp.json"), { mcpServers: { mine: notes() } });
    await writeJson(join(project.dir, "a.json"), { mcpServers: { first: notes() } });
    await writeJson(join(project.dir, "b.json"), { mcpServers: { second: notes() } });
    const run = await project.run(["mcp", "list", "--json", "--mcp-config", "a.json", "--mcp-config", "b.json"], "");
    expect([run.code, (JSON.parse(run.stdout) as { alias: string; scope: string }[]).map(({ alias, scope }) => ({ alias, scope }))]).toEqual([
      0,
      [
        { alias: "first", scope: "flag" },
        { alias: "second", scope: "flag" },
      ],
    ]);
  });

  it("refuses one server named in two of them, naming both files, and starts nothing", async () => {
    await writeJson(join(project.dir, "a.json"), { mcpServers: { notes: notes() } });
    await writeJson(join(project.dir, "b.json"), { mcpServers: { notes: notes() } });
    const run = await project.run(["mcp", "list", "--json", "--mcp-config", "a.json", "--mcp-config", "b.json"], "");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`server "notes" is also in ${join(project.dir, "a.json")}`);
    expect(run.stderr).toContain(join(project.dir, "b.json"));
  });
});
