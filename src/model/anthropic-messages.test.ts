import type { Anthropic } from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { createAgent, type AgentEvent, type Message, type Model, type ModelReply, type Tool, type ToolImage } from "../kernel/index.js";
import { fakeTool, memorySnapshots, memoryTranscript, reply, text, use } from "../kernel/test-support/fakes.js";
import { createReplyAssembler, toApiMessages, toApiSystem, toApiTools } from "./anthropic-messages.js";
import { blockEvents, messageStart } from "./test-support/sse-replies.js";

describe("toApiMessages", () => {
  it("maps the kernel's history one to one: results as the kernel ordered them, then the user's text", () => {
    const messages: Message[] = [
      {
        role: "assistant",
        content: [
          { type: "text", text: "Two calls." },
          { type: "tool_use", id: "a", name: "read_file", input: { path: "x" } },
          { type: "tool_use", id: "b", name: "bash", input: { command: "ls" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", toolUseId: "a", text: "A", isError: false },
          { type: "tool_result", toolUseId: "b", text: "B", isError: true },
          { type: "text", text: "also this" },
        ],
      },
    ];
    expect(toApiMessages(messages)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "text", text: "Two calls." },
          { type: "tool_use", id: "a", name: "read_file", input: { path: "x" } },
          { type: "tool_use", id: "b", name: "bash", input: { command: "ls" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "a", content: "A", is_error: false },
          { type: "tool_result", tool_use_id: "b", content: "B", is_error: true },
          { type: "text", text: "also this", cache_control: { type: "ephemeral" } },
        ],
      },
    ]);
  });

  it("sends the images of the user's own turn as image blocks after its text, and an older one as its line", () => {
    const image = (letter: string): ToolImage => ({ mediaType: "image/png", data: `AAA${letter}`, bytes: 3, width: 1, height: 1 });
    const shots = Array.from({ length: 20 }, (_, index) => image(String.fromCharCode(66 + index)));
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "see @web:a" }, { type: "image", image: image("A") }] },
      { role: "assistant", content: [{ type: "tool_use", id: "c", name: "shots", input: {} }] },
      { role: "user", content: [{ type: "tool_result", toolUseId: "c", text: "", isError: false, images: shots.slice(1) }, { type: "text", text: "and @web:b" }, { type: "image", image: shots[0] ?? image("?") }] },
    ];
    const [first, , last] = toApiMessages(messages);
    expect(first).toEqual({ role: "user", content: [{ type: "text", text: "see @web:a" }, { type: "text", text: "[image: image/png 1×1, 3 bytes] [no longer sent: a request carries only the newest, at most 20 and 20 MB]", cache_control: { type: "ephemeral" } }] });
    expect(last?.content.slice(1)).toEqual([
      { type: "text", text: "and @web:b" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAB" }, cache_control: { type: "ephemeral" } },
    ]);
  });

  it("sends only the newest 20 images, and says so in the results whose images stay behind", () => {
    const image = (index: number): ToolImage => ({ mediaType: "image/png", data: `AAA${String.fromCharCode(65 + index)}`, bytes: 3, width: 1, height: 1 });
    // Three results of 1, 2 and 19 images: the oldest result's one and the next one's first stay behind.
    const sizes = [1, 2, 19];
    let next = 0;
    const messages: Message[] = sizes.flatMap((count, call): Message[] => [
      { role: "assistant", content: [{ type: "tool_use", id: `c${call}`, name: "shot", input: {} }] },
      { role: "user", content: [{ type: "tool_result", toolUseId: `c${call}`, text: `shot ${call}`, isError: false, images: Array.from({ length: count }, () => image(next++)) }] },
    ]);
    const sent = toApiMessages(messages).flatMap((message) => (message.role === "user" && Array.isArray(message.content) ? message.content : []));
    const described = sent.map((block) =>
      block.type === "tool_result" && Array.isArray(block.content)
        ? block.content.map((part) => (part.type === "text" ? part.text : part.type === "image" && part.source.type === "base64" ? part.source.data : part.type))
        : [],
    );
    expect(described).toEqual([
      ["shot 0\n[1 of 1 images no longer sent: a request carries only the newest, at most 20 and 20 MB]"],
      ["shot 1\n[1 of 2 images no longer sent: a request carries only the newest, at most 20 and 20 MB]", "AAAC"],
      ["shot 2", ...Array.from({ length: 19 }, (_, index) => `AAA${String.fromCharCode(65 + 3 + index)}`)],
    ]);
  });

  it("sends no more than 20 MB of images' base64 in one request, the newest first", () => {
    // Five images of 5 MB each, the most the API takes per image.
    const big = (letter: string): ToolImage => ({ mediaType: "image/jpeg", data: letter.repeat(5 * 1024 * 1024), bytes: 1, width: 1, height: 1 });
    const messages: Message[] = [
      { role: "assistant", content: [{ type: "tool_use", id: "c", name: "shots", input: {} }] },
      { role: "user", content: [{ type: "tool_result", toolUseId: "c", text: "five", isError: false, images: ["A", "B", "C", "D", "E"].map(big) }] },
    ];
    const [, result] = toApiMessages(messages);
    const block = result?.role === "user" && Array.isArray(result.content) ? result.content[0] : undefined;
    const parts = block?.type === "tool_result" && Array.isArray(block.content) ? block.content : [];
    expect(parts.map((part) => (part.type === "text" ? part.text : part.type === "image" && part.source.type === "base64" ? part.source.data.slice(0, 1) : part.type))).toEqual([
      "five\n[1 of 5 images no longer sent: a request carries only the newest, at most 20 and 20 MB]",
      "B",
      "C",
      "D",
      "E",
    ]);
  });

  it("drops empty text blocks and the messages they leave empty", () => {
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "" }, { type: "text", text: "hi" }] },
      { role: "assistant", content: [{ type: "text", text: "" }] },
    ];
    expect(toApiMessages(messages)).toEqual([{ role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] }]);
  });

  it("marks the newest message and the user message before it for caching, so each request reads the last one's cache", () => {
    const turn = (text: string, id: string): Message[] => [
      { role: "user", content: [{ type: "text", text }] },
      { role: "assistant", content: [{ type: "tool_use", id, name: "read_file", input: { path: "x" } }] },
      { role: "user", content: [{ type: "tool_result", toolUseId: id, text: "X", isError: false }] },
    ];
    const sent = toApiMessages([...turn("first", "a"), ...turn("second", "b")]);
    const marks = sent.flatMap((message, index) =>
      typeof message.content === "string" ? [] : message.content.flatMap((block) => ("cache_control" in block && block.cache_control ? [index] : [])),
    );
    // The newest message (5) and the user message before it (3): two marks, with the system's and the tools' four in all.
    expect(marks).toEqual([3, 5]);
  });
});

