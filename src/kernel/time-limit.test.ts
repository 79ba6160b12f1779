import { describe, expect, it } from "vitest";
import { withinTimeLimit } from "./time-limit.js";

describe("withinTimeLimit", () => {
  it("returns what the work returns", () => {
    expect(withinTimeLimit(() => ({ sum: 1 + 2 }), 1000)).toEqual({ sum: 3 });
  });

  it("stops a regular expression that would backtrack for minutes, with an Error naming the limit", () => {
    const costly = /^(a+)+$/u;
    expect(withinTimeLimit(() => costly.test(`${"a".repeat(40)}!`), 100)).toEqual(new Error("it took longer than 100 ms"));
  });

  it("passes on what the work throws", () => {
    expect(() =>
      withinTimeLimit(() => {
        throw new TypeError("broken");
      }, 1000),
    ).toThrow(new TypeError("broken"));
  });
});
