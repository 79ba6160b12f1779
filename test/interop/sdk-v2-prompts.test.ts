import { createRequire } from "node:module";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "../../src/cli/test-support/run-cli.js";
import { startFakeMessagesApi, type FakeMessagesApi } from "../../src/model/test-support/fake-messages-api.js";
import { replyEvents } from "../../src/model/test-support/sse-replies.js";

const MODEL = "claude-sonnet-5-5";
/** Absolute, so that the child started from the project folder finds the loader. */
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const SERVER_MAIN = fileURLToPath(new URL("./test-support/prompting-v2-stdio-main.ts", import.meta.url));

/** The newest user message of the only request: its texts, and its images with their data reduced to the file signature it decodes to. */
function userTurn(api: FakeMessagesApi): unknown {
  const body = api.requests[0]?.body;
  const messages = typeof body === "object" && body !== null && "messages" in body && Array.isArray(body.messages) ? body.messages : [];
  const last: unknown = messages.at(-1);
  const content = typeof last === "object" && last !== null && "content" in last && Array.isArray(last.content) ? last.content : [];
  return content.map((block: unknown) => {
    if (typeof block !== "object" || block === null) return block;
    if ("text" in block) return { type: "text", text: block.text };
    if (!("source" in block) || typeof block.source !== "object" || block.source === null) return block;
    const { source } = block;
    const data = "data" in source && typeof source.data === "string" ? source.data : "";
    // Without its cache breakpoint: where that falls is the model's business, not the prompt's.
    return { type: "type" in block ? block.type : undefined, source: { ...source, data: Buffer.from(data, "base64").subarray(0, 8).toString("hex") } };
  });
}

/** A 2026-07-28 server built with @modelcontextprotocol/server 2.4.0, over stdio: a prompt's image and a conversation of both roles reach the model. */
describe("an SDK v2 server's prompts as slash commands", () => {
  let project: TempProject | undefined;
  let configFile = "";

  beforeAll(async () => {
    project = await createTempProject();
    configFile = join(project.dir, "servers.json");
    await writeFile(configFile, JSON.stringify({ mcpServers: { prompting: { command: process.execPath, args: ["--import", TSX_LOADER, SERVER_MAIN] } } }));
  });

  afterAll(async () => {
    await project?.remove();
  });

  async function pipe(lines: string, ...extra: string[]) {
    if (project === undefined) throw new Error("no project");
    const api = await startFakeMessagesApi([{ kind: "stream", events: replyEvents(MODEL, [{ type: "text", chunks: ["Done."] }], "end_turn") }]);
    try {
      const result = await project.run(["--model", MODEL, "--mcp-config", configFile, ...extra], `${lines}\n`, { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: api.baseURL });
      return { code: result.code, stdout: result.stdout, stderr: result.stderr, turn: userTurn(api) };
    } finally {
      await api.close();
    }
  }

  it("sends a prompt's image to the model as an image block after the turn's text, a line standing where it was", async () => {
    expect(await pipe("/mcp__prompting__describe_logo")).toMatchObject({
      code: 0,
      stdout: "Done.\n",
      turn: [
        { type: "text", text: "What does this logo show?\n[image: image/png 2×3, 33 bytes]" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: "89504e470d0a1a0a" } },
      ],
    });
  });

  it("quotes a conversation of both roles under whose each part is, as one user turn", async () => {
    expect(await pipe("/mcp__prompting__review src/a.ts focus=speed")).toMatchObject({
      code: 0,
      stdout: "Done.\n",
      turn: [{ type: "text", text: ["User:", "> Review src/a.ts for speed.", "Assistant:", "> Which part first?", "User:", "> The exported functions."].join("\n") }],
    });
  });

  it("offers a prompt the server adds at run time, once its listen stream says the prompts changed", async () => {
    const run = await pipe("/call mcp__prompting__add_prompt {}\n/mcp__prompting__later", "--allow", "mcp__prompting__add_prompt");
    expect({ code: run.code, stdout: run.stdout, turn: run.turn, changed: run.stderr.split("\n").filter((line) => line.includes("prompts changed")) }).toEqual({
      code: 0,
      stdout: "added\nDone.\n",
      turn: [{ type: "text", text: "Added later." }],
      changed: ["mcp: prompting: prompts changed (now 3 prompts)"],
    });
  });
});
