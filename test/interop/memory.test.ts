import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mountForSuite } from "./test-support/suite-mount.js";
import { memoryStdio } from "./test-support/third-party-servers.js";

/** @modelcontextprotocol/server-memory 2026.8.31 (2025-11-25, stdio), its knowledge graph in a temporary file. */
describe("server-memory over stdio, mounted from an mcpServers config", () => {
  let memoryFile = "";

  const { mounted, reference } = mountForSuite({
    folderPrefix: "mca-interop-memory-",
    alias: "memory",
    start: async (folder) => {
      memoryFile = join(folder, "memory.jsonl");
      return {
        entry: { ...memoryStdio(), env: { MEMORY_FILE_PATH: memoryFile } },
        reference: { kind: "stdio", ...memoryStdio(), env: { MEMORY_FILE_PATH: join(folder, "reference.jsonl") } },
        close: async () => undefined,
      };
    },
  });

  it("connects as a legacy 2025-11-25 server", () => {
    expect(mounted().mounted.statuses()).toMatchObject([
      { alias: "memory", transport: "stdio", state: "connected", protocolVersion: "2025-11-25", tools: reference().length, error: null },
    ]);
  });

  it("mounts every tool the official SDK client lists, with the same input schemas", () => {
    const byName = new Map(mounted().mounted.tools.map((tool) => [tool.originalName, tool.inputSchema]));
    expect(reference().length).toBeGreaterThan(5);
    expect(mounted().toolNames("memory")).toEqual(reference().map((tool) => tool.name).sort());
    for (const tool of reference()) expect({ name: tool.name, inputSchema: byName.get(tool.name) }).toEqual(tool);
  });

  it("reads the empty graph with a read-only call", async () => {
    expect(await mounted().call("mcp__memory__read_graph", {})).toEqual({
      text: JSON.stringify({ entities: [], relations: [] }, null, 2),
      isError: false,
    });
  });

  it("creates an entity with a call that carries arguments, into the configured memory file", async () => {
    const entity = { name: "mca", entityType: "project", observations: ["speaks two MCP eras"] };
    expect(await mounted().call("mcp__memory__create_entities", { entities: [entity] })).toEqual({
      text: JSON.stringify([entity], null, 2),
      isError: false,
    });
    expect(await readFile(memoryFile, "utf8")).toContain('"name":"mca"');
  });

  it("surfaces the server's error result as an error with its text", async () => {
    const result = await mounted().call("mcp__memory__add_observations", { observations: [{ entityName: "nobody", contents: ["x"] }] });
    expect(result).toEqual({ text: "Entity with name nobody not found", isError: true });
  });
});
