import { describe, expect, it } from "vitest";
import { parseCallOutcome } from "./call-outcome.js";

describe("parseCallOutcome", () => {
  it("reads a complete result with its content, structured content and error flag", () => {
    expect(
      parseCallOutcome({
        resultType: "complete",
        content: [{ type: "text", text: "5" }],
        structuredContent: { sum: 5 },
        isError: false,
      }),
    ).toEqual({ kind: "complete", content: [{ type: "text", text: "5" }], structuredContent: { sum: 5 }, isError: false });
  });

  it("treats a missing resultType as complete and a missing isError as false", () => {
    expect(parseCallOutcome({ content: [] })).toEqual({ kind: "complete", content: [], isError: false });
  });

  it("keeps an input_required result apart, with its requests and opaque state", () => {
    expect(
      parseCallOutcome({ resultType: "input_required", inputRequests: { who: { method: "roots/list" } }, requestState: "s1" }),
    ).toEqual({ kind: "input_required", inputRequests: { who: { method: "roots/list" } }, requestState: "s1" });
  });

  it("rejects an input_required result that carries neither requests nor state", () => {
    expect(parseCallOutcome({ resultType: "input_required" })).toEqual(
      new Error("an input_required result has neither `inputRequests` nor `requestState`"),
    );
  });

  it("rejects an unknown resultType", () => {
    expect(parseCallOutcome({ resultType: "later", content: [] })).toEqual(new Error('unknown resultType "later"'));
  });

  it("rejects a complete result without content", () => {
    expect(parseCallOutcome({ resultType: "complete" })).toEqual(new Error("`content` is not an array"));
  });
});
