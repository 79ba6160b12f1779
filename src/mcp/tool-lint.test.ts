import { describe, expect, it } from "vitest";
import type { RemoteToolInfo } from "./tool-list.js";
import { lintTools, withinOneEdit, type LintedServer } from "./tool-lint.js";

/** A definition with nothing to say about it; each test changes one thing. */
const CLEAN: RemoteToolInfo = {
  name: "find_notes",
  description: "Finds notes whose text contains the query.",
  inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  outputSchema: { type: "object", properties: { count: { type: "integer" } } },
  annotations: { readOnlyHint: true },
};

function one(tool: Partial<RemoteToolInfo>, alias = "docs"): LintedServer[] {
  return [{ alias, tools: [{ ...CLEAN, ...tool }] }];
}

/** `without` drops keys a spread cannot. */
function without(key: keyof RemoteToolInfo): RemoteToolInfo {
  const copy: Record<string, unknown> = { ...CLEAN };
  delete copy[key];
  return { name: CLEAN.name, inputSchema: CLEAN.inputSchema, ...copy };
}

describe("lintTools", () => {
  it("finds nothing in a clean definition", async () => {
    expect(await lintTools(one({}))).toEqual([]);
  });

  it("warns when mca had to sanitise a name the model API refuses", async () => {
    expect(await lintTools(one({ name: "find notes" }))).toEqual([
      {
        severity: "warning",
        check: "name-sanitised",
        server: "docs",
        tool: "find notes",
        message: "its name has characters outside [a-zA-Z0-9_-], which the model API refuses in a tool name: mca offers it as mcp__docs__find_notes",
      },
    ]);
  });

  it("warns when the flat name is past 64 characters and mca hash-suffixed it", async () => {
    const name = "x".repeat(70);
    const findings = await lintTools(one({ name }));
    expect(findings).toEqual([
      {
        severity: "warning",
        check: "name-suffixed",
        server: "docs",
        tool: name,
        message: expect.stringMatching(new RegExp(`^mcp__docs__x{70} is 81 characters, more than the 64 the model API accepts: mca offers it as mcp__docs__x{46}_[0-9a-f]{6}$`)),
      },
    ]);
  });

  it("warns when two names of one server are the same once sanitised", async () => {
    const findings = await lintTools([{ alias: "docs", tools: [{ ...CLEAN, name: "a_b" }, { ...CLEAN, name: "a.b" }] }]);
    expect(findings.map(({ check, tool, message }) => ({ check, tool, message }))).toEqual([
      { check: "name-suffixed", tool: "a_b", message: expect.stringMatching(/^another tool of this server has the same name once sanitised: mca offers it as mcp__docs__a_b_[0-9a-f]{6}$/) },
      { check: "name-sanitised", tool: "a.b", message: expect.stringMatching(/mca offers it as mcp__docs__a_b_[0-9a-f]{6}$/) },
      { check: "name-suffixed", tool: "a.b", message: expect.stringMatching(/^another tool of this server has the same name once sanitised: mca offers it as mcp__docs__a_b_[0-9a-f]{6}$/) },
    ]);
  });

  it("warns about a missing description", async () => {
    expect(await lintTools([{ alias: "docs", tools: [without("description")] }])).toEqual([
      { severity: "warning", check: "no-description", server: "docs", tool: "find_notes", message: "no description: the model has only the name to choose it by" },
    ]);
  });

  it("warns about a description past 2,000 characters, with its length", async () => {
    expect(await lintTools(one({ description: "d".repeat(2345) }))).toEqual([
      {
        severity: "warning",
        check: "long-description",
        server: "docs",
        tool: "find_notes",
        message: "its description is 2,345 characters (more than 2,000): every request carries all of it",
      },
    ]);
  });

  it("is an error when the input schema is not an object schema", async () => {
    expect(await lintTools(one({ inputSchema: { type: "string" } }))).toEqual([
      {
        severity: "error",
        check: "input-not-object",
        server: "docs",
        tool: "find_notes",
        message: 'its inputSchema is not an object schema (type "string"): the model API takes only "type": "object"',
      },
    ]);
  });

  it("is an error when `required` names a field `properties` does not define", async () => {
    expect(await lintTools(one({ inputSchema: { type: "object", properties: { query: {} }, required: ["query", "limit"] } }))).toEqual([
      {
        severity: "error",
        check: "required-not-in-properties",
        server: "docs",
        tool: "find_notes",
        message: 'its inputSchema requires "limit", not among its properties',
      },
    ]);
  });

  it("is an error when the input schema has oneOf, anyOf or allOf at its top level", async () => {
    expect(await lintTools(one({ inputSchema: { type: "object", anyOf: [{ required: ["a"] }, { required: ["b"] }] } }))).toEqual([
      {
        severity: "error",
        check: "input-top-level-combinator",
        server: "docs",
        tool: "find_notes",
        message: "its inputSchema has anyOf at the top level, which the model API refuses",
      },
    ]);
  });

  it("warns about the same name across servers once case, _ and - are ignored, on the tool of the later server", async () => {
    const findings = await lintTools([
      { alias: "docs", tools: [CLEAN] },
      { alias: "wiki", tools: [{ ...CLEAN, name: "findNotes" }] },
    ]);
    expect(findings).toEqual([
      {
        severity: "warning",
        check: "near-duplicate-name",
        server: "wiki",
        tool: "findNotes",
        message: 'its name is the same as, or one letter from, "find_notes" of "docs" (case, "_" and "-" ignored): the model may take one for the other',
      },
    ]);
  });

  it("warns about names one edit apart across servers, but not within one server or among short names", async () => {
    const findings = await lintTools([
      { alias: "docs", tools: [CLEAN, { ...CLEAN, name: "find_note" }, { ...CLEAN, name: "get" }] },
      { alias: "wiki", tools: [{ ...CLEAN, name: "find_nodes" }, { ...CLEAN, name: "set" }] },
    ]);
    expect(findings.map(({ server, tool, message }) => ({ server, tool, message: message.replace(/ \(case.*/u, "") }))).toEqual([
      { server: "wiki", tool: "find_nodes", message: 'its name is the same as, or one letter from, "find_notes" of "docs"' },
    ]);
  });

  it("is an error when the outputSchema does not compile", async () => {
    expect(await lintTools(one({ outputSchema: { type: "object", properties: { count: { type: "integer", minimum: "zero" } } } }))).toEqual([
      {
        severity: "error",
        check: "output-schema-invalid",
        server: "docs",
        tool: "find_notes",
        message: expect.stringMatching(/^its outputSchema cannot be compiled, so its results go unchecked: schema is invalid: /),
      },
    ]);
  });

  it("warns when the outputSchema is not an object schema", async () => {
    expect(await lintTools(one({ outputSchema: { type: "array" } }))).toEqual([
      {
        severity: "warning",
        check: "output-schema-not-object",
        server: "docs",
        tool: "find_notes",
        message: 'its outputSchema is not an object schema (type "array"): structured results are JSON objects',
      },
    ]);
  });

  it("notes a tool without annotations", async () => {
    expect(await lintTools([{ alias: "docs", tools: [without("annotations")] }])).toEqual([
      {
        severity: "info",
        check: "no-annotations",
        server: "docs",
        tool: "find_notes",
        message: "no annotations: every call asks anyway, but the model cannot tell read from write",
      },
    ]);
  });

  it("lists a tool's errors before its warnings and notes", async () => {
    const findings = await lintTools([{ alias: "docs", tools: [{ name: "x", inputSchema: { type: "string" } }] }]);
    expect(findings.map((finding) => [finding.severity, finding.check])).toEqual([
      ["error", "input-not-object"],
      ["warning", "no-description"],
      ["info", "no-annotations"],
    ]);
  });
});

describe("withinOneEdit", () => {
  it("allows one insertion, deletion or substitution and no more", () => {
    expect([withinOneEdit("notes", "notes"), withinOneEdit("notes", "note"), withinOneEdit("note", "notes"), withinOneEdit("notes", "nodes"), withinOneEdit("notes", "ntoes"), withinOneEdit("notes", "no")]).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});
