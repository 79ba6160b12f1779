import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { JsonSchema } from "../kernel/index.js";
import type { JsonObject } from "./jsonrpc.js";
import { mountServers } from "./mount-servers.js";
import { CHECK_TIME_LIMIT_MS, checkStructuredContent } from "./output-schema.js";
import { startInputRequiredServer } from "./test-support/input-required-server.js";
import type { RemoteToolInfo } from "./tool-list.js";

const COUNT_SCHEMA = { type: "object", properties: { count: { type: "integer" }, word: { type: "string" } }, required: ["count"], additionalProperties: false };

function toolWith(outputSchema: JsonSchema | boolean): RemoteToolInfo {
  return { name: "count", inputSchema: { type: "object" }, outputSchema };
}

describe("checkStructuredContent", () => {
  it("passes a value that matches the tool's schema, read as 2020-12 when it names no draft", async () => {
    const tool = toolWith({ ...COUNT_SCHEMA, properties: { ...COUNT_SCHEMA.properties, tags: { type: "array", prefixItems: [{ type: "string" }] } } });
    expect([await checkStructuredContent(tool, { count: 3, tags: ["a", 1] }), await checkStructuredContent(tool, { count: 3, tags: [1] })]).toEqual([
      { kind: "valid" },
      { kind: "invalid", errors: ["/tags/0 must be string"] },
    ]);
  });

  it("names the JSON path and the message of each mismatch, three at most, and counts the rest", async () => {
    const tool = toolWith(COUNT_SCHEMA);
    expect([
      await checkStructuredContent(tool, { count: 1.5 }),
      await checkStructuredContent(tool, { word: 1, a: 1, b: 2 }),
      await checkStructuredContent(toolWith(false), {}),
    ]).toEqual([
      { kind: "invalid", errors: ["/count must be integer"] },
      { kind: "invalid", errors: ["/ must have required property 'count'", '/ must NOT have additional properties ("a")', '/ must NOT have additional properties ("b")', "and 1 more"] },
      { kind: "invalid", errors: ["/ boolean schema is false"] },
    ]);
  });

  it("reads a draft-07 schema as the SDK v1 writes it, and leaves formats unchecked", async () => {
    const tool = toolWith({ $schema: "http://json-schema.org/draft-07/schema#", ...COUNT_SCHEMA, properties: { count: { type: "integer" }, when: { type: "string", format: "date-time" } } });
    expect([await checkStructuredContent(tool, { count: 1, when: "not a date" }), await checkStructuredContent(tool, { count: "1" })]).toEqual([
      { kind: "valid" },
      { kind: "invalid", errors: ["/count must be integer"] },
    ]);
  });

  it("says why it cannot check against a schema that does not compile, or that reaches outside itself", async () => {
    expect([
      await checkStructuredContent(toolWith({ type: "integr" }), 1),
      await checkStructuredContent(toolWith({ $ref: "https://example.com/schema.json" }), 1),
      await checkStructuredContent(toolWith({ $schema: "http://json-schema.org/draft-04/schema#", type: "object" }), {}),
    ]).toEqual([
      { kind: "unchecked", reason: "schema is invalid: data/type must be equal to one of the allowed values, data/type must be array, data/type must match a schema in anyOf" },
      { kind: "unchecked", reason: "can't resolve reference https://example.com/schema.json from id #" },
      {
        kind: "unchecked",
        reason:
          'its $schema "http://json-schema.org/draft-04/schema#" is none that mca checks (https://json-schema.org/draft/2020-12/schema, https://json-schema.org/draft/2019-09/schema, http://json-schema.org/draft-07/schema)',
      },
    ]);
  });

  it("leaves a result unchecked, within the time limit, when a pattern of the schema would take minutes", async () => {
    const hostile = toolWith({ type: "object", properties: { word: { type: "string", pattern: "^(a+)+$" } } });
    const check = await checkStructuredContent(hostile, { word: `${"a".repeat(40)}!` });
    expect({ kind: check.kind, reason: check.kind === "unchecked" ? check.reason.split(":")[0] : "" }).toEqual({
      kind: "unchecked",
      reason: `the check took longer than ${CHECK_TIME_LIMIT_MS} ms (a pattern of the schema may be too costly)`,
    });
    expect(await checkStructuredContent(hostile, { word: "aaa" })).toEqual({ kind: "valid" });
  });

  it("keeps each tool's schema to itself, so that two schemas with the same $id do not meet", async () => {
    const integers = toolWith({ $id: "https://example.com/out.json", type: "integer" });
    const strings = toolWith({ $id: "https://example.com/out.json", type: "string" });
    expect([await checkStructuredContent(integers, 1), await checkStructuredContent(strings, "one"), await checkStructuredContent(integers, "one")]).toEqual([
      { kind: "valid" },
      { kind: "valid" },
      { kind: "invalid", errors: ["/ must be integer"] },
    ]);
  });

  it("loads the validator only when a result is first checked against a schema", () => {
    // A fresh process, because this one has loaded ajv already.
    const script = [
      'import { createRequire } from "node:module";',
      `const { completeResult } = await import(${JSON.stringify(new URL("./call-result.ts", import.meta.url).href)});`,
      "const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes(`${'/'}ajv${'/'}`));",
      'const outcome = { kind: "complete", content: [], structuredContent: { n: 1 }, isError: false };',
      'await completeResult(outcome, { alias: "s", tool: { name: "t", inputSchema: { type: "object" } } });',
      "const before = loaded();",
      'await completeResult(outcome, { alias: "s", tool: { name: "t", inputSchema: { type: "object" }, outputSchema: { type: "object" } } });',
      "console.log(JSON.stringify([before, loaded()]));",
    ].join("\n");
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
      encoding: "utf8",
      timeout: 15_000,
    });
    expect({ status: child.status, loaded: child.stdout.trim(), stderr: child.stderr }).toEqual({ status: 0, loaded: "[false,true]", stderr: "" });
  });
});

