import { describe, expect, it } from "vitest";
import { BENCH_CASES } from "./cases.js";
import { unknownTargetIds } from "./targets.js";

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
