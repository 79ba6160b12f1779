import { describe, expect, it } from "vitest";
import { createAgent, type Agent, type AgentDeps } from "./agent.js";
import { estimatedTokens, splitForCompaction, SUMMARY_HEADER } from "./compaction.js";
import type { Message, Model, ModelReply } from "./ports.js";
import { eventLog, memorySnapshots, memoryTranscript, reply, scriptedModel, text, use } from "./test-support/fakes.js";

/** Every tool_use not answered by a tool_result in the message that follows it. */
function unpairedToolUses(messages: readonly Message[]): string[] {
  return messages.flatMap((message, index) => {
    if (message.role !== "assistant") return [];
    const answered = new Set((messages[index + 1]?.content ?? []).flatMap((block) => (block.type === "tool_result" ? [block.toolUseId] : [])));
    return message.content.flatMap((block) => (block.type === "tool_use" && !answered.has(block.id) ? [block.id] : []));
  });
}

const turn = (words: string, id: string): Message[] => [
  { role: "user", content: [text(words)] },
  { role: "assistant", content: [text(`on ${words}`), use(id, "read_file", { path: "x" })] },
  { role: "user", content: [{ type: "tool_result", toolUseId: id, text: "X", isError: false }] },
  { role: "assistant", content: [text(`done ${words}`)] },
];

/** An agent with no tools and no system prompt that compacts at `compactAtTokens`. */
function toollessAgent(model: Model, compactAtTokens: number, sinks: Partial<Pick<AgentDeps, "transcript" | "emit">> = {}): Agent {
  return createAgent({
    model,
    tools: [],
    rules: [],
    system: "",
    approve: async () => "deny",
    snapshots: memorySnapshots(),
    transcript: sinks.transcript ?? memoryTranscript(),
    emit: sinks.emit ?? (() => undefined),
    limits: { compactAtTokens },
  });
}

describe("splitForCompaction", () => {
  it("cuts at the start of a turn, keeping the latest turns whole, tool_use with tool_result", () => {
    const messages = [...turn("one", "a"), ...turn("two", "b"), ...turn("three", "c")];
    const split = splitForCompaction(messages, 2);
    expect(split?.older).toEqual(turn("one", "a"));
    expect(split?.recent).toEqual([...turn("two", "b"), ...turn("three", "c")]);
    expect(splitForCompaction(turn("only", "a"), 2)).toBeNull();
  });
});

describe("automatic compaction", () => {
  it("summarises the older turns through the model before the next prompt once the context passed the threshold, and records it", async () => {
    const withUsage = (value: ModelReply, inputTokens: number): ModelReply => ({ ...value, usage: { inputTokens, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 5 } });
    const steps = [
      () => withUsage(reply(text("first answer")), 50),
      () => withUsage(reply(text("second answer")), 80),
      () => withUsage(reply(text("third answer")), 120),
      // The summary request: the model is asked, with no tools, to summarise the first turn.
      (request: { readonly tools: readonly unknown[] }) => (expect(request.tools).toEqual([]), reply(text("The user asked three things."))),
      () => reply(text("fourth answer")),
    ];
    const transcript = memoryTranscript();
    const { events, emit } = eventLog();
    const agent = toollessAgent(scriptedModel(steps), 100, { transcript, emit });
    const signal = new AbortController().signal;
    for (const prompt of ["one", "two", "three", "four"]) await agent.prompt(prompt, signal);
    const messages = agent.messages;
    expect(messages[0]).toEqual({ role: "user", content: [text(`${SUMMARY_HEADER}\nThe user asked three things.`)] });
    // Kept word for word: the latest turns before the compaction, then the new one.
    expect(messages.slice(2).map((message) => message.content.map((block) => (block.type === "text" ? block.text : block.type)).join(" "))).toEqual([
      "two",
      "second answer",
      "three",
      "third answer",
      "four",
      "fourth answer",
    ]);
    expect(unpairedToolUses(messages)).toEqual([]);
    expect(events.some((event) => event.type === "notice" && event.message.startsWith("context compacted: 2 earlier messages"))).toBe(true);
    expect(transcript.entries.filter((entry) => entry.type === "history").at(-1)).toMatchObject({ type: "history" });
  });
});

describe("estimatedTokens", () => {
  it("counts a quarter token for each character of the system prompt, the tool list and every block", () => {
    const messages: Message[] = [
      { role: "user", content: [text("12345678")] },
      { role: "assistant", content: [use("a", "read_file", { path: "x" })] },
      { role: "user", content: [{ type: "tool_result", toolUseId: "a", text: "1234", isError: false }] },
    ];
    const tools = [{ name: "read_file", description: "reads", inputSchema: { type: "object" } }];
    const chars = "system".length + JSON.stringify(tools).length + 8 + "read_file".length + '{"path":"x"}'.length + 4;
    expect(estimatedTokens("system", messages, tools)).toBe(Math.ceil(chars / 4));
  });
});

describe("automatic compaction for a model that reports no usage", () => {
  it("compacts on the estimate, marked as estimated, and counts afresh after the compaction and after /clear", async () => {
    const long = "x".repeat(400);
    const model = scriptedModel([
      () => reply(text(long)),
      () => reply(text(long)),
      () => reply(text(long)),
      () => reply(text("a summary")),
      () => reply(text("short")),
    ]);
    // Two answers of 400 characters pass 150 estimated tokens; one does not. The two latest turns are kept,
    // so the first compaction that folds anything comes before the fourth prompt.
    const agent = toollessAgent(model, 150);
    const signal = new AbortController().signal;
    expect(agent.contextUse()).toBeNull();
    await agent.prompt("one", signal);
    expect(agent.contextUse()).toEqual({ tokens: Math.ceil(("one".length + 2 + long.length) / 4), estimated: true });
    await agent.prompt("two", signal);
    expect(agent.contextUse()?.tokens).toBeGreaterThan(150);
    await agent.prompt("three", signal);
    const beforeCompaction = agent.contextUse()?.tokens ?? 0;
    await agent.prompt("four", signal);
    expect(agent.messages[0]).toEqual({ role: "user", content: [text(`${SUMMARY_HEADER}\na summary`)] });
    // Counted afresh from the compacted conversation: the first turn's 400 characters are gone from it.
    expect(agent.contextUse()?.tokens).toBeLessThan(beforeCompaction);
    agent.clear();
    expect(agent.contextUse()).toBeNull();
  });
});
