import { describe, expect, it } from "vitest";
import type { AgentEvent, ImageInfo } from "../kernel/index.js";
import { createJsonCollector, createStreamJsonRenderer } from "./headless-output.js";

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

describe("createJsonCollector", () => {
  it("gives each call the metadata of the images its result sent to the model", () => {
    const collector = createJsonCollector();
    for (const event of EVENTS) collector.emit(event);
    expect(collector.finish()).toEqual({
      text: "A logo.",
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
      usage: { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0 },
      costUsd: null,
      errors: [],
      turnEnd: "done",
    });
  });
});

describe("createStreamJsonRenderer", () => {
  it("writes a result's image metadata in its event line", () => {
    const lines: string[] = [];
    const render = createStreamJsonRenderer((text) => lines.push(text));
    render(EVENTS[1] ?? { type: "turn_end", reason: "done" });
    expect(lines.map((line): unknown => JSON.parse(line))).toEqual([
      { type: "tool_end", callId: "c1", tool: "mcp__everything__get-tiny-image", isError: false, text: "logo:\n[image: image/png 20×20, 4 kB]", truncated: false, images: [IMAGE] },
    ]);
  });
});
