import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mountConfig, type MountedConfig } from "./test-support/mount-config.js";
import { referenceTools, type ReferenceTool } from "./test-support/reference-tools.js";
import { filesystemStdio } from "./test-support/third-party-servers.js";

/** @modelcontextprotocol/server-filesystem 2026.8.31 (2025-11-25, stdio), allowed one temporary folder. */
describe("server-filesystem over stdio, mounted from an mcpServers config", () => {
  let home = "";
  let shared = "";
  let mount: MountedConfig | undefined;
  let reference: ReferenceTool[] = [];

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), "mca-interop-filesystem-"));
    shared = join(home, "shared");
    await mkdir(shared);
    await writeFile(join(shared, "notes.txt"), "first line\nsecond line\n");
    reference = await referenceTools({ kind: "stdio", ...filesystemStdio(shared) });
    mount = await mountConfig(home, { files: filesystemStdio(shared) });
  });

  afterAll(async () => {
    await mount?.mounted.close();
    await rm(home, { recursive: true, force: true });
  });

  function mounted(): MountedConfig {
    if (mount === undefined) throw new Error("the server was not mounted");
    return mount;
  }

  it("connects as a legacy 2025-11-25 server", () => {
    expect(mounted().mounted.statuses()).toMatchObject([
      { alias: "files", transport: "stdio", state: "connected", protocolVersion: "2025-11-25", tools: reference.length, error: null },
    ]);
  });

  it("mounts every tool the official SDK client lists, with the same input schemas", () => {
    const byName = new Map(mounted().mounted.tools.map((tool) => [tool.originalName, tool.inputSchema]));
    expect(reference.length).toBeGreaterThan(5);
    expect(mounted().toolNames("files")).toEqual(reference.map((tool) => tool.name).sort());
    for (const tool of reference) expect({ name: tool.name, inputSchema: byName.get(tool.name) }).toEqual(tool);
  });

  it("reads a file with a read-only call", async () => {
    expect(await mounted().call("mcp__files__read_text_file", { path: join(shared, "notes.txt") })).toEqual({
      text: "first line\nsecond line\n",
      isError: false,
    });
  });

  it("writes a file with a call that carries arguments", async () => {
    const path = join(shared, "written.txt");
    expect(await mounted().call("mcp__files__write_file", { path, content: "written by mca ✓" })).toEqual({
      text: `Successfully wrote to ${path}`,
      isError: false,
    });
    expect(await readFile(path, "utf8")).toBe("written by mca ✓");
  });

  it("surfaces the server's refusal of a path outside its folder as an error with its text", async () => {
    const result = await mounted().call("mcp__files__read_text_file", { path: join(home, "mcp.config.json") });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("Access denied - path outside allowed directories");
  });
});
