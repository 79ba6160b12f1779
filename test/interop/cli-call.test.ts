import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "../../src/cli/test-support/run-cli.js";
import { memoryStdio, sdkV2Stdio } from "./test-support/third-party-servers.js";

/** Pids of live processes whose environment names `text` (zombies count as gone). */
async function processesWithEnv(text: string): Promise<number[]> {
  const pids = (await readdir("/proc")).filter((name) => /^\d+$/.test(name));
  const found: number[] = [];
  for (const pid of pids) {
    try {
      const [environ, stat] = await Promise.all([readFile(`/proc/${pid}/environ`, "utf8"), readFile(`/proc/${pid}/stat`, "utf8")]);
      if (environ.includes(text) && !stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) found.push(Number(pid));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** `mca call` end to end: the real CLI mounts a legacy and a modern third-party server from --mcp-config. */
describe("mca call with third-party servers from --mcp-config", () => {
  let project: TempProject | undefined;
  let configFile = "";
  let memoryFile = "";

  beforeAll(async () => {
    project = await createTempProject();
    configFile = join(project.dir, "servers.json");
    memoryFile = join(project.dir, "memory.jsonl");
    const mcpServers = { memory: { ...memoryStdio(), env: { MEMORY_FILE_PATH: memoryFile } }, fixture: sdkV2Stdio() };
    await writeFile(configFile, JSON.stringify({ mcpServers }));
  });

  afterAll(async () => {
    await project?.remove();
  });

  async function mca(...args: string[]): Promise<{ code: number | null; json: unknown; stderr: string }> {
    if (project === undefined) throw new Error("no project");
    const run = await project.run([...args, "--mcp-config", configFile], "");
    return { code: run.code, json: JSON.parse(run.stdout), stderr: run.stderr };
  }

  it("calls a legacy server's tool with arguments, prints the result as JSON and leaves no server behind", async () => {
    const entities = [{ name: "mca", entityType: "project", observations: ["speaks two MCP eras"] }];
    const run = await mca("call", "mcp__memory__create_entities", JSON.stringify({ entities }), "--json", "--allow", "mcp__memory__create_entities");
    expect(run).toEqual({
      code: 0,
      json: {
        tool: "mcp__memory__create_entities",
        isError: false,
        text: JSON.stringify(entities, null, 2),
        truncated: false,
        approval: { decision: "allow", reason: 'rule "mcp__memory__create_entities" (allow) from --allow' },
      },
      stderr: "",
    });
    expect(await readFile(memoryFile, "utf8")).toContain('"name":"mca"');
    expect(await processesWithEnv(memoryFile)).toEqual([]);
  });

  it("reports a legacy server's error result with its text and exit status 1", async () => {
    const args = JSON.stringify({ observations: [{ entityName: "nobody", contents: ["x"] }] });
    const run = await mca("call", "mcp__memory__add_observations", args, "--json", "--allow", "mcp__memory__*");
    expect({ code: run.code, json: run.json }).toEqual({
      code: 1,
      json: {
        tool: "mcp__memory__add_observations",
        isError: true,
        text: "Entity with name nobody not found",
        truncated: false,
        approval: { decision: "allow", reason: 'rule "mcp__memory__*" (allow) from --allow' },
      },
    });
  });

  it("calls a 2026-07-28 server's tool and lists both servers with their eras", async () => {
    const [call, list] = await Promise.all([
      mca("call", "mcp__fixture__multiply", '{"a":6,"b":7}', "--json", "--allow", "mcp__fixture__multiply"),
      mca("mcp", "list", "--json"),
    ]);
    expect({ code: call.code, json: call.json }).toMatchObject({ code: 0, json: { isError: false, text: "6 x 7 = 42" } });
    expect(list.json).toMatchObject([
      { alias: "memory", transport: "stdio", state: "connected", protocolVersion: "2025-11-25", tools: 9, error: null },
      { alias: "fixture", transport: "stdio", state: "connected", protocolVersion: "2026-07-28", tools: 3, error: null },
    ]);
  });
});
