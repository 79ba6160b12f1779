import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mountForSuite, stdioSuiteServer } from "./test-support/suite-mount.js";
import { filesystemStdio } from "./test-support/third-party-servers.js";

/** @modelcontextprotocol/server-filesystem 2026.8.31 (2025-11-25, stdio), allowed one temporary folder. */
describe("server-filesystem over stdio, mounted from an mcpServers config", () => {
  let home = "";
  let shared = "";

  const { mounted, reference } = mountForSuite({
    folderPrefix: "mca-interop-filesystem-",
    alias: "files",
    start: async (folder) => {
      home = folder;
      shared = join(home, "shared");
      await mkdir(shared);
      await writeFile(join(shared, "notes.txt"), "first line\nsecond line\n");
      return stdioSuiteServer(filesystemStdio(shared));
    },
  });

  it("connects as a legacy 2025-11-25 server", () => {
    expect(mounted().mounted.statuses()).toMatchObject([
      { alias: "files", transport: "stdio", state: "connected", protocolVersion: "2025-11-25", tools: reference().length, error: null },
    ]);
  });

  it("mounts every tool the official SDK client lists, with the same input schemas", () => {
    const byName = new Map(mounted().mounted.tools.map((tool) => [tool.originalName, tool.inputSchema]));
    expect(reference().length).toBeGreaterThan(5);
    expect(mounted().toolNames("files")).toEqual(reference().map((tool) => tool.name).sort());
    for (const tool of reference()) expect({ name: tool.name, inputSchema: byName.get(tool.name) }).toEqual(tool);
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
