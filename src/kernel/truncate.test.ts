import { describe, expect, it } from "vitest";
import { MAX_RESULT_CHARS, truncateResult } from "./truncate.js";

describe("truncateResult", () => {
  it("leaves a result of exactly 8,000 characters whole", () => {
    const text = "a".repeat(8000);
    expect(truncateResult(text)).toEqual({ text, truncated: false });
  });

  it("cuts an 8,001-character result to 8,000 characters and says one more was cut", () => {
    const text = "a".repeat(8000) + "b";
    expect(truncateResult(text)).toEqual({
      text: `${"a".repeat(8000)}\n\n[1 more characters were cut to fit the budget]`,
      truncated: true,
    });
  });

  it("brings a 100,000-character result to exactly 8,052 characters", () => {
    const result = truncateResult("x".repeat(100_000));
    expect(result.truncated).toBe(true);
    expect(result.text.length).toBe(8052);
    expect(result.text.endsWith("\n\n[92000 more characters were cut to fit the budget]")).toBe(true);
  });

  it("uses a 52-character sentence when the cut count has five digits", () => {
    const result = truncateResult("y".repeat(MAX_RESULT_CHARS + 12_345));
    expect(result.text.slice(MAX_RESULT_CHARS)).toBe("\n\n[12345 more characters were cut to fit the budget]");
    expect(result.text.slice(MAX_RESULT_CHARS).length).toBe(52);
  });

  it("never splits a surrogate pair at the cut", () => {
    const text = "a".repeat(MAX_RESULT_CHARS - 1) + "😀" + "tail";
    expect(truncateResult(text)).toEqual({
      text: `${"a".repeat(MAX_RESULT_CHARS - 1)}\n\n[6 more characters were cut to fit the budget]`,
      truncated: true,
    });
  });
});