/** Every tool_use not answered, in order, by the tool_results that open the next user message. */
function unpairedCalls(messages: readonly Anthropic.MessageParam[]): string[] {
  return messages.flatMap((message, index) => {
    if (message.role !== "assistant" || typeof message.content === "string") return [];
    const calls = message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : []));
    const next = messages[index + 1];
    const answers = next?.role === "user" && typeof next.content !== "string" ? next.content : [];
    const leading = answers.slice(0, calls.length).flatMap((block) => (block.type === "tool_result" ? [block.tool_use_id] : []));
    return calls.filter((id, position) => leading[position] !== id);
  });
}

/** A model that checks each request the kernel makes as the API would, then plays its replies. */
function checkingModel(replies: readonly ModelReply[]): Model & { readonly unpaired: string[][] } {
  const unpaired: string[][] = [];
  let step = 0;
  return {
    name: "checking",
    unpaired,
    async complete(request) {
      unpaired.push(unpairedCalls(toApiMessages(request.messages)));
      const next = replies[step++];
      if (next === undefined) throw new Error(`no reply scripted for request ${step}`);
      return next;
    },
  };
}

function agentWith(model: Model, tools: readonly Tool[], history: readonly Message[] = [], emit = (_event: AgentEvent): void => {}) {
  const approve = async () => "once" as const;
  return createAgent({ model, tools, rules: [], system: "", approve, snapshots: memorySnapshots(), transcript: memoryTranscript(), emit, history });
}

describe("the request the kernel sends through toApiMessages", () => {
  it("never has an unpaired tool_use after a turn aborted mid-call", async () => {
    const controller = new AbortController();
    const hang = fakeTool({ name: "hang", run: () => new Promise(() => controller.abort()) });
    const model = checkingModel([reply(use("u1", "hang"), use("u2", "hang")), reply(text("ok"))]);
    const agent = agentWith(model, [hang]);
    expect(await agent.prompt("go", controller.signal)).toBe("aborted");
    expect(await agent.prompt("again", new AbortController().signal)).toBe("done");
    expect(model.unpaired).toEqual([[], []]);
  });

  it("never has an unpaired tool_use after a turn broken by a bug mid-call", async () => {
    const model = checkingModel([reply(use("u1", "read")), reply(text("ok"))]);
    const emit = (event: AgentEvent): void => {
      if (event.type === "tool_start") throw new Error("a listener's bug");
    };
    const agent = agentWith(model, [fakeTool({ name: "read" })], [], emit);
    expect(await agent.prompt("go", new AbortController().signal)).toBe("model_error");
    expect(await agent.prompt("again", new AbortController().signal)).toBe("done");
    expect(model.unpaired).toEqual([[], []]);
  });

  it("never has an unpaired tool_use when resuming a session that ended mid-call", async () => {
    const history: Message[] = [
      { role: "user", content: [{ type: "text", text: "go" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "u1", name: "read", input: {} }] },
    ];
    const model = checkingModel([reply(text("ok"))]);
    expect(await agentWith(model, [fakeTool({ name: "read" })], history).prompt("again", new AbortController().signal)).toBe("done");
    expect(model.unpaired).toEqual([[]]);
  });

  it("is what the checker itself flags as unpaired when a result is missing", () => {
    expect(unpairedCalls([{ role: "assistant", content: [{ type: "tool_use", id: "u1", name: "x", input: {} }] }])).toEqual(["u1"]);
  });
});

