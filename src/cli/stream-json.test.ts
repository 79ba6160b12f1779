import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../kernel/index.js";
import { createStreamJsonWriter, initLine, messageIds, type StreamJsonOptions } from "./stream-json.js";

/** The events of a prompt whose reply says a word, calls read_file, and then answers. */
const TURN: readonly AgentEvent[] = [
  { type: "message", message: { role: "user", content: [{ type: "text", text: "look" }] } },
  { type: "text", delta: "Let me " },
  { type: "text", delta: "look." },
  {
    type: "message",
    message: { role: "assistant", content: [{ type: "text", text: "Let me look." }, { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "README.md" } }] },
    model: "claude-sonnet-5-5",
    stopReason: "tool_use",
    usage: { inputTokens: 10, cacheReadTokens: 2, cacheWriteTokens: 3, outputTokens: 4 },
  },
  { type: "tool_start", callId: "toolu_1", tool: "read_file", args: { path: "README.md" } },
  { type: "tool_end", callId: "toolu_1", tool: "read_file", isError: false, text: "# demo", truncated: false },
  { type: "message", message: { role: "user", content: [{ type: "tool_result", toolUseId: "toolu_1", text: "# demo", isError: false }] } },
  { type: "text", delta: "A demo." },
  { type: "message", message: { role: "assistant", content: [{ type: "text", text: "A demo." }] }, model: "claude-sonnet-5-5", stopReason: "end_turn" },
  { type: "turn_end", reason: "done" },
];

function linesOf(events: readonly AgentEvent[], options: Partial<StreamJsonOptions> = {}): unknown[] {
  const lines: string[] = [];
  const write = createStreamJsonWriter({ sessionId: "s1", nextId: messageIds("s1"), model: () => "claude-sonnet-5-5", write: (line) => lines.push(line), partialMessages: false, mcaEvents: false, ...options });
  for (const event of events) write(event);
  return lines.map((line): unknown => JSON.parse(line));
}

const USAGE = { input_tokens: 10, output_tokens: 4, cache_creation_input_tokens: 3, cache_read_input_tokens: 2 };
const NO_USAGE = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

const ASSISTANT_1 = {
  type: "assistant",
  message: {
    id: "msg_mca_s1_1",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-5-5",
    content: [{ type: "text", text: "Let me look." }, { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "README.md" } }],
    stop_reason: "tool_use",
    stop_sequence: null,
    usage: USAGE,
  },
  parent_tool_use_id: null,
  session_id: "s1",
};
const USER = {
  type: "user",
  message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "# demo", is_error: false }] },
  parent_tool_use_id: null,
  session_id: "s1",
};
const ASSISTANT_2 = {
  type: "assistant",
  message: { id: "msg_mca_s1_2", type: "message", role: "assistant", model: "claude-sonnet-5-5", content: [{ type: "text", text: "A demo." }], stop_reason: "end_turn", stop_sequence: null, usage: NO_USAGE },
  parent_tool_use_id: null,
  session_id: "s1",
};

describe("createStreamJsonWriter", () => {
  it("writes an assistant line per model message and a user line per batch of tool results, and nothing of the prompt", () => {
    expect(linesOf(TURN)).toEqual([ASSISTANT_1, USER, ASSISTANT_2]);
  });

  it("adds the stream's events before each message with --include-partial-messages, in the Messages API's shapes", () => {
    const event = (value: object) => ({ type: "stream_event", event: value, parent_tool_use_id: null, session_id: "s1" });
    const start = (id: string) => event({ type: "message_start", message: { id, type: "message", role: "assistant", model: "claude-sonnet-5-5", content: [], stop_reason: null, stop_sequence: null, usage: NO_USAGE } });
    expect(linesOf(TURN, { partialMessages: true })).toEqual([
      start("msg_mca_s1_1"),
      event({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
      event({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Let me " } }),
      event({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "look." } }),
      event({ type: "content_block_stop", index: 0 }),
      event({ type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_1", name: "read_file", input: {} } }),
      event({ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"path":"README.md"}' } }),
      event({ type: "content_block_stop", index: 1 }),
      event({ type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 4 } }),
      event({ type: "message_stop" }),
      ASSISTANT_1,
      USER,
      start("msg_mca_s1_2"),
      event({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
      event({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "A demo." } }),
      event({ type: "content_block_stop", index: 0 }),
      event({ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 0 } }),
      event({ type: "message_stop" }),
      ASSISTANT_2,
    ]);
  });

  it("ends a partial message the model never finished (a model error) before anything else", () => {
    const lines = linesOf(
      [
        { type: "text", delta: "Half" },
        { type: "error", message: "Model error: overloaded" },
        { type: "turn_end", reason: "model_error" },
      ],
      { partialMessages: true },
    );
    expect(lines.slice(-2)).toEqual([
      { type: "stream_event", event: { type: "content_block_stop", index: 0 }, parent_tool_use_id: null, session_id: "s1" },
      { type: "stream_event", event: { type: "message_stop" }, parent_tool_use_id: null, session_id: "s1" },
    ]);
  });

  it("keeps mca's own event lines beside the messages with --mca-events", () => {
    const types = linesOf(TURN, { mcaEvents: true }).map((line) => (line as { type: string }).type);
    expect(types).toEqual(["text", "text", "assistant", "tool_start", "tool_end", "user", "text", "assistant", "turn_end"]);
  });
});

describe("initLine", () => {
  it("names each server's state in Claude's words", () => {
    const server = { transport: "stdio", protocolVersion: null, tools: 0, error: null, stderrTail: null } as const;
    const servers = (["connected", "failed", "disconnected", "needs login", "disabled"] as const).map((state, index) => ({ ...server, alias: `s${index}`, state }));
    expect(initLine({ sessionId: "s1", cwd: "/p", model: "m", tools: ["read_file"], servers, permissionMode: "default" })).toEqual({
      type: "system",
      subtype: "init",
      session_id: "s1",
      cwd: "/p",
      model: "m",
      tools: ["read_file"],
      mcp_servers: [
        { name: "s0", status: "connected" },
        { name: "s1", status: "failed" },
        { name: "s2", status: "failed" },
        { name: "s3", status: "needs-auth" },
        { name: "s4", status: "disabled" },
      ],
      permissionMode: "default",
    });
  });
});
