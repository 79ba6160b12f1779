import { describe, expect, it } from "vitest";
import { startLineMatcher } from "./line-matcher.js";

const CATASTROPHIC = /(a+)+$/;
const CATASTROPHIC_LINE = `${"a".repeat(40)}!`;

describe("startLineMatcher", () => {
  it("gives the indexes of the matching lines, up to the cap", async () => {
    const matcher = startLineMatcher(/b+/i, new AbortController().signal);
    try {
      expect(await matcher.match(["abc", "xyz", "BB", "b"], 10)).toEqual({ kind: "matched", indexes: [0, 2, 3] });
      expect(await matcher.match(["abc", "xyz", "BB", "b"], 2)).toEqual({ kind: "matched", indexes: [0, 2] });
    } finally {
      await matcher.close();
    }
  });

  it("stops a catastrophic match when its signal is aborted, while the event loop keeps running", async () => {
    const stop = new AbortController();
    const matcher = startLineMatcher(CATASTROPHIC, stop.signal);
    // The abort comes from the fifth tick of a timer: it can stop the match only if timers fire during it,
    // that is, only if the match leaves the main thread free. The match alone never ends (2^40 ways).
    let ticks = 0;
    const ticker = setInterval(() => {
      ticks += 1;
      if (ticks === 5) stop.abort();
    }, 20);
    try {
      expect(await matcher.match([CATASTROPHIC_LINE], 10)).toEqual({ kind: "stopped" });
    } finally {
      clearInterval(ticker);
      await matcher.close();
    }
    expect(ticks).toBeGreaterThanOrEqual(5);
  });

  it("answers every later batch with stopped once stopped", async () => {
    const stop = new AbortController();
    const matcher = startLineMatcher(/a/, stop.signal);
    stop.abort();
    expect(await matcher.match(["a"], 1)).toEqual({ kind: "stopped" });
    await matcher.close();
  });
});
