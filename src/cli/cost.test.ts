import { describe, expect, it } from "vitest";
import { createCostTally, estimateCost } from "./cost.js";

const usage = (inputTokens: number, outputTokens: number, cacheReadTokens = 0, cacheWriteTokens = 0) => ({ inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens });

describe("estimateCost", () => {
  it("prices input, output and cache tokens by the model's family, and knows when it cannot", () => {
    // Sonnet: $3 in, $15 out, $0.30 cache read, $3.75 cache write, per million tokens.
    expect(estimateCost("claude-sonnet-5-5", usage(1_000_000, 0))).toBeCloseTo(3);
    expect(estimateCost("claude-sonnet-5-5", usage(0, 1_000_000, 1_000_000, 1_000_000))).toBeCloseTo(15 + 0.3 + 3.75);
    expect(estimateCost("some-other-model", usage(10, 10))).toBeUndefined();
  });
});

describe("createCostTally", () => {
  it("gives one line per turn with the session so far, and the session's totals", () => {
    const tally = createCostTally();
    expect(tally.endTurn()).toBeUndefined();
    tally.add("claude-sonnet-5-5", usage(1000, 100, 5000, 200));
    tally.add("claude-sonnet-5-5", usage(500, 50));
    expect(tally.endTurn()).toBe("6,700 tokens in (5,000 read from cache, 200 written) · 150 out · ~$0.0090 this turn · ~$0.0090 this session");
    tally.add("mystery", usage(1, 1));
    expect(tally.endTurn()).toContain("cost unknown for this model this turn · cost unknown for this model this session");
    expect(tally.sessionLines()[0]).toBe("3 model requests: 6,701 tokens in (5,000 read from cache, 200 written) · 151 out");
  });
});
