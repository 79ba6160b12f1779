import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "../../src/cli/test-support/run-cli.js";
import { startFakeMessagesApi, type FakeMessagesApi } from "../../src/model/test-support/fake-messages-api.js";
import { replyEvents } from "../../src/model/test-support/sse-replies.js";
import { everythingStdio } from "./test-support/third-party-servers.js";

const MODEL = "claude-sonnet-5-5";
const TOOL = "mcp__everything__get-tiny-image";
const IMAGE_LINE = "[image: image/png 20×20, 4 kB]";

/** The model calls server-everything's get-tiny-image (a 20×20 PNG), then answers. */
async function scriptedApi(): Promise<FakeMessagesApi> {
  return startFakeMessagesApi([
    { kind: "stream", events: replyEvents(MODEL, [{ type: "tool_use", id: "toolu_logo", name: TOOL, jsonChunks: ["{}"] }], "tool_use") },
    { kind: "stream", events: replyEvents(MODEL, [{ type: "text", chunks: ["The MCP logo."] }], "end_turn") },
  ]);
}

/** The content of the tool_result in the second request, with each image's data reduced to the file signature it decodes to. */
function sentResult(api: FakeMessagesApi): unknown {
  const body = api.requests[1]?.body;
  const messages = typeof body === "object" && body !== null && "messages" in body && Array.isArray(body.messages) ? body.messages : [];
  const last: unknown = messages.at(-1);
  const content = typeof last === "object" && last !== null && "content" in last && Array.isArray(last.content) ? last.content : [];
  const result: unknown = content[0];
  if (typeof result !== "object" || result === null || !("content" in result) || !Array.isArray(result.content)) return result;
  return result.content.map((block: unknown) => {
    if (typeof block !== "object" || block === null || !("source" in block) || typeof block.source !== "object" || block.source === null) return block;
    const { source } = block;
    const data = "data" in source && typeof source.data === "string" ? source.data : "";
    return { ...block, source: { ...source, data: Buffer.from(data, "base64").subarray(0, 8).toString("hex") } };
  });
}

/** @modelcontextprotocol/server-everything 2026.8.31 over stdio: its image reaches the model, and the user sees a line for it. */
describe("an image from server-everything in mca -p", () => {
  let project: TempProject | undefined;
  let configFile = "";

  beforeAll(async () => {
    project = await createTempProject();
    configFile = join(project.dir, "servers.json");
    await writeFile(configFile, JSON.stringify({ mcpServers: { everything: everythingStdio() } }));
  });

  afterAll(async () => {
    await project?.remove();
  });

  async function run(api: FakeMessagesApi, ...extra: string[]) {
    if (project === undefined) throw new Error("no project");
    const args = ["-p", "show me the logo", "--model", MODEL, "--mcp-config", configFile, "--allow", TOOL, ...extra];
    return project.run(args, "", { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: api.baseURL });
  }

  it("sends the image to the model as a base64 PNG block after the result's text, and prints a line for it", async () => {
    const api = await scriptedApi();
    try {
      const result = await run(api);
      expect({ code: result.code, stdout: result.stdout, sent: sentResult(api), resultLines: result.stderr.split("\n").filter((line) => line.startsWith(`[${TOOL}] ok`) || line.includes("[image:")) }).toEqual({
        code: 0,
        stdout: "The MCP logo.\n",
        sent: [
          { type: "text", text: `Here's the image you requested:\n${IMAGE_LINE}\nThe image above is the MCP logo.` },
          { type: "image", source: { type: "base64", media_type: "image/png", data: "89504e470d0a1a0a" } },
        ],
        resultLines: [`[${TOOL}] ok: Here's the image you requested: (+2 lines)`, `  ${IMAGE_LINE}`],
      });
      expect(api.unusedReplies()).toBe(0);
    } finally {
      await api.close();
    }
  });

  it("gives the image's metadata in --output-format json", async () => {
    const api = await scriptedApi();
    try {
      const result = await run(api, "--output-format", "json");
      const parsed: unknown = JSON.parse(result.stdout);
      const calls = typeof parsed === "object" && parsed !== null && "toolCalls" in parsed ? parsed.toolCalls : undefined;
      expect({ code: result.code, calls }).toEqual({
        code: 0,
        calls: [
          {
            tool: TOOL,
            args: {},
            approval: { verdict: "allow", reason: null, answer: null },
            isError: false,
            result: `Here's the image you requested:\n${IMAGE_LINE}\nThe image above is the MCP logo.`,
            truncated: false,
            images: [{ mediaType: "image/png", bytes: 4033, width: 20, height: 20 }],
          },
        ],
      });
    } finally {
      await api.close();
    }
  });
});
