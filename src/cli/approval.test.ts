import { describe, expect, it } from "vitest";
import type { Tool } from "../kernel/index.js";
import { toolClaims } from "./approval.js";

const tool = (annotations?: Record<string, unknown>): Tool => ({
  name: "mcp__t__x",
  description: "",
  inputSchema: { type: "object" },
  kind: "remote",
  source: "t",
  originalName: "x",
  ...(annotations === undefined ? {} : { annotations }),
  run: async () => ({ text: "", isError: false }),
});

describe("toolClaims", () => {
  it("names each hint that departs from the spec's default and marks the whole as not trusted", () => {
    expect(toolClaims(tool({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }))).toBe(
      "server says: read-only, not destructive, idempotent, closed world (not trusted)",
    );
  });

  it("says nothing for a tool without annotations or with only default values", () => {
    expect(toolClaims(tool())).toBe("");
    expect(toolClaims(tool({ readOnlyHint: false, destructiveHint: true, title: "X" }))).toBe("");
  });
});
