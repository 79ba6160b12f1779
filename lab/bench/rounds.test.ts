import { describe, expect, it } from "vitest";
import type { BenchCase } from "./cases.js";
import { poolRounds, scheduleRounds } from "./rounds.js";

function benchCase(id: string, scenario: string, rounds: number): BenchCase {
  return { id, scenario, label: id, unit: "µs", run: { kind: "limit", check: "mca-cap-5mb" }, rounds, timeoutMs: 1000 };
}

describe("scheduleRounds", () => {
  it("takes the cases of a scenario in turn, round after round, one scenario after another", () => {
    const cases = [benchCase("a1", "A", 2), benchCase("b1", "B", 1), benchCase("a2", "A", 2)];
    expect(scheduleRounds(cases).map(({ benchCase: { id }, round }) => `${id}#${round}`)).toEqual(["a1#1", "a2#1", "a1#2", "a2#2", "b1#1"]);
  });
});

describe("poolRounds", () => {
  it("keeps every sample, the highest peak RSS and the mean CPU per call", () => {
    const first = poolRounds(undefined, { ok: true, samples: [1, 2], peakRssMb: 50, cpuUsPerCall: 10 });
    const second = poolRounds(first, { ok: true, samples: [3], peakRssMb: 40, cpuUsPerCall: 20 });
    const third = poolRounds(second, { ok: true, samples: [4], peakRssMb: 60, cpuUsPerCall: 30 });
    expect(third).toEqual({ ok: true, samples: [1, 2, 3, 4], peakRssMb: 60, cpuUsPerCall: 20, outcome: undefined, rounds: 3 });
  });

  it("fails the case when any round failed", () => {
    const failed = poolRounds({ ok: true, samples: [1], peakRssMb: 50 }, { ok: false, error: "exit 1" });
    expect(poolRounds(failed, { ok: true, samples: [2], peakRssMb: 50 })).toEqual({ ok: false, error: "exit 1" });
  });
});
