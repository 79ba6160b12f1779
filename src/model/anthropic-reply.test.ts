import type { Anthropic } from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { createReplyAssembler } from "./anthropic-reply.js";
import { blockEvents, messageStart } from "./test-support/sse-replies.js";

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
    });
    expect(texts).toEqual(["Answer"]);
  });
});
