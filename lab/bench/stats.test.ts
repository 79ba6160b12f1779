import { describe, expect, it } from "vitest";
import { median, percentile, summarise } from "./stats.js";

describe("percentile", () => {
  it("picks the nearest-rank sample, whatever the input order", () => {
    const samples = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect([percentile(samples, 10), percentile(samples, 50), percentile(samples, 95), percentile(samples, 100)]).toEqual([1, 5, 10, 10]);
  });

  it("gives NaN for no samples", () => {
    expect(median([])).toBeNaN();
  });
});

describe("summarise", () => {
  it("reports the slow end of a time as its 95th percentile", () => {
    const times = Array.from({ length: 20 }, (_, index) => index + 1);
    expect(summarise(times, false)).toEqual({ median: 10, p95: 19, count: 20 });
  });

  it("reports the slow end of a rate as its 5th percentile", () => {
    const rates = Array.from({ length: 20 }, (_, index) => index + 1);
    expect(summarise(rates, true)).toEqual({ median: 10, p95: 1, count: 20 });
  });
});
