import { describe, expect, it } from "vitest";
import type { AgentEvent, ImageInfo, Message } from "../kernel/index.js";
import { createJsonCollector, jsonLine, type RunFacts } from "./headless-output.js";

const FACTS: RunFacts = { sessionId: "20261202-100000-1", durationMs: 42, failed: false };

/** The model's message as the kernel reports it when it enters the history. */
const said = (...content: Extract<Message, { role: "assistant" }>["content"]): AgentEvent => ({ type: "message", message: { role: "assistant", content }, model: "scripted", stopReason: "end_turn" });
const results = (...ids: string[]): AgentEvent => ({ type: "message", message: { role: "user", content: ids.map((toolUseId) => ({ type: "tool_result", toolUseId, text: "", isError: false })) } });

const IMAGE: ImageInfo = { mediaType: "image/png", bytes: 4033, width: 20, height: 20 };

/** A call whose result sent the model one image, and one whose result had none. */
const EVENTS: readonly AgentEvent[] = [
  { type: "tool_start", callId: "c1", tool: "mcp__everything__get-tiny-image", args: {} },
  { type: "tool_end", callId: "c1", tool: "mcp__everything__get-tiny-image", isError: false, text: "logo:\n[image: image/png 20×20, 4 kB]", truncated: false, images: [IMAGE] },
  { type: "tool_start", callId: "c2", tool: "read_file", args: { path: "a" } },
  { type: "tool_end", callId: "c2", tool: "read_file", isError: false, text: "a", truncated: false },
  { type: "text", delta: "A logo." },
  said({ type: "text", text: "A logo." }),
  { type: "turn_end", reason: "done" },
];

/** The result of a run of these events, with FACTS; the clock moves 10 ms at each reading. */
function resultOf(events: readonly AgentEvent[], facts: RunFacts = FACTS) {
  let clockMs = 0;
  const collector = createJsonCollector(() => (clockMs += 10));
  for (const event of events) collector.emit(event);
  return collector.finish(facts);
}

const NO_TOKENS = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0 };

describe("createJsonCollector", () => {
  it("gives each call the metadata of the images its result sent to the model", () => {
    expect(resultOf(EVENTS)).toEqual({
      type: "result",
      subtype: "success",
      is_error: false,
      duration_ms: 42,
      duration_api_ms: 0,
      num_turns: 1,
      result: "A logo.",
      session_id: "20261202-100000-1",
      total_cost_usd: 0,
      usage: NO_TOKENS,
      permission_denials: [],
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
      costUsd: 0,
    });
  });

  it("gives as the result the text of the model's last message alone, not the steps before it", () => {
    const events: AgentEvent[] = [
      said({ type: "text", text: "Let me look at the file first." }, { type: "tool_use", id: "t1", name: "read_file", input: {} }),
      results("t1"),
      said({ type: "text", text: "## Summary" }, { type: "text", text: "\nIt is a demo." }),
      { type: "turn_end", reason: "done" },
    ];
    const { result, text, num_turns } = resultOf(events);
    expect({ result, text, num_turns }).toEqual({ result: "## Summary\nIt is a demo.", text: "## Summary\nIt is a demo.", num_turns: 2 });
  });

  it("lists each call the gate refused or the person denied, with its name, id and input", () => {
    const asked = { verdict: "ask", reason: "default for write tools: ask" } as const;
    const events: AgentEvent[] = [
      { type: "tool_start", callId: "t1", tool: "bash", args: { command: "rm -rf /" } },
      { type: "approval", callId: "t1", tool: "bash", decision: { verdict: "deny", reason: "rule bash(rm*)" } },
      { type: "tool_start", callId: "t2", tool: "write_file", args: { path: "a" } },
      { type: "approval", callId: "t2", tool: "write_file", decision: asked, answer: "deny" },
      { type: "tool_start", callId: "t3", tool: "write_file", args: { path: "b" } },
      { type: "approval", callId: "t3", tool: "write_file", decision: asked, answer: "once" },
    ];
    expect(resultOf(events).permission_denials).toEqual([
      { tool_name: "bash", tool_use_id: "t1", tool_input: { command: "rm -rf /" } },
      { tool_name: "write_file", tool_use_id: "t2", tool_input: { path: "a" } },
    ]);
  });

  it("counts as time spent on the model only the time from each request to its reply or failure", () => {
    // Readings: request 10 → reply 20 (10 ms), tool results 30 → error 40 (10 ms); the tool's run is not counted.
    const events: AgentEvent[] = [
      { type: "message", message: { role: "user", content: [{ type: "text", text: "go" }] } },
      said({ type: "tool_use", id: "t1", name: "read_file", input: {} }),
      results("t1"),
      { type: "error", message: "Model error: overloaded" },
      { type: "turn_end", reason: "model_error" },
    ];
    expect(resultOf(events).duration_api_ms).toBe(20);
  });

  it("carries a final message valid against --output-schema as structured_output, and fails the run when it stayed invalid", () => {
    const valid = resultOf([], { ...FACTS, structured: { kind: "valid", value: { ok: true } } });
    const invalid = resultOf([], { ...FACTS, structured: { kind: "invalid", reason: "the final message is not JSON" } });
    expect([
      { structured_output: valid.structured_output, subtype: valid.subtype },
      { has: "structured_output" in invalid, subtype: invalid.subtype, is_error: invalid.is_error, errors: invalid.errors },
    ]).toEqual([
      { structured_output: { ok: true }, subtype: "success" },
      { has: false, subtype: "error_max_structured_output_retries", is_error: true, errors: ["the final message is not JSON"] },
    ]);
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
      { type: "usage", model: "claude-sonnet-5-5", usage: { ...usage, cacheReadTokens: 7, cacheWriteTokens: 5, outputTokens: 3 } },
      { type: "usage", model: "claude-haiku-5", usage },
    ]);
    expect({ total, total_cost_usd: Math.round((total_cost_usd ?? 0) * 1000) / 1000, costUsd: costUsd === total_cost_usd }).toEqual({
      total: { input_tokens: 2_000_000, output_tokens: 3, cache_creation_input_tokens: 5, cache_read_input_tokens: 7, inputTokens: 2_000_000, cacheReadTokens: 7, cacheWriteTokens: 5, outputTokens: 3 },
      total_cost_usd: 4,
      costUsd: true,
    });
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
