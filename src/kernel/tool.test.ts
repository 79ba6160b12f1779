import { describe, expect, it } from "vitest";
import { checkArgs } from "./tool.js";

const schema = {
  type: "object",
  properties: {
    path: { type: "string" },
    limit: { type: "integer" },
    ratio: { type: "number" },
    recursive: { type: "boolean" },
    tags: { type: "array", items: { type: "string" } },
    options: { type: "object" },
    note: { type: ["string", "null"] },
  },
  required: ["path"],
};

describe("checkArgs", () => {
  it("passes arguments that fit the schema", () => {
    expect(
      checkArgs(schema, { path: "a", limit: 3, ratio: 0.5, recursive: true, tags: ["x"], options: {}, note: null }),
    ).toBeNull();
  });

  it("names a missing required argument", () => {
    expect(checkArgs(schema, { limit: 3 })).toBe('missing required argument "path"');
  });

  it("names every property of the wrong primitive type", () => {
    expect(checkArgs(schema, { path: 1, limit: 1.5, recursive: "yes", tags: "x", note: 2 })).toBe(
      '"path" must be string, got integer; "limit" must be integer, got number; "recursive" must be boolean, got string; ' +
        '"tags" must be array, got string; "note" must be string or null, got integer',
    );
  });

  it("rejects arguments that are not an object", () => {
    expect(checkArgs(schema, ["a"])).toBe("arguments must be a JSON object, got array");
    expect(checkArgs(schema, null)).toBe("arguments must be a JSON object, got null");
  });

  it("leaves extra keys, nested schemas and unknown type names to the tool", () => {
    const loose = { type: "object", properties: { q: { $ref: "#/$defs/q" }, r: { type: "custom" } } };
    expect(checkArgs(loose, { q: 1, r: 2, extra: true })).toBeNull();
  });

  it("accepts anything object-shaped when the schema declares no properties", () => {
    expect(checkArgs({ type: "object", anyOf: [{ required: ["a"] }] }, {})).toBeNull();
  });
});
