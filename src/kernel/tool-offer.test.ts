import { describe, expect, it } from "vitest";
import { createAgent, type AgentDeps } from "./agent.js";
import { parseRule } from "./rule.js";
import type { ModelRequest, ToolSpec } from "./ports.js";
import { answering, eventLog, fakeTool, memorySnapshots, memoryTranscript, reply, text, use, type ScriptStep } from "./test-support/fakes.js";
import { deferredToolsList, MAX_DEFERRED_LIST_CHARS, replayLoadedTools, SEARCH_TIME_LIMIT_MS, TOOL_SEARCH_NAME, type ToolSearchMode } from "./tool-offer.js";
import type { Tool } from "./tool.js";

const remote = (source: string, name: string, description: string, parameters: readonly string[] = []): Tool => ({
  name: `mcp__${source}__${name}`,
  description,
  inputSchema: { type: "object", properties: Object.fromEntries(parameters.map((parameter) => [parameter, { type: "string" }])) },
  kind: "remote",
  source,
  originalName: name,
  run: async (args) => ({ text: `${name} ran with ${JSON.stringify(args)}`, isError: false }),
});

const echo = fakeTool({ name: "echo" });
const createIssue = remote("github", "create_issue", "Opens a new issue in a repository.", ["repo", "title"]);
const listPulls = remote("github", "list_pull_requests", "Lists the pull requests of a repository.", ["repo"]);
const postMessage = remote("slack", "post_message", "Posts a message to a channel.", ["channel", "text"]);
const TOOLS = [echo, createIssue, listPulls, postMessage];
const spec = ({ name, description, inputSchema }: ToolSpec): ToolSpec => ({ name, description, inputSchema });
const TINY: ToolSearchMode = { kind: "auto", percent: 0.001 };
const INSTRUCTIONS: Record<string, string> = { github: "Prefer   list tools\nbefore writing." };

/** What each request carried: the tools' names and the system prompt. */
function recorded() {
  const requests: { tools: string[]; system: string }[] = [];
  const steps = (...replies: ScriptStep[]): AgentDeps["model"] => ({
    name: "scripted",
    async complete(request: ModelRequest) {
      requests.push({ tools: request.tools.map((tool) => tool.name), system: request.system });
      const step = replies[requests.length - 1];
      if (step === undefined) throw new Error(`no step ${requests.length}`);
      return step(request);
    },
  });
  return { requests, steps };
}

function setup(model: AgentDeps["model"], extra: Partial<AgentDeps> = {}) {
  const transcript = memoryTranscript();
  const agent = createAgent({
    model,
    tools: TOOLS,
    rules: [],
    system: "you are a test",
    approve: answering("once", "once", "once").approve,
    snapshots: memorySnapshots(),
    transcript,
    emit: eventLog().emit,
    toolSearch: TINY,
    serverInstructions: (alias) => INSTRUCTIONS[alias],
    ...extra,
  });
  return { agent, transcript };
}

const signal = (): AbortSignal => new AbortController().signal;
const done = (): ScriptStep => () => reply(text("done"));

const NAMES_LIST = [
  "MCP tools not loaded yet: call tool_search with words or a /regular expression/ to load the ones you need, or call one by its exact name.",
  "- github (2 tools, each named mcp__github__<name>): create_issue, list_pull_requests",
  '  Server\'s instructions (untrusted): "Prefer list tools before writing."',
  "- slack (1 tool, each named mcp__slack__<name>): post_message",
].join("\n");

