import { describe, expect, it } from "vitest";
import type { Message, ModelRequest, ToolSpec } from "../kernel/index.js";
import { createMockModel } from "./mock-model.js";

const TOOLS: ToolSpec[] = [
  { name: "read_file", description: "", inputSchema: { type: "object", required: ["path"] } },
  { name: "list_dir", description: "", inputSchema: { type: "object" } },
  { name: "edit_file", description: "", inputSchema: { type: "object", required: ["path", "old_string", "new_string"] } },
  { name: "mcp__notes__search", description: "", inputSchema: { type: "object", required: ["query"] } },
];

function ask(messages: readonly Message[], tools: readonly ToolSpec[] = TOOLS) {
  const chunks: string[] = [];
  const request: ModelRequest = {
    system: "",
    messages,
    tools,
    signal: new AbortController().signal,
    onText: (delta) => chunks.push(delta),
  };
  return { request, chunks };
}

const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });

describe("createMockModel", () => {
  it("turns `call <tool> <json>` into exactly that tool call", async () => {
    const reply = await createMockModel().complete(ask([user('call read_file {"path": "README.md"}')]).request);
    expect(reply).toEqual({
      message: { role: "assistant", content: [{ type: "tool_use", id: "mock_1", name: "read_file", input: { path: "README.md" } }] },
      stopReason: "tool_use",
    });
  });

  it("calls a tool with {} when no arguments follow, counting ids up", async () => {
    const model = createMockModel();
    await model.complete(ask([user("call list_dir")]).request);
    const reply = await model.complete(ask([user("call list_dir")]).request);
    expect(reply.message.content).toEqual([{ type: "tool_use", id: "mock_2", name: "list_dir", input: {} }]);
  });

  it("says so when the arguments are not a JSON object", async () => {
    const reply = await createMockModel().complete(ask([user("call bash [1]")]).request);
    expect(reply).toEqual({
      message: { role: "assistant", content: [{ type: "text", text: "I could not read the arguments of bash: they must be a JSON object" }] },
      stopReason: "end_turn",
    });
  });

  it("after a tool result, quotes its first line and says whether it failed", async () => {
    const messages: Message[] = [
      user("call read_file {}"),
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "mock_1", name: "read_file", input: {} },
          { type: "tool_use", id: "mock_2", name: "bash", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", toolUseId: "mock_1", text: "1\talpha\n2\tbeta", isError: false },
          { type: "tool_result", toolUseId: "mock_2", text: "exit code 1\nboom", isError: true },
        ],
      },
    ];
    const reply = await createMockModel().complete(ask(messages).request);
    expect(reply).toEqual({
      message: {
        role: "assistant",
        content: [{ type: "text", text: 'read_file succeeded: "1\\talpha"\nbash failed: "exit code 1"' }],
      },
      stopReason: "end_turn",
    });
  });

  it("answers the user's new words, not the results, when a prompt follows interrupted calls", async () => {
    const messages: Message[] = [
      user("call list_dir {}"),
      { role: "assistant", content: [{ type: "tool_use", id: "mock_1", name: "list_dir", input: {} }] },
      {
        role: "user",
        content: [
          { type: "tool_result", toolUseId: "mock_1", text: "Aborted by the user.", isError: true },
          { type: "text", text: "call read_file {\"path\":\"a\"}" },
        ],
      },
    ];
    const reply = await createMockModel().complete(ask(messages).request);
    expect(reply).toEqual({
      message: { role: "assistant", content: [{ type: "tool_use", id: "mock_1", name: "read_file", input: { path: "a" } }] },
      stopReason: "tool_use",
    });
  });

  it("lists the names of the tools it can see", async () => {
    const reply = await createMockModel().complete(ask([user("tools")]).request);
    expect(reply.message.content).toEqual([
      { type: "text", text: "read_file\nlist_dir\nedit_file\nmcp__notes__search" },
    ]);
  });

  it("answers anything else by repeating the question and showing how to call a few tools", async () => {
    const reply = await createMockModel().complete(ask([user("what is in this repo?")]).request);
    expect(reply.message.content).toEqual([
      {
        type: "text",
        text: [
          'You asked: "what is in this repo?". I am the offline mock model: I do not answer questions, but I can call tools. For example:',
          "",
          '- `call read_file {"path":"<path>"}`',
          "- `call list_dir`",
          '- `call edit_file {"path":"<path>","old_string":"<old_string>","new_string":"<new_string>"}`',
          "",
          'Say "tools" to list all 4.',
        ].join("\n"),
      },
    ]);
  });

  it("streams its reply in a few chunks that add up to the reply", async () => {
    const { request, chunks } = ask([user("hello there")]);
    const reply = await createMockModel().complete(request);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.length).toBeLessThanOrEqual(4);
    expect(reply.message.content).toEqual([{ type: "text", text: chunks.join("") }]);
  });

  it("rejects when the request is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const { request } = ask([user("hello")]);
    await expect(createMockModel().complete({ ...request, signal: controller.signal })).rejects.toThrow(/abort/i);
  });

  describe("with tool search", () => {
    const searchSpec: ToolSpec = { name: "tool_search", description: "", inputSchema: { type: "object", required: ["query"] } };

    it("turns `search <words>` into a call of tool_search when the request offers it", async () => {
      const reply = await createMockModel().complete(ask([user("search create issue")], [...TOOLS, searchSpec]).request);
      expect(reply).toEqual({
        message: { role: "assistant", content: [{ type: "tool_use", id: "mock_1", name: "tool_search", input: { query: "create issue" } }] },
        stopReason: "tool_use",
      });
    });

    it("says how to search in its help, and only when tool_search is offered", async () => {
      const withSearch = await createMockModel().complete(ask([user("hello")], [...TOOLS.slice(0, 1), searchSpec]).request);
      expect(withSearch.message.content).toEqual([
        {
          type: "text",
          text: [
            'You asked: "hello". I am the offline mock model: I do not answer questions, but I can call tools. For example:',
            "",
            '- `call read_file {"path":"<path>"}`',
            '- `call tool_search {"query":"<query>"}`',
            "",
            'Say "tools" to list all 2.',
            "More MCP tools are not loaded yet: say `search <words>` (or `search /regex/`) to find and load them, or call one by its name.",
          ].join("\n"),
        },
      ]);
      const without = await createMockModel().complete(ask([user("search x")], TOOLS).request);
      expect(JSON.stringify(without.message.content)).not.toContain("not loaded yet");
    });
  });
});
