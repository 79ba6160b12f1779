// End to end: tool search with a real stdio MCP server of 1,000 tools mounted, the real CLI as a child
// process and the fake Messages API on loopback, checking what each request carries.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONTEXT_WINDOW_TOKENS } from "../kernel/index.js";
import { startFakeMessagesApi, type FakeMessagesApi, type FakeReply } from "../model/test-support/fake-messages-api.js";
import { replyEvents } from "../model/test-support/sse-replies.js";
import { createTempProject, type TempProject } from "./test-support/run-cli.js";

const MANY_TOOLS_SERVER = fileURLToPath(new URL("../mcp/test-support/many-tools-server.mjs", import.meta.url));
const LOCAL_TOOLS = ["read_file", "write_file", "edit_file", "list_dir", "search", "bash"];
const MODEL = "claude-sonnet-5-5";

const toolUse = (id: string, name: string, input: unknown): FakeReply => ({
  kind: "stream",
  events: replyEvents(MODEL, [{ type: "tool_use", id, name, jsonChunks: [JSON.stringify(input)] }], "tool_use"),
});
const textReply = (text: string): FakeReply => ({ kind: "stream", events: replyEvents(MODEL, [{ type: "text", chunks: [text] }], "end_turn") });

interface SentRequest {
  readonly tools: string[];
  readonly toolsJsonChars: number;
  readonly system: string;
}

/** The tools and system prompt of each POST /v1/messages the fake received. */
function sent(api: FakeMessagesApi): SentRequest[] {
  return api.requests.flatMap(({ path, body }) => {
    if (path !== "/v1/messages" || typeof body !== "object" || body === null) return [];
    const tools = "tools" in body && Array.isArray(body.tools) ? body.tools : [];
    const system = "system" in body && Array.isArray(body.system) ? body.system : [];
    return [
      {
        tools: tools.map((tool: { name?: unknown }) => String(tool.name)),
        toolsJsonChars: JSON.stringify(tools).length,
        system: system.map((block: { text?: unknown }) => String(block.text)).join("\n"),
      },
    ];
  });
}

describe("mca with tool search and 1,000 remote tools", () => {
  let project: TempProject;
  let api: FakeMessagesApi | undefined;

  beforeEach(async () => {
    project = await createTempProject();
    await writeFile(join(project.dir, "mcp.config.json"), JSON.stringify({ mcpServers: { many: { command: process.execPath, args: [MANY_TOOLS_SERVER, "--tools=1000"] } } }));
  });

  afterEach(async () => {
    await api?.close();
    await project.remove();
  });

  const run = (args: readonly string[], replies: readonly FakeReply[]) =>
    startFakeMessagesApi(replies).then(async (started) => {
      api = started;
      const result = await project.run(["--trust-project", "--model", MODEL, ...args], "", { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: started.baseURL });
      return { result, requests: sent(started), unused: started.unusedReplies() };
    });

  it("sends names, not definitions, loads what tool_search finds from the next request on, and again after --resume", async () => {
    const first = await run(["-p", "use t7", "--allow", "mcp__many__t7"], [toolUse("s1", "tool_search", { query: "t7" }), toolUse("c1", "mcp__many__t7", {}), textReply("done")]);
    expect([first.result.code, first.unused]).toEqual([0, 0]);
    expect(first.requests.map((request) => request.tools)).toEqual([
      [...LOCAL_TOOLS, "tool_search"],
      [...LOCAL_TOOLS, "tool_search", "mcp__many__t7"],
      [...LOCAL_TOOLS, "tool_search", "mcp__many__t7"],
    ]);
    const [opening] = first.requests;
    expect(opening?.system).toContain("MCP tools not loaded yet: call tool_search");
    expect(opening?.system).toMatch(/^- many \(1000 tools, each named mcp__many__<name>\): t0, t1, t10, t100, .*, t999$/m);
    // The first request's definitions: one token per four characters of their JSON, at most 10 % of the window.
    expect(Math.ceil((opening?.toolsJsonChars ?? Infinity) / 4)).toBeLessThanOrEqual(CONTEXT_WINDOW_TOKENS / 10);
    expect(new Set(first.requests.map((request) => request.system)).size).toBe(1);
    expect(first.result.stderr).toContain("called t7");

    const sessionId = /session (\S+)/.exec(first.result.stderr)?.[1] ?? "";
    await api?.close();
    const resumed = await run(["--resume", sessionId, "-p", "again"], [textReply("still here")]);
    expect([resumed.result.code, resumed.requests.map((request) => request.tools)]).toEqual([0, [[...LOCAL_TOOLS, "tool_search", "mcp__many__t7"]]]);
  });

  it("works offline: the mock model searches with `search <words>`, a scripted model calls tool_search from its script", async () => {
    const mock = await project.run(["--trust-project", "--allow", "mcp__many__t7"], "search t7\ncall mcp__many__t7\n", { MOCK: "1" });
    expect(mock.code).toBe(0);
    expect(mock.stdout).toContain('tool_search succeeded: "Loaded 1 tool: its definition is sent with your next request, so call it from your next reply."');
    expect(mock.stdout).toContain('mcp__many__t7 succeeded: "called t7; tools/list pages served: 1"');
    const script = join(project.dir, "script.json");
    await writeFile(script, JSON.stringify([[{ name: "tool_search", input: { query: "/^mcp__many__t99$/" } }], [{ name: "mcp__many__t99" }], "done"]));
    const scripted = await project.run(["--trust-project", "--allow", "mcp__many__t99", "-p", "go"], "", { MCA_MOCK_SCRIPT: script });
    expect([scripted.code, scripted.stdout]).toEqual([0, "done\n"]);
    expect(scripted.stderr).toContain("called t99");
  });

  it('sends every definition with "toolSearch": "never" in the user\'s settings', async () => {
    await mkdir(join(project.home, ".config", "mca"), { recursive: true });
    await writeFile(join(project.home, ".config", "mca", "settings.json"), '{"toolSearch":"never"}');
    const { result, requests } = await run(["-p", "hi"], [textReply("hi")]);
    expect(result.code).toBe(0);
    expect(requests[0]?.tools).toHaveLength(LOCAL_TOOLS.length + 1000);
    expect(requests[0]?.system).not.toContain("not loaded yet");
  });

  it("refuses a malformed toolSearch setting with its place", async () => {
    await mkdir(join(project.home, ".config", "mca"), { recursive: true });
    const file = join(project.home, ".config", "mca", "settings.json");
    await writeFile(file, '{"toolSearch":"sometimes"}');
    const { result } = await run(["-p", "hi"], []);
    expect([result.code, result.stderr]).toEqual([
      2,
      `mca: ${file}:1:15: toolSearch: must be "auto", "auto:<percent of the context window>" (above 0, at most 100), "always" or "never", not "sometimes"\n`,
    ]);
  });
});
