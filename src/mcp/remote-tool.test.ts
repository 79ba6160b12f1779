import { describe, expect, it } from "vitest";
import { parseRemoteTool } from "./remote-tool.js";

describe("parseRemoteTool", () => {
  it("keeps every field verbatim, schemas included", () => {
    const tool = {
      name: "search",
      title: "Search",
      description: "Finds notes",
      inputSchema: { type: "object", $defs: { q: { type: "string" } }, properties: { q: { $ref: "#/$defs/q" } } },
      outputSchema: true,
      annotations: { readOnlyHint: true },
      _meta: { "com.example/x": 1 },
    };
    const parsed = parseRemoteTool(tool);
    expect(parsed).toEqual(tool);
    expect(parsed instanceof Error ? undefined : parsed.inputSchema).toBe(tool.inputSchema);
  });

  it("leaves out the fields a server did not send", () => {
    expect(parseRemoteTool({ name: "t", inputSchema: { type: "object" }, icons: [] })).toEqual({
      name: "t",
      inputSchema: { type: "object" },
    });
  });

  it("says what is wrong with a malformed tool", () => {
    expect(parseRemoteTool({ inputSchema: {} })).toEqual(new Error("a tool has no name"));
    expect(parseRemoteTool({ name: "t" })).toEqual(new Error('tool "t": `inputSchema` is not an object'));
    expect(parseRemoteTool({ name: "t", inputSchema: {}, annotations: [] })).toEqual(
      new Error('tool "t": `annotations` is not an object'),
    );
  });
});
