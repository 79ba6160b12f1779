import { describe, expect, it } from "vitest";
import { completeResultText, inputRequiredText, parseCallOutcome } from "./call-result.js";
import type { JsonObject } from "./jsonrpc.js";

const complete = (content: unknown, extra: JsonObject = {}) => parseCallOutcome({ resultType: "complete", content, ...extra });

describe("parseCallOutcome", () => {
  it("reads a complete result with its content, structured content and error flag", () => {
    expect(complete([{ type: "text", text: "5" }], { structuredContent: { sum: 5 }, isError: false })).toEqual({
      kind: "complete",
      content: [{ type: "text", text: "5" }],
      structuredContent: { sum: 5 },
      isError: false,
    });
  });

  it("treats a missing resultType as complete and a missing isError as false", () => {
    expect(parseCallOutcome({ content: [] })).toEqual({ kind: "complete", content: [], isError: false });
  });

  it("keeps an input_required result apart, with its requests and opaque state", () => {
    expect(parseCallOutcome({ resultType: "input_required", inputRequests: { who: { method: "roots/list" } }, requestState: "s1" })).toEqual({
      kind: "input_required",
      inputRequests: { who: { method: "roots/list" } },
      requestState: "s1",
    });
  });

  it("rejects an input_required result that carries neither requests nor state", () => {
    expect(parseCallOutcome({ resultType: "input_required" })).toEqual(new Error("an input_required result has neither `inputRequests` nor `requestState`"));
  });

  it("rejects an unknown resultType", () => {
    expect(parseCallOutcome({ resultType: "later", content: [] })).toEqual(new Error('unknown resultType "later"'));
  });

  it("rejects a complete result without content", () => {
    expect(parseCallOutcome({ resultType: "complete" })).toEqual(new Error("`content` is not an array"));
  });
});

describe("the content blocks of a result", () => {
  it("are read in every kind, keeping annotations and _meta", () => {
    const blocks = [
      { type: "text", text: "hi", annotations: { audience: ["user"] }, _meta: { k: 1 } },
      { type: "image", data: "aGk=", mimeType: "image/png" },
      { type: "audio", data: "aGk=", mimeType: "audio/wav" },
      { type: "resource_link", uri: "file:///a", name: "a", title: "A", size: 3 },
      { type: "resource", resource: { uri: "file:///b", mimeType: "text/plain", text: "b" } },
    ];
    expect(complete(blocks)).toEqual({ kind: "complete", content: blocks, isError: false });
  });

  it("leave out optional fields of the wrong type", () => {
    expect(complete([{ type: "text", text: "hi", annotations: null, extra: 1 }])).toEqual({ kind: "complete", content: [{ type: "text", text: "hi" }], isError: false });
  });

  it("name the block and the missing field", () => {
    expect(complete([{ type: "text", text: "ok" }, { type: "image", data: "x" }])).toEqual(new Error('content[1]: a "image" block has no string `mimeType`'));
    expect(complete([{ type: "resource", resource: {} }])).toEqual(new Error('content[0]: a "resource" block has no string `resource.uri`'));
  });

  it("refuse an unknown block type", () => {
    expect(complete([{ type: "video" }])).toEqual(new Error('content[0]: unknown type "video"'));
  });
});

describe("completeResultText", () => {
  it("gives text blocks as they are and describes the others in a line", () => {
    const outcome = complete([
      { type: "text", text: "two files" },
      { type: "image", data: "aGVsbG8=", mimeType: "image/png" },
      { type: "resource_link", uri: "file:///a", name: "a", mimeType: "text/plain" },
      { type: "resource", resource: { uri: "file:///b", text: "bee" } },
    ]);
    if (outcome instanceof Error || outcome.kind !== "complete") throw new Error("not complete");
    expect(completeResultText(outcome)).toBe(
      "two files\n[image image/png, 6 bytes; not shown as text]\n[resource link file:///a: a, text/plain]\n[resource file:///b]\nbee",
    );
  });

  it("shows structured content only when no block carries text", () => {
    const outcome = complete([], { structuredContent: { sum: 5 } });
    if (outcome instanceof Error || outcome.kind !== "complete") throw new Error("not complete");
    expect([completeResultText(outcome), completeResultText({ ...outcome, structuredContent: undefined })]).toEqual([
      '{"sum":5}',
      "(the tool returned no content)",
    ]);
  });
});

describe("inputRequiredText", () => {
  it("tells the model what the server still needs, never as finished work", () => {
    expect(inputRequiredText("ops", "deploy", { kind: "input_required", inputRequests: { ok: { method: "elicitation/create", params: { message: "Sure?" } } } })).toBe(
      'The call did not finish: MCP server "ops" needs more input before "deploy" can complete, and it was not provided.\nIt asked for:\n- ok: elicitation/create: Sure?',
    );
  });
});
