import { afterEach, describe, expect, it } from "vitest";
import { createHarness, HELLO, MODEL, overloaded, requestFor } from "./test-support/model-harness.js";
import { errorEvent, messageStart, replyEvents } from "./test-support/sse-replies.js";

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

  it("backs off 1 s, 2 s, 4 s on overload and then fails with a clear error", async () => {
    const { api, model, delays } = await harness.setUp([overloaded(), overloaded(), overloaded(), overloaded()]);
    await expect(model.complete(requestFor(HELLO).request)).rejects.toThrow(
      new Error("Anthropic API: overloaded (529) after 3 retries: Overloaded"),
    );
    expect(delays).toEqual([1_000, 2_000, 4_000]);
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

  it("retries a stream cut before any text", async () => {
    const { api, model } = await harness.setUp([
      { kind: "stream", events: [messageStart(MODEL)], then: "cut" },
      { kind: "stream", events: replyEvents(MODEL, [{ type: "text", chunks: ["ok"] }], "end_turn") },
    ]);
    const reply = await model.complete(requestFor(HELLO).request);
    expect(reply.message.content).toEqual([{ type: "text", text: "ok" }]);
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
      /^Anthropic API: network error in the middle of the reply: /,
    );
    expect(api.requests).toHaveLength(1);
  });

  it("retries a network failure, then names it", async () => {
    const { api, model, delays } = await harness.setUp([], { maxRetries: 2 });
    await api.close();
    await expect(model.complete(requestFor(HELLO).request)).rejects.toThrow(/^Anthropic API: network error after 2 retries: /);
    expect(delays).toEqual([1_000, 2_000]);
  });
});
