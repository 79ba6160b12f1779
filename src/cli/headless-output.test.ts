import { describe, expect, it } from "vitest";
import type { AgentEvent, ImageInfo } from "../kernel/index.js";
import { createJsonCollector, jsonLine, type RunFacts } from "./headless-output.js";

const FACTS: RunFacts = { sessionId: "20261202-100000-1", numTurns: 2, durationMs: 42, failed: false };

const IMAGE: ImageInfo = { mediaType: "image/png", bytes: 4033, width: 20, height: 20 };

/** A call whose result sent the model one image, and one whose result had none. */
const EVENTS: readonly AgentEvent[] = [
  { type: "tool_start", callId: "c1", tool: "mcp__everything__get-tiny-image", args: {} },
  { type: "tool_end", callId: "c1", tool: "mcp__everything__get-tiny-image", isError: false, text: "logo:\n[image: image/png 20×20, 4 kB]", truncated: false, images: [IMAGE] },
  { type: "tool_start", callId: "c2", tool: "read_file", args: { path: "a" } },
  { type: "tool_end", callId: "c2", tool: "read_file", isError: false, text: "a", truncated: false },
  { type: "text", delta: "A logo." },
  { type: "turn_end", reason: "done" },
];

/** The result of a run whose events say nothing but the text given, with FACTS. */
function resultOf(events: readonly AgentEvent[], facts: RunFacts = FACTS) {
  const collector = createJsonCollector();
  for (const event of events) collector.emit(event);
  return collector.finish(facts);
}

const NO_TOKENS = { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0 };

describe("createJsonCollector", () => {
  it("gives each call the metadata of the images its result sent to the model", () => {
    expect(resultOf(EVENTS)).toEqual({
      type: "result",
      subtype: "success",
      is_error: false,
      result: "A logo.",
      session_id: "20261202-100000-1",
      num_turns: 2,
      duration_ms: 42,
      usage: NO_TOKENS,
      total_cost_usd: null,
      toolCalls: [
        {
          tool: "mcp__everything__get-tiny-image",
          args: {},
          approval: { verdict: "allow", reason: null, answer: null },
          isError: false,
          result: "logo:\n[image: image/png 20×20, 4 kB]",
          truncated: false,
          images: [IMAGE],
        },
        { tool: "read_file", args: { path: "a" }, approval: { verdict: "allow", reason: null, answer: null }, isError: false, result: "a", truncated: false, images: [] },
      ],
      errors: [],
      turnEnd: "done",
      text: "A logo.",
      costUsd: null,
    });
  });

  it("keeps each step's text apart by a blank line: the text before a call, after it, and of the next prompt", () => {
    const events: AgentEvent[] = [
      { type: "text", delta: "first" },
      { type: "text", delta: ".\n" },
      { type: "tool_start", callId: "c1", tool: "read_file", args: {} },
      { type: "tool_end", callId: "c1", tool: "read_file", isError: false, text: "", truncated: false },
      { type: "text", delta: "## Summary" },
      { type: "turn_end", reason: "done" },
      { type: "text", delta: "again" },
      { type: "turn_end", reason: "done" },
    ];
    expect(resultOf(events).result).toBe("first.\n\n## Summary\n\nagain");
  });

  it("tells a run stopped by a limit from one that failed, and both from a success", () => {
    const ended = (reason: Extract<AgentEvent, { type: "turn_end" }>["reason"]): AgentEvent[] => [{ type: "turn_end", reason }, { type: "turn_end", reason: "done" }];
    const verdict = (events: readonly AgentEvent[], failed = false) => {
      const { subtype, is_error } = resultOf(events, { ...FACTS, failed });
      return { subtype, is_error };
    };
    expect([verdict(ended("turn_limit")), verdict(ended("budget_limit")), verdict(ended("loop_limit")), verdict(ended("model_error")), verdict(ended("aborted")), verdict(ended("done"), true), verdict(ended("done"))]).toEqual([
      { subtype: "error_max_turns", is_error: true },
      { subtype: "error_max_budget_usd", is_error: true },
      { subtype: "error_max_turns", is_error: true },
      { subtype: "error_during_execution", is_error: true },
      { subtype: "error_during_execution", is_error: true },
      { subtype: "error_during_execution", is_error: true },
      { subtype: "success", is_error: false },
    ]);
  });

  it("adds up the tokens and the estimated cost of every request", () => {
    const usage = { inputTokens: 1_000_000, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0 };
    const { usage: total, total_cost_usd, costUsd } = resultOf([
      { type: "usage", model: "claude-sonnet-5-5", usage },
      { type: "usage", model: "claude-haiku-5", usage },
    ]);
    expect({ total, total_cost_usd, costUsd }).toEqual({ total: { ...usage, inputTokens: 2_000_000 }, total_cost_usd: 4, costUsd: 4 });
  });
});

describe("jsonLine", () => {
  it("writes a result's image metadata in its event line, one line that parses back", () => {
    const line = jsonLine(EVENTS[1] ?? { type: "turn_end", reason: "done" });
    expect(line.split("\n")).toHaveLength(2);
    expect(JSON.parse(line)).toEqual({ type: "tool_end", callId: "c1", tool: "mcp__everything__get-tiny-image", isError: false, text: "logo:\n[image: image/png 20×20, 4 kB]", truncated: false, images: [IMAGE] });
  });

  it("escapes control characters from outside, so a terminal reading the stream obeys none", () => {
    const line = jsonLine({ type: "text", delta: "\u001b]0;owned\u0007" });
    expect([line.includes("\u001b"), JSON.parse(line)]).toEqual([false, { type: "text", delta: "\u001b]0;owned\u0007" }]);
  });
});