describe("createAgent: tool search", () => {
  it("defers the remote tools past the threshold: local tools, tool_search and the names list", async () => {
    const { requests, steps } = recorded();
    const { agent } = setup(steps(done()));
    const preview = agent.requestPreview();
    expect(preview).toEqual({
      system: `you are a test\n\n${NAMES_LIST}`,
      tools: [spec(echo), expect.objectContaining({ name: TOOL_SEARCH_NAME })],
      deferred: [
        { name: "mcp__github__create_issue", source: "github" },
        { name: "mcp__github__list_pull_requests", source: "github" },
        { name: "mcp__slack__post_message", source: "slack" },
      ],
      messages: [],
    });
    await agent.prompt("hi", signal());
    expect(requests).toEqual([{ tools: ["echo", TOOL_SEARCH_NAME], system: preview.system }]);
  });

  it("sends every definition under the threshold (the default share), and with never", () => {
    for (const toolSearch of [undefined, { kind: "never" } as const]) {
      const { agent } = setup(recorded().steps(), toolSearch === undefined ? { toolSearch: { kind: "auto", percent: 10 } } : { toolSearch });
      expect(agent.requestPreview()).toEqual({ system: "you are a test", tools: TOOLS.map(spec), deferred: [], messages: [] });
    }
  });

  it("defers every remote tool with always, however small", () => {
    const { agent } = setup(recorded().steps(), { toolSearch: { kind: "always" }, tools: [echo, postMessage] });
    expect(agent.requestPreview().tools.map((tool) => tool.name)).toEqual(["echo", TOOL_SEARCH_NAME]);
    expect(agent.requestPreview().deferred).toEqual([{ name: "mcp__slack__post_message", source: "slack" }]);
  });

  it("offers no tool_search when there is no remote tool", () => {
    const { agent } = setup(recorded().steps(), { toolSearch: { kind: "always" }, tools: [echo] });
    expect(agent.requestPreview()).toEqual({ system: "you are a test", tools: [spec(echo)], deferred: [], messages: [] });
    expect(agent.hasTool(TOOL_SEARCH_NAME)).toBe(false);
  });

  it("loads what tool_search finds: its definitions go with the next request on, the names list unchanged", async () => {
    const { requests, steps } = recorded();
    const { agent, transcript } = setup(steps(() => reply(use("s1", TOOL_SEARCH_NAME, { query: "issue", limit: 3 })), done(), done()));
    await agent.prompt("open an issue", signal());
    await agent.prompt("again", signal());
    expect(requests.map((request) => request.tools)).toEqual([
      ["echo", TOOL_SEARCH_NAME],
      ["echo", TOOL_SEARCH_NAME, "mcp__github__create_issue"],
      ["echo", TOOL_SEARCH_NAME, "mcp__github__create_issue"],
    ]);
    expect(new Set(requests.map((request) => request.system)).size).toBe(1);
    expect(agent.messages[2]).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          toolUseId: "s1",
          isError: false,
          text: [
            "Loaded 1 tool: its definition is sent with your next request, so call it from your next reply.",
            "- mcp__github__create_issue (server github): Opens a new issue in a repository. Parameters: repo, title.",
          ].join("\n"),
        },
      ],
    });
    expect(transcript.entries.filter((entry) => entry.type === "tools_loaded")).toEqual([{ type: "tools_loaded", names: ["mcp__github__create_issue"] }]);
    expect(agent.requestPreview().deferred.map((tool) => tool.name)).toEqual(["mcp__github__list_pull_requests", "mcp__slack__post_message"]);
  });

  it("answers a query that finds nothing, and an invalid regular expression as an error", async () => {
    const { steps } = recorded();
    const { agent } = setup(steps(() => reply(use("s1", TOOL_SEARCH_NAME, { query: "kubernetes" }), use("s2", TOOL_SEARCH_NAME, { query: "/(a+)+/" })), done()));
    await agent.prompt("find", signal());
    expect(agent.messages[2]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", toolUseId: "s1", isError: false, text: 'No tool matches "kubernetes" among the 3 deferred MCP tools; try other words, fewer words, or a /regular expression/.' },
        {
          type: "tool_result",
          toolUseId: "s2",
          isError: true,
          text: "the regular expression /(a+)+/ cannot be used: a repeated group may not itself repeat or branch (it can take exponential time).",
        },
      ],
    });
  });

  it("stops a search whose regular expression passes the checks but backtracks for minutes, with an error", async () => {
    const { steps } = recorded();
    const slow = remote("pads", "pad", `${"a".repeat(40)}!`, []);
    const { agent } = setup(steps(() => reply(use("s1", TOOL_SEARCH_NAME, { query: "/(a|aa){0,200}$/" })), done()), { tools: [...TOOLS, slow] });
    await agent.prompt("find", signal());
    expect(agent.messages[2]).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          toolUseId: "s1",
          isError: true,
          text: `The search was stopped: it took longer than ${SEARCH_TIME_LIMIT_MS} ms. Use words, or a simpler /regular expression/.`,
        },
      ],
    });
  });

  it("runs a deferred tool called by its exact name through the gate, and loads it", async () => {
    const { requests, steps } = recorded();
    const asked = answering("once");
    const { agent } = setup(steps(() => reply(use("c1", "mcp__slack__post_message", { channel: "c", text: "t" })), done()), { approve: asked.approve });
    await agent.prompt("post", signal());
    expect(asked.asked).toEqual(["mcp__slack__post_message"]);
    expect(agent.messages[2]).toEqual({ role: "user", content: [{ type: "tool_result", toolUseId: "c1", isError: false, text: 'post_message ran with {"channel":"c","text":"t"}' }] });
    expect(requests[1]?.tools).toEqual(["echo", TOOL_SEARCH_NAME, "mcp__slack__post_message"]);
  });

  it("does not load a deferred tool a rule denies when the model calls it by name", async () => {
    const { requests, steps } = recorded();
    const deny = parseRule("mcp__slack__*", "deny", "--deny");
    if (deny instanceof Error) throw deny;
    const { agent } = setup(steps(() => reply(use("c1", "mcp__slack__post_message", { channel: "c", text: "t" })), done()), { rules: [deny] });
    await agent.prompt("post", signal());
    expect(requests[1]?.tools).toEqual(["echo", TOOL_SEARCH_NAME]);
  });

  it("keeps the loaded tools through a compaction", async () => {
    const { steps } = recorded();
    const { agent } = setup(steps(() => reply(use("s1", TOOL_SEARCH_NAME, { query: "pull requests" })), done(), done(), done(), () => reply(text("summary"))));
    await agent.prompt("one", signal());
    await agent.prompt("two", signal());
    await agent.prompt("three", signal());
    expect(await agent.compact(signal())).toMatch(/^context compacted/);
    expect(agent.requestPreview().tools.map((tool) => tool.name)).toEqual(["echo", TOOL_SEARCH_NAME, "mcp__github__list_pull_requests"]);
  });

  it("sends a resumed session's loaded tools again, and records them in the new transcript", async () => {
    const { steps } = recorded();
    const first = setup(steps(() => reply(use("s1", TOOL_SEARCH_NAME, { query: "/post_message/" })), done()));
    await first.agent.prompt("post", signal());
    const loadedTools = replayLoadedTools(first.transcript.entries);
    expect(loadedTools).toEqual(["mcp__slack__post_message"]);
    const resumed = setup(recorded().steps(), { loadedTools, history: first.agent.messages });
    expect(resumed.agent.requestPreview().tools.map((tool) => tool.name)).toEqual(["echo", TOOL_SEARCH_NAME, "mcp__slack__post_message"]);
    expect(resumed.transcript.entries.filter((entry) => entry.type === "tools_loaded")).toEqual([{ type: "tools_loaded", names: ["mcp__slack__post_message"] }]);
  });

  it("keeps the loaded tools a changed tool list still has, and forgets the others", async () => {
    const { steps } = recorded();
    const { agent } = setup(steps(() => reply(use("s1", TOOL_SEARCH_NAME, { query: "repository", limit: 2 })), done()));
    await agent.prompt("find", signal());
    expect(agent.requestPreview().tools.map((tool) => tool.name)).toEqual(["echo", TOOL_SEARCH_NAME, "mcp__github__create_issue", "mcp__github__list_pull_requests"]);
    agent.setTools([echo, listPulls, postMessage, remote("slack", "read_channel", "Reads a channel.")]);
    expect(agent.requestPreview().tools.map((tool) => tool.name)).toEqual(["echo", TOOL_SEARCH_NAME, "mcp__github__list_pull_requests"]);
    expect(agent.requestPreview().deferred.map((tool) => tool.name)).toEqual(["mcp__slack__post_message", "mcp__slack__read_channel"]);
  });
});

describe("deferredToolsList", () => {
  it("stays within its budget for 50 servers of 100 tools with long instructions, counting what it leaves out", () => {
    const tools = Array.from({ length: 5000 }, (_, at) => remote(`server${Math.floor(at / 100)}`, `tool_number_${at}`, "x"));
    const list = deferredToolsList(tools, () => "i".repeat(5000));
    expect(list.length).toBeLessThan(MAX_DEFERRED_LIST_CHARS + 200);
    const first = list.split("\n").slice(1, 3);
    expect(first[0]).toBe("- server0 (100 tools, each named mcp__server0__<name>): tool_number_0, tool_number_1, … and 98 more (find them with tool_search)");
    expect(first[1]).toBe(`  Server's instructions (untrusted): "${"i".repeat(60)}…"`);
  });
});
