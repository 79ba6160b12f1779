import { afterEach, describe, expect, it } from "vitest";
import type { Message, ToolImage, Usage } from "../kernel/index.js";
import { createHarness, HELLO, MODEL, overloaded, requestFor, TOOLS } from "./test-support/model-harness.js";
import { errorEvent, messageStart, replyEvents } from "./test-support/sse-replies.js";

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
      // What the API reported: message_start's input tokens, message_delta's output tokens.
      usage: { inputTokens: 25, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 12 },
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
      messages: [{ role: "user", content: [{ type: "text", text: "hello", cache_control: { type: "ephemeral" } }] }],
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
      usage: { inputTokens: 25, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 12 },
    });
  });

  it("sends each tool_result with its tool_use id, is_error included", async () => {
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
          { type: "tool_result", toolUseId: "toolu_a", text: "1\tcontent", isError: false },
          { type: "tool_result", toolUseId: "toolu_b", text: "exit code 1", isError: true },
        ],
      },
    ];
    await model.complete(requestFor(history).request);
    const body = api.requests[0]?.body;
    expect(typeof body === "object" && body !== null && "messages" in body ? body.messages : undefined).toEqual([
      // The user message before the newest: where the previous request's cache is read.
      { role: "user", content: [{ type: "text", text: "hello", cache_control: { type: "ephemeral" } }] },
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
          { type: "tool_result", tool_use_id: "toolu_b", content: "exit code 1", is_error: true, cache_control: { type: "ephemeral" } },
        ],
      },
    ]);
  });

  it("sends a result's images after its text, as base64 image blocks with their media type", async () => {
    const { api, model } = await harness.setUp([
      { kind: "stream", events: replyEvents(MODEL, [{ type: "text", chunks: ["a logo"] }], "end_turn") },
    ]);
    const image: ToolImage = { mediaType: "image/gif", data: "R0lGODlhAQABAAAAACw=", bytes: 14, width: 1, height: 1 };
    const history: Message[] = [
      ...HELLO,
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_a", name: "mcp__web__screenshot", input: {} }] },
      { role: "user", content: [{ type: "tool_result", toolUseId: "toolu_a", text: "[image: image/gif 1×1, 14 bytes]", isError: false, images: [image] }] },
    ];
    await model.complete(requestFor(history).request);
    const body = api.requests[0]?.body;
    expect(typeof body === "object" && body !== null && "messages" in body ? body.messages : undefined).toEqual([
      { role: "user", content: [{ type: "text", text: "hello", cache_control: { type: "ephemeral" } }] },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_a", name: "mcp__web__screenshot", input: {} }] },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "toolu_a",
            content: [
              { type: "text", text: "[image: image/gif 1×1, 14 bytes]" },
              { type: "image", source: { type: "base64", media_type: "image/gif", data: "R0lGODlhAQABAAAAACw=" } },
            ],
            is_error: false,
            cache_control: { type: "ephemeral" },
          },
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
    const spent: Usage[] = [];
    const { request: req } = requestFor(HELLO, {
      signal: controller.signal,
      onSpentUsage: (usage) => spent.push(usage),
      onText: (delta) => {
        texts.push(delta);
        controller.abort();
      },
    });
    await expect(model.complete(req)).rejects.toThrow(/abort/i);
    expect(texts).toEqual(["Thinking"]);
    // Billed as far as it got: the input message_start reported.
    expect(spent).toEqual([{ inputTokens: 25, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 1 }]);
    await api.clientClosed(5_000);
    expect(api.requests).toHaveLength(1);
  });
});

