import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "../../src/cli/test-support/run-cli.js";
import { startFakeMessagesApi, type FakeMessagesApi } from "../../src/model/test-support/fake-messages-api.js";
import { replyEvents } from "../../src/model/test-support/sse-replies.js";
import { everythingStdio } from "./test-support/third-party-servers.js";

const MODEL = "claude-sonnet-5-5";

/** The model answers each turn with one line of text. */
async function answeringApi(...answers: string[]): Promise<FakeMessagesApi> {
  return startFakeMessagesApi(answers.map((answer) => ({ kind: "stream", events: replyEvents(MODEL, [{ type: "text", chunks: [answer] }], "end_turn") })));
}

/** The text of the newest user message of each request the model received (its text blocks, joined). */
function userTurns(api: FakeMessagesApi): string[] {
  return api.requests.map((request) => {
    const body = request.body;
    const messages = typeof body === "object" && body !== null && "messages" in body && Array.isArray(body.messages) ? body.messages : [];
    const last: unknown = messages.at(-1);
    const content = typeof last === "object" && last !== null && "content" in last && Array.isArray(last.content) ? last.content : [];
    return content.map((block: unknown) => (typeof block === "object" && block !== null && "text" in block ? block.text : JSON.stringify(block))).join("\n");
  });
}

/**
 * @modelcontextprotocol/server-everything 2026.8.31 over stdio: its prompts (simple-prompt, args-prompt with a
 * required and an optional argument, resource-prompt with an embedded resource) are slash commands whose
 * messages reach the model as the user's turn, in pipe mode.
 */
describe("server-everything's prompts as slash commands", () => {
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

  async function pipe(api: FakeMessagesApi, lines: string) {
    if (project === undefined) throw new Error("no project");
    return project.run(["--model", MODEL, "--mcp-config", configFile], lines, { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: api.baseURL });
  }

  it("runs a prompt without arguments as a turn: the model receives its text and the answer is printed", async () => {
    const api = await answeringApi("Simple answer.");
    try {
      const result = await pipe(api, "/mcp__everything__simple-prompt\n");
      const aboutPrompts = result.stderr.split("\n").filter((line) => line.includes("prompt"));
      expect({ code: result.code, stdout: result.stdout, turns: userTurns(api), aboutPrompts }).toEqual({
        code: 0,
        stdout: "Simple answer.\n",
        turns: ["This is a simple prompt without arguments."],
        aboutPrompts: [],
      });
    } finally {
      await api.close();
    }
  });

  it("sends the arguments given by position and by name, a quoted value keeping its spaces", async () => {
    const api = await answeringApi("Sunny.", "Rainy.");
    try {
      const result = await pipe(api, '/mcp__everything__args-prompt Oslo\n/mcp__everything__args-prompt state="New South Wales" Sydney\n');
      expect({ code: result.code, stdout: result.stdout, turns: userTurns(api) }).toEqual({
        code: 0,
        stdout: "Sunny.\nRainy.\n",
        turns: ["What's weather in Oslo?", "What's weather in Sydney, New South Wales?"],
      });
    } finally {
      await api.close();
    }
  });

  it("gives the model an embedded text resource fenced under its uri", async () => {
    const api = await answeringApi("Analysed.");
    try {
      const result = await pipe(api, "/mcp__everything__resource-prompt Text 1\n");
      const turns = userTurns(api).map((turn) => turn.replace(/created at .+/u, "created at <time>"));
      expect({ code: result.code, stdout: result.stdout, turns }).toEqual({
        code: 0,
        stdout: "Analysed.\n",
        turns: [
          [
            "This prompt includes the Text resource with id: 1. Please analyze the following resource:",
            "demo://resource/dynamic/text/1",
            "```",
            "Resource 1: This is a plaintext resource created at <time>",
            "```",
          ].join("\n"),
        ],
      });
    } finally {
      await api.close();
    }
  });

  it("refuses a missing required argument and an unknown name without a turn, naming them and the usage", async () => {
    const api = await answeringApi();
    try {
      const result = await pipe(api, "/mcp__everything__args-prompt\n/mcp__everything__args-prompt Oslo country=NO\n");
      const errors = result.stderr.split("\n").filter((line) => line.startsWith("/mcp__everything__"));
      expect({ code: result.code, stdout: result.stdout, errors, requests: api.requests.length }).toEqual({
        code: 1,
        stdout: "",
        errors: [
          '/mcp__everything__args-prompt: missing the required argument "city"; usage: /mcp__everything__args-prompt <city> [state]',
          '/mcp__everything__args-prompt: no argument named "country"; its arguments: "city", "state"; usage: /mcp__everything__args-prompt <city> [state]',
        ],
        requests: 0,
      });
    } finally {
      await api.close();
    }
  });

  it("lists the prompts in /help, in a section of their own", async () => {
    const api = await answeringApi();
    try {
      const result = await pipe(api, "/help\n");
      const section = result.stdout.slice(result.stdout.indexOf("MCP prompts"));
      expect({ code: result.code, section: section.split("\n").map((line) => line.replace(/\s{2,}/u, " | ")) }).toEqual({
        code: 0,
        section: [
          "MCP prompts",
          '/mcp__everything__args-prompt <city> [state] | Arguments Prompt — A prompt with two arguments, one required and one optional (MCP server "everything")',
          '/mcp__everything__completable-prompt <department> <name> | Team Management — First argument choice narrows values for second argument. (MCP server "everything")',
          '/mcp__everything__resource-prompt <resourceType> <resourceId> | Resource Prompt — A prompt that includes an embedded resource reference (MCP server "everything")',
          '/mcp__everything__simple-prompt | Simple Prompt — A prompt with no arguments (MCP server "everything")',
          "",
        ],
      });
    } finally {
      await api.close();
    }
  });
});
