import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../kernel/index.js";
import type { JsonRpcMessage } from "../jsonrpc.js";
import { buildRequestHeaders, type ParamHeaderSpec, paramHeaderValues, readParamHeaderSpecs, userHeaders } from "./headers.js";

function objectSchema(properties: Record<string, unknown>): JsonSchema {
  return { type: "object", properties };
}

function reason(schema: JsonSchema): string {
  const specs = readParamHeaderSpecs(schema);
  return specs instanceof Error ? specs.message : "valid";
}

describe("readParamHeaderSpecs", () => {
  it("reads a valid annotation (conformance valid_tool)", () => {
    const schema = objectSchema({ region: { type: "string", "x-mcp-header": "Region" }, query: { type: "string" } });
    expect(readParamHeaderSpecs(schema)).toEqual([{ header: "Region", path: ["region"], type: "string" }]);
  });

  it("reads string, integer and boolean annotations, nested through properties only", () => {
    const schema = objectSchema({
      priority: { type: "integer", "x-mcp-header": "Priority" },
      verbose: { type: "boolean", "x-mcp-header": "Verbose" },
      location: { type: "object", properties: { zone: { type: "string", "x-mcp-header": "Zone" } } },
    });
    expect(readParamHeaderSpecs(schema)).toEqual([
      { header: "Priority", path: ["priority"], type: "integer" },
      { header: "Verbose", path: ["verbose"], type: "boolean" },
      { header: "Zone", path: ["location", "zone"], type: "string" },
    ]);
  });

  it("returns no specs for a schema without annotations", () => {
    expect(readParamHeaderSpecs({ type: "object", additionalProperties: false })).toEqual([]);
  });

  it("does not mistake a property named x-mcp-header, or data values, for an annotation", () => {
    const schema = objectSchema({
      "x-mcp-header": { type: "string" },
      mode: { type: "object", default: { "x-mcp-header": "Mode" }, const: { "x-mcp-header": "Mode" } },
    });
    expect(readParamHeaderSpecs(schema)).toEqual([]);
  });

  const invalid: ReadonlyArray<readonly [string, JsonSchema, string]> = [
    [
      "an empty name (invalid_empty_header)",
      objectSchema({ region: { type: "string", "x-mcp-header": "" } }),
      'property "region": x-mcp-header is empty',
    ],
    [
      "an object property (invalid_object_header)",
      objectSchema({ filter: { type: "object", "x-mcp-header": "Filter" } }),
      'property "filter": x-mcp-header "Filter" is on a property of type "object" (only string, integer or boolean)',
    ],
    [
      "an array property (invalid_array_header)",
      objectSchema({ tags: { type: "array", items: { type: "string" }, "x-mcp-header": "Tags" } }),
      'property "tags": x-mcp-header "Tags" is on a property of type "array" (only string, integer or boolean)',
    ],
    [
      "a null property (invalid_null_header)",
      objectSchema({ nothing: { type: "null", "x-mcp-header": "Nothing" } }),
      'property "nothing": x-mcp-header "Nothing" is on a property of type "null" (only string, integer or boolean)',
    ],
    [
      "a number property",
      objectSchema({ ratio: { type: "number", "x-mcp-header": "Ratio" } }),
      'property "ratio": x-mcp-header "Ratio" is on a property of type "number" (only string, integer or boolean)',
    ],
    [
      "a property without a type",
      objectSchema({ any: { "x-mcp-header": "Any" } }),
      'property "any": x-mcp-header "Any" is on a property of no type (only string, integer or boolean)',
    ],
    [
      "the same name twice (invalid_duplicate_same_case)",
      objectSchema({
        a: { type: "string", "x-mcp-header": "Region" },
        b: { type: "string", "x-mcp-header": "Region" },
      }),
      'property "b": x-mcp-header "Region" duplicates "Region" of property "a"',
    ],
    [
      "names equal but for case (invalid_duplicate_diff_case)",
      objectSchema({
        a: { type: "string", "x-mcp-header": "MyField" },
        b: { type: "string", "x-mcp-header": "myfield" },
      }),
      'property "b": x-mcp-header "myfield" duplicates "MyField" of property "a"',
    ],
    [
      "a space in the name (invalid_space_in_name)",
      objectSchema({ region: { type: "string", "x-mcp-header": "My Region" } }),
      'property "region": x-mcp-header "My Region" is not a valid header token',
    ],
    [
      "a colon in the name (invalid_colon_in_name)",
      objectSchema({ region: { type: "string", "x-mcp-header": "Region:Primary" } }),
      'property "region": x-mcp-header "Region:Primary" is not a valid header token',
    ],
    [
      "a non-ASCII name (invalid_non_ascii_name)",
      objectSchema({ region: { type: "string", "x-mcp-header": "Région" } }),
      'property "region": x-mcp-header "Région" is not a valid header token',
    ],
    [
      "a control character in the name (invalid_control_char_name)",
      objectSchema({ region: { type: "string", "x-mcp-header": "Region\t1" } }),
      'property "region": x-mcp-header "Region\\t1" is not a valid header token',
    ],
    [
      "a name that is not a string",
      objectSchema({ region: { type: "string", "x-mcp-header": 7 } }),
      'property "region": x-mcp-header is not a string',
    ],
    [
      "an annotation under items",
      objectSchema({ list: { type: "array", items: { type: "string", "x-mcp-header": "Item" } } }),
      'x-mcp-header "Item" at /properties/list/items is not reachable from the root through properties only',
    ],
    [
      "an annotation under anyOf",
      { type: "object", anyOf: [{ properties: { region: { type: "string", "x-mcp-header": "Region" } } }] },
      'x-mcp-header "Region" at /anyOf/0/properties/region is not reachable from the root through properties only',
    ],
    [
      "an annotation under $defs",
      { type: "object", $defs: { r: { type: "string", "x-mcp-header": "Region" } } },
      'x-mcp-header "Region" at /$defs/r is not reachable from the root through properties only',
    ],
    [
      "an annotation on the root",
      { type: "object", "x-mcp-header": "Root" },
      'x-mcp-header "Root" at / is not reachable from the root through properties only',
    ],
  ];

  for (const [what, schema, message] of invalid) {
    it(`rejects ${what}`, () => {
      expect(reason(schema)).toBe(message);
    });
  }
});

