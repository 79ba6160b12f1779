import { describe, expect, it } from "vitest";
import { createLocalTools } from "./index.js";

describe("createLocalTools", () => {
  const tools = createLocalTools("/tmp/project");

  it("offers the six local tools with their kinds, all from source local", () => {
    expect(tools.map((tool) => [tool.name, tool.kind, tool.source, tool.originalName])).toEqual([
      ["read_file", "read", "local", "read_file"],
      ["write_file", "write", "local", "write_file"],
      ["edit_file", "write", "local", "edit_file"],
      ["list_dir", "read", "local", "list_dir"],
      ["search", "read", "local", "search"],
      ["bash", "exec", "local", "bash"],
    ]);
  });

  it("names the changed file only for the tools that write", () => {
    expect(tools.filter((tool) => tool.changes !== undefined).map((tool) => tool.name)).toEqual([
      "write_file",
      "edit_file",
    ]);
  });

  it("gives every tool an object schema whose required arguments are declared properties", () => {
    for (const tool of tools) {
      const { type, properties, required } = tool.inputSchema;
      expect(type).toBe("object");
      const declared = Object.keys(typeof properties === "object" && properties !== null ? properties : {});
      for (const name of Array.isArray(required) ? required : []) expect(declared).toContain(name);
    }
  });
});
