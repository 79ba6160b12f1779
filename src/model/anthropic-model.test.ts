import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "../kernel/index.js";
import { createHarness, HELLO, MODEL, requestFor, TOOLS } from "./test-support/model-harness.js";
import { messageStart, replyEvents } from "./test-support/sse-replies.js";

describe("createAnthropicModel", () => {
  const harness = createHarness();
  afterEach(() => harness.closeAll());

  it("streams text deltas to onText and returns the whole reply", async () => {
    const { model } = await harness.setUp([
      { kind: "stream", events: replyEvents(MODEL, [{ type: "text", chunks: ["Hel", "lo ", "there"] }], "end_turn") },
    ]);
    const { request: req, texts } = requestFor(HELLO);
    expect(await model.complete(req)).toEqual({
      message: { role: "assistant", content: [{ type: "text", text: "Hello there" }] },
      stopReason: "end_turn",
    });
    expect(texts).toEqual(["Hel", "lo ", "there"]);
  });

  it("sends the model, the key, the system prompt and the last tool marked for caching", async () => {
    const { api, model } = await harness.setUp([
      { kind: "stream", events: replyEvents(MODEL, [{ type: "text", chunks: ["ok"] }], "end_turn") },
    ]);
    await model.complete(requestFor(HELLO).request);
    const sent = api.requests[0];
    expect(sent?.path).toBe("/v1/messages");
    // SDK 1.16 sends the API key as a bearer token (not x-api-key).
    expect(sent?.headers.authorization).toBe("Bearer test-key");
    expect(sent?.body).toEqual({
      model: MODEL,
      max_tokens: 16_384,
      stream: true,
      system: [{ type: "text", text: "You are mca.", cache_control: { type: "ephemeral" } }],
      messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }],
      tools: [
        { name: "read_file", description: "Read a file.", input_schema: TOOLS[0]?.inputSchema },
        {
          name: "bash",
          description: "Run a command.",
          input_schema: TOOLS[1]?.inputSchema,
          cache_control: { type: "ephemeral" },
        },
      ],
    });
  });

  it("assembles a tool call from input_json_delta fragments", async () => {
    const { model } = await harness.setUp([
      {
        kind: "stream",
        events: replyEvents(
          MODEL,
          [
            { type: "text", chunks: ["Let me look."] },
            { type: "tool_use", id: "toolu_1", name: "read_file", jsonChunks: ['{"pa', 'th": "src/', 'a.ts"}'] },
          ],
          "tool_use",
        ),
      },
    ]);
    expect(await model.complete(requestFor(HELLO).request)).toEqual({
      message: {
        role: "assistant",
        content: [
          { type: "text", text: "Let me look." },
          { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "src/a.ts" } },
        ],
      },
      stopReason: "tool_use",
    });
  });

  it("sends each tool_result paired with its tool_use id, is_error included", async () => {
    const { api, model } = await harness.setUp([
      { kind: "stream", events: replyEvents(MODEL, [{ type: "text", chunks: ["done"] }], "end_turn") },
    ]);
    const history: Message[] = [
      ...HELLO,
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "toolu_a", name: "read_file", input: { path: "a" } },
          { type: "tool_use", id: "toolu_b", name: "bash", input: { command: "false" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", toolUseId: "toolu_b", text: "exit code 1", isError: true },
          { type: "tool_result", toolUseId: "toolu_a", text: "1\tcontent", isError: false },
        ],
      },
    ];
    await model.complete(requestFor(history).request);
    const body = api.requests[0]?.body;
    expect(typeof body === "object" && body !== null && "messages" in body ? body.messages : undefined).toEqual([
      { role: "user", content: [{ type: "text", text: "hello" }] },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "toolu_a", name: "read_file", input: { path: "a" } },
          { type: "tool_use", id: "toolu_b", name: "bash", input: { command: "false" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_a", content: "1\tcontent", is_error: false },
          { type: "tool_result", tool_use_id: "toolu_b", content: "exit code 1", is_error: true },
        ],
      },
    ]);
  });

  it("stops mid-stream when aborted and closes the connection", async () => {
    const { api, model } = await harness.setUp([
      {
        kind: "stream",
        events: [
          messageStart(MODEL),
          { event: "content_block_start", data: { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } } },
          { event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Thinking" } } },
        ],
        then: "hang",
      },
    ]);
    const controller = new AbortController();
    const texts: string[] = [];
    const { request: req } = requestFor(HELLO, {
      signal: controller.signal,
      onText: (delta) => {
        texts.push(delta);
        controller.abort();
      },
    });
    await expect(model.complete(req)).rejects.toThrow(/abort/i);
    expect(texts).toEqual(["Thinking"]);
    await api.clientClosed(5_000);
    expect(api.requests).toHaveLength(1);
  });
});