describe("paramHeaderValues", () => {
  const specs: readonly ParamHeaderSpec[] = [
    { header: "Region", path: ["region"], type: "string" },
    { header: "Priority", path: ["priority"], type: "integer" },
    { header: "Verbose", path: ["verbose"], type: "boolean" },
    { header: "Zone", path: ["location", "zone"], type: "string" },
  ];

  it("stringifies strings as they are, integers as decimals and booleans as true/false", () => {
    const args = { region: "Hello, 世界", priority: -42, verbose: false, location: { zone: "" } };
    expect(paramHeaderValues(specs, args)).toEqual([
      { name: "Region", value: "Hello, 世界" },
      { name: "Priority", value: "-42" },
      { name: "Verbose", value: "false" },
      { name: "Zone", value: "" },
    ]);
  });

  it("omits absent and null arguments", () => {
    expect(paramHeaderValues(specs, { region: null, verbose: true, location: {} })).toEqual([
      { name: "Verbose", value: "true" },
    ]);
  });

  it("omits values no annotation allows: objects, fractions and unsafe integers", () => {
    expect(paramHeaderValues(specs, { region: { a: 1 }, priority: 2 ** 53, location: { zone: 1.5 } })).toEqual([]);
  });
});

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };

function headersFor(message: JsonRpcMessage): Record<string, string> {
  return buildRequestHeaders({
    message,
    protocolVersion: "2026-07-28",
    paramHeaders: [],
    sessionId: undefined,
    userHeaders: {},
    contentLength: 10,
  });
}

describe("buildRequestHeaders", () => {
  it("sends Mcp-Name with params.name for tools/call, sentinel-encoded when not plain ASCII", () => {
    const message: JsonRpcMessage = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "grüße", _meta: META } };
    expect(headersFor(message)).toEqual({
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "Content-Length": "10",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "tools/call",
      "Mcp-Name": "=?base64?Z3LDvMOfZQ==?=",
    });
  });

  it("sends Mcp-Name with params.uri for resources/read and params.name for prompts/get", () => {
    const read: JsonRpcMessage = { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "file:///a%20b.txt" } };
    const prompt: JsonRpcMessage = { jsonrpc: "2.0", id: 2, method: "prompts/get", params: { name: "review" } };
    expect(headersFor(read)["Mcp-Name"]).toBe("file:///a%20b.txt");
    expect(headersFor(prompt)["Mcp-Name"]).toBe("review");
  });

  it("sends no Mcp-Name for other methods, even when params has a name", () => {
    const message: JsonRpcMessage = { jsonrpc: "2.0", id: 1, method: "tools/list", params: { name: "x", _meta: META } };
    expect(Object.keys(headersFor(message))).not.toContain("Mcp-Name");
  });

  it("adds Mcp-Param-* values, the session id and the user's headers", () => {
    const message: JsonRpcMessage = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "t" } };
    const headers = buildRequestHeaders({
      message,
      protocolVersion: "2026-07-28",
      paramHeaders: [
        { name: "Region", value: " padded " },
        { name: "Priority", value: "42" },
      ],
      sessionId: "abc",
      userHeaders: userHeaders({ Authorization: "Bearer t", "mcp-method": "forged", "MCP-PARAM-Region": "x" }),
      contentLength: 5,
    });
    expect(headers).toEqual({
      Authorization: "Bearer t",
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "Content-Length": "5",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "tools/call",
      "Mcp-Name": "t",
      "Mcp-Param-Region": "=?base64?IHBhZGRlZCA=?=",
      "Mcp-Param-Priority": "42",
      "Mcp-Session-Id": "abc",
    });
  });
});