describe("a mounted tool that declares an outputSchema", () => {
  const opened: Array<{ close(): Promise<void> }> = [];

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((item) => item.close()));
  });

  /** One loopback server whose one tool, `count`, declares COUNT_SCHEMA and answers every call with `result`. */
  async function callCount(result: JsonObject, outputSchema: JsonSchema = COUNT_SCHEMA): Promise<unknown> {
    const server = await startInputRequiredServer({
      tool: { name: "count", inputSchema: { type: "object" }, outputSchema },
      ask: result,
      finish: () => result,
    });
    opened.push(server);
    const mounted = await mountServers(
      { file: "/tmp/mcp.config.json", servers: [{ alias: "words", transport: "http", url: server.url, headers: {}, enabled: true }] },
      { clientVersion: "0.0.0-test", baseEnv: {}, onWarning: () => undefined },
    );
    opened.push(mounted);
    return mounted.tools[0]?.run({}, { signal: new AbortController().signal });
  }

  it("gives a result whose structured content matches as it is", async () => {
    expect(await callCount({ content: [{ type: "text", text: "3 words" }], structuredContent: { count: 3 } })).toEqual({ text: "3 words", isError: false });
  });

  it("fails a result whose structured content does not match, naming the path and the message", async () => {
    expect(await callCount({ content: [{ type: "text", text: "three words" }], structuredContent: { count: "three" } })).toEqual({
      text: "structured result does not match the tool's outputSchema: /count must be integer",
      isError: true,
    });
  });

  it("fails a result without structured content, which the schema promises", async () => {
    expect(await callCount({ content: [{ type: "text", text: "3 words" }] })).toEqual({
      text: "structured result does not match the tool's outputSchema: the result has no structuredContent",
      isError: true,
    });
  });

  it("does not check a failed result", async () => {
    expect(await callCount({ content: [{ type: "text", text: "no words given" }], isError: true })).toEqual({ text: "no words given", isError: true });
  });

  it("gives the result with a note when the schema cannot be compiled", async () => {
    expect(await callCount({ content: [{ type: "text", text: "3 words" }], structuredContent: { count: 3 } }, { type: "object", required: "count" })).toEqual({
      text: "3 words\n[the tool's outputSchema cannot be used, so its structured result was not checked: schema is invalid: data/required must be array]",
      isError: false,
    });
  });
});