describe("createAnthropicModel retries", () => {
  const harness = createHarness();
  afterEach(() => harness.closeAll());

  it("retries a 429, waiting as long as retry-after says", async () => {
    const { api, model, delays } = await harness.setUp([
      {
        kind: "error",
        status: 429,
        headers: { "retry-after": "2" },
        body: { type: "error", error: { type: "rate_limit_error", message: "Slow down" } },
      },
      { kind: "stream", events: replyEvents(MODEL, [{ type: "text", chunks: ["ok"] }], "end_turn") },
    ]);
    const reply = await model.complete(requestFor(HELLO).request);
    expect(reply.message.content).toEqual([{ type: "text", text: "ok" }]);
    expect(delays).toEqual([2_000]);
    expect(api.requests).toHaveLength(2);
  });

  it("backs off 1 s, 2 s, 4 s on overload, saying so each time, and then fails with a clear error", async () => {
    const { api, model, delays } = await harness.setUp([overloaded(), overloaded(), overloaded(), overloaded()]);
    const retries: string[] = [];
    await expect(model.complete(requestFor(HELLO, { onRetry: (message) => retries.push(message) }).request)).rejects.toThrow(
      new Error("Anthropic API: overloaded (529) after 3 retries: Overloaded"),
    );
    expect(delays).toEqual([1_000, 2_000, 4_000]);
    expect(retries).toEqual([
      "overloaded (529); retrying in 1 s, attempt 2 of 4",
      "overloaded (529); retrying in 2 s, attempt 3 of 4",
      "overloaded (529); retrying in 4 s, attempt 4 of 4",
    ]);
    expect(api.unusedReplies()).toBe(0);
  });

  it("really waits between retries when given short delays", async () => {
    const { api, model } = await harness.setUp([overloaded(), overloaded()], {
      maxRetries: 1,
      initialDelayMs: 1,
      sleep: undefined,
    });
    await expect(model.complete(requestFor(HELLO).request)).rejects.toThrow(
      new Error("Anthropic API: overloaded (529) after 1 retry: Overloaded"),
    );
    expect(api.requests).toHaveLength(2);
  });

  it("does not retry a 400", async () => {
    const { api, model } = await harness.setUp([
      { kind: "error", status: 400, body: { type: "error", error: { type: "invalid_request_error", message: "bad tools" } } },
      overloaded(),
    ]);
    await expect(model.complete(requestFor(HELLO).request)).rejects.toThrow(
      new Error("Anthropic API: bad request (400): bad tools"),
    );
    expect(api.requests).toHaveLength(1);
  });

  it("retries an overloaded error event that arrives before any text", async () => {
    const { model, delays } = await harness.setUp([
      { kind: "stream", events: [messageStart(MODEL), errorEvent("overloaded_error", "Overloaded")] },
      { kind: "stream", events: replyEvents(MODEL, [{ type: "text", chunks: ["ok"] }], "end_turn") },
    ]);
    const reply = await model.complete(requestFor(HELLO).request);
    expect(reply.message.content).toEqual([{ type: "text", text: "ok" }]);
    expect(delays).toEqual([1_000]);
  });

  it("retries a stream cut before any text, and reports the tokens of the cut attempt as spent", async () => {
    const { api, model } = await harness.setUp([
      { kind: "stream", events: [messageStart(MODEL)], then: "cut" },
      { kind: "stream", events: replyEvents(MODEL, [{ type: "text", chunks: ["ok"] }], "end_turn") },
    ]);
    const spent: Usage[] = [];
    const reply = await model.complete(requestFor(HELLO, { onSpentUsage: (usage) => spent.push(usage) }).request);
    expect(reply.message.content).toEqual([{ type: "text", text: "ok" }]);
    expect(spent).toEqual([{ inputTokens: 25, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 1 }]);
    expect(api.requests).toHaveLength(2);
  });

  it("does not retry once text has reached the user", async () => {
    const { api, model } = await harness.setUp([
      {
        kind: "stream",
        events: [
          messageStart(MODEL),
          { event: "content_block_start", data: { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } } },
          { event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hal" } } },
        ],
        then: "cut",
      },
      { kind: "stream", events: replyEvents(MODEL, [{ type: "text", chunks: ["ok"] }], "end_turn") },
    ]);
    await expect(model.complete(requestFor(HELLO).request)).rejects.toThrow(
      /^Anthropic API: network error reaching http:\/\/127\.0\.0\.1:\d+ in the middle of the reply: /,
    );
    expect(api.requests).toHaveLength(1);
  });

  it("retries a network failure, then names it and the URL it tried", async () => {
    const { api, model, delays } = await harness.setUp([], { maxRetries: 2 });
    await api.close();
    await expect(model.complete(requestFor(HELLO).request)).rejects.toThrow(`Anthropic API: network error reaching ${api.baseURL} after 2 retries: `);
    expect(delays).toEqual([1_000, 2_000]);
  });
});
