import { describe, expect, it } from "vitest";
import { BENCH_CASES } from "./cases.js";
import { targetsFor, unknownTargetIds, type Target } from "./targets.js";

describe("bench targets", () => {
  it("name only cases that exist", () => {
    expect(unknownTargetIds()).toEqual([]);
  });
});

describe("bench cases", () => {
  it("have unique ids", () => {
    const ids = BENCH_CASES.map((one) => one.id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });
});

describe("targetsFor", () => {
  const ratio: Target = { kind: "ratio", text: "a ≤ b", subject: "a", anchor: "b", metric: "median", op: "≤", factor: 1 };
  const bound: Target = { kind: "at-most", text: "c ≤ 3", caseId: "c", metric: "median", atMost: 3 };

  it("keeps the targets whose every case ran, and drops those missing one", () => {
    expect(targetsFor(["a", "c"], [ratio, bound])).toEqual([bound]);
  });

  it("keeps every target when every case ran", () => {
    expect(targetsFor(["a", "b", "c"], [ratio, bound])).toEqual([ratio, bound]);
  });
});