describe("toApiSystem", () => {
  it("sends the prompt as one block marked for caching, and nothing for an empty prompt", () => {
    expect(toApiSystem("Be brief.")).toEqual([{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }]);
    expect(toApiSystem("")).toEqual([]);
  });
});

describe("toApiTools", () => {
  it("marks only the last tool for caching and keeps each schema, typed as an object", () => {
    const schema = { properties: { q: { type: "string" } }, required: ["q"] };
    expect(
      toApiTools([
        { name: "one", description: "First.", inputSchema: schema },
        { name: "two", description: "Second.", inputSchema: { type: "object" } },
      ]),
    ).toEqual([
      { name: "one", description: "First.", input_schema: { ...schema, type: "object" } },
      { name: "two", description: "Second.", input_schema: { type: "object" }, cache_control: { type: "ephemeral" } },
    ]);
  });
});

/** The fake API's event builders give JSON values; the assembler takes them as the SDK parses them. */
function feed(events: ReadonlyArray<{ readonly data: unknown }>, onText: (delta: string) => void = () => {}) {
  const assembler = createReplyAssembler(onText);
  for (const { data } of events) assembler.accept(asStreamEvent(data));
  return assembler;
}

function asStreamEvent(data: unknown): Anthropic.RawMessageStreamEvent {
  // The test data is written to the wire shape; this is the JSON.parse the SDK would do.
  return JSON.parse(JSON.stringify(data));
}

const stop = (reason: string) => [
  { data: { type: "message_delta", delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 1 } } },
  { data: { type: "message_stop" } },
];

describe("createReplyAssembler", () => {
  it("reports a stream that ends before message_stop as incomplete", () => {
    const assembler = feed([messageStart("m"), ...blockEvents({ type: "text", chunks: ["Hi"] }, 0)]);
    expect(assembler.finish()).toEqual({ problem: "incomplete", message: "the reply stream ended before message_stop" });
    expect(assembler.forwardedText).toBe(true);
  });

  it("drops a tool call whose JSON was cut off by max_tokens and keeps the text", () => {
    const assembler = feed([
      messageStart("m"),
      ...blockEvents({ type: "text", chunks: ["Writing"] }, 0),
      ...blockEvents({ type: "tool_use", id: "t1", name: "write_file", jsonChunks: ['{"path": "a", "cont'] }, 1),
      ...stop("max_tokens"),
    ]);
    expect(assembler.finish()).toEqual({
      message: { role: "assistant", content: [{ type: "text", text: "Writing" }] },
      stopReason: "max_tokens",
      usage: { inputTokens: 25, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 1 },
    });
  });

  it("reports broken tool JSON otherwise as malformed", () => {
    const assembler = feed([
      messageStart("m"),
      ...blockEvents({ type: "tool_use", id: "t1", name: "bash", jsonChunks: ["[1, 2]"] }, 0),
      ...stop("tool_use"),
    ]);
    expect(assembler.finish()).toEqual({ problem: "malformed", message: "tool_use bash (t1): input is not a JSON object" });
  });

  it("ignores blocks the kernel has no use for, such as thinking", () => {
    const texts: string[] = [];
    const assembler = feed(
      [
        messageStart("m"),
        { data: { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } } },
        { data: { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "hmm" } } },
        { data: { type: "content_block_stop", index: 0 } },
        ...blockEvents({ type: "text", chunks: ["Answer"] }, 1),
        ...stop("stop_sequence"),
      ],
      (delta) => texts.push(delta),
    );
    expect(assembler.finish()).toEqual({
      message: { role: "assistant", content: [{ type: "text", text: "Answer" }] },
      stopReason: "other",
      usage: { inputTokens: 25, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 1 },
    });
    expect(texts).toEqual(["Answer"]);
  });
});
