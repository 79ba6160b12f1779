import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "../../src/cli/test-support/run-cli.js";

const SERVER = fileURLToPath(new URL("./test-support/sdk-v1-structured-server.mjs", import.meta.url));

/**
 * The SDK v1 (1.32.2, stdio) lists a zod outputSchema as draft-07 JSON Schema; the built `mca` (the bundle,
 * which loads its JSON Schema validator from outside itself) checks each structured result against it.
 */
describe("structured results of an SDK v1 server through the built mca call", () => {
  let project: TempProject | undefined;

  beforeAll(async () => {
    project = await createTempProject("bundle");
    await writeFile(join(project.dir, "servers.json"), JSON.stringify({ mcpServers: { words: { command: process.execPath, args: [SERVER] }, loose: { command: process.execPath, args: [SERVER, "--unchecked"] } } }));
  });

  afterAll(async () => {
    await project?.remove();
  });

  async function call(tool: string, args: unknown, alias = "words"): Promise<unknown> {
    if (project === undefined) throw new Error("no project");
    const run = await project.run(["call", `mcp__${alias}__${tool}`, JSON.stringify(args), "--json", "--allow", "mcp__*", "--mcp-config", "servers.json"], "");
    const json: unknown = JSON.parse(run.stdout);
    return { code: run.code, json, stderr: run.stderr };
  }

  it("gives a result whose structured content matches the tool's draft-07 schema as the server sent it", async () => {
    expect(await call("count_words", { text: "checked against its schema" })).toMatchObject({ code: 0, json: { isError: false, text: "4 words" }, stderr: "" });
  });

  it("shows a checked structured result that comes without text", async () => {
    expect(await call("word_stats", { text: "a structured answer" })).toMatchObject({ code: 0, json: { isError: false, text: '{"count":3,"longest":"structured"}' }, stderr: "" });
  });

  it("fails a result whose structured content does not match the schema the server lists, naming the path", async () => {
    expect(await call("count_words", { text: "four words or so" }, "loose")).toMatchObject({
      code: 1,
      json: { isError: true, text: "structured result does not match the tool's outputSchema: /count must be integer" },
      stderr: 'mca call mcp__loose__count_words failed; approval: allow (rule "mcp__*" (allow) from --allow)\n',
    });
  });
});
