import { describe, expect, it } from "vitest";
import { createLoopGuard, REPEAT_REFUSE_AT, REPEAT_STOP_AT, type Repeat } from "./loop-guard.js";

describe("createLoopGuard", () => {
  it("runs two identical calls, refuses the 3rd and 4th, and stops at the 5th", () => {
    const guard = createLoopGuard();
    const seen: Repeat[] = [];
    for (let index = 0; index < 5; index++) seen.push(guard.record("read_file", { path: "a" }));
    expect(seen).toEqual([
      { kind: "run" },
      { kind: "run" },
      { kind: "refuse", count: 3 },
      { kind: "refuse", count: 4 },
      { kind: "stop", count: 5 },
    ]);
    expect([REPEAT_REFUSE_AT, REPEAT_STOP_AT]).toEqual([3, 5]);
  });

  it("treats arguments that differ only in key order as the same call", () => {
    const guard = createLoopGuard();
    guard.record("search", { query: "x", limit: 2, filter: { b: 1, a: 2 } });
    guard.record("search", { limit: 2, filter: { a: 2, b: 1 }, query: "x" });
    expect(guard.record("search", { filter: { b: 1, a: 2 }, query: "x", limit: 2 })).toEqual({ kind: "refuse", count: 3 });
  });

  it("counts different arguments and different tools separately", () => {
    const guard = createLoopGuard();
    guard.record("read_file", { path: "a" });
    guard.record("read_file", { path: "a" });
    expect(guard.record("read_file", { path: "b" })).toEqual({ kind: "run" });
    expect(guard.record("list_dir", { path: "a" })).toEqual({ kind: "run" });
  });

  it("starts counting afresh after a reset", () => {
    const guard = createLoopGuard();
    guard.record("read_file", { path: "a" });
    guard.record("read_file", { path: "a" });
    guard.reset();
    expect(guard.record("read_file", { path: "a" })).toEqual({ kind: "run" });
    expect(guard.record("read_file", { path: "a" })).toEqual({ kind: "run" });
  });

  it("follows the thresholds it is given", () => {
    const guard = createLoopGuard({ refuseAt: 2, stopAt: 3 });
    expect([guard.record("t", {}), guard.record("t", {}), guard.record("t", {})]).toEqual([
      { kind: "run" },
      { kind: "refuse", count: 2 },
      { kind: "stop", count: 3 },
    ]);
  });
});
