import { describe, expect, it } from "vitest";
import { createLoopGuard, REPEAT_REFUSE_AT, REPEAT_STOP_AT, type Repeat } from "./loop-guard.js";
import type { ToolImage } from "./tool.js";

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

  const ok = (text: string) => ({ text, isError: false });

  it("counts the repeats of a command over unchanged state, though a command may change state", () => {
    const guard = createLoopGuard();
    const seen: Repeat[] = [];
    for (let index = 0; index < 5; index++) {
      const repeat = guard.record("bash", { command: "make" });
      seen.push(repeat);
      if (repeat.kind === "run") guard.settle("bash", { command: "make" }, { result: ok("built"), mayChangeState: true });
    }
    expect(seen.map((repeat) => repeat.kind)).toEqual(["run", "run", "refuse", "refuse", "stop"]);
  });

  it("runs an identical call after a change elsewhere and starts its count over when the result differs", () => {
    const guard = createLoopGuard();
    const read = (result: string): [Repeat, Repeat] => {
      const before = guard.record("read_file", { path: "a" });
      return [before, guard.settle("read_file", { path: "a" }, { result: ok(result), mayChangeState: false })];
    };
    read("one");
    read("one");
    guard.record("write_file", { path: "a" });
    guard.settle("write_file", { path: "a" }, { result: ok("written"), mayChangeState: true });
    expect(read("two")).toEqual([{ kind: "run" }, { kind: "run" }]);
    expect(read("two")).toEqual([{ kind: "run" }, { kind: "run" }]);
    expect(guard.record("read_file", { path: "a" })).toEqual({ kind: "refuse", count: 3 });
  });

  it("counts an identical call after a change when it returned the same result, and stops at the 5th afterwards", () => {
    const guard = createLoopGuard();
    const outcomes: Repeat[] = [];
    for (let index = 0; index < 5; index++) {
      guard.record("read_file", { path: "a" });
      outcomes.push(guard.settle("read_file", { path: "a" }, { result: ok("same"), mayChangeState: false }));
      guard.record("bash", { command: `touch b${index}` });
      guard.settle("bash", { command: `touch b${index}` }, { result: ok(""), mayChangeState: true });
    }
    expect(outcomes).toEqual([{ kind: "run" }, { kind: "run" }, { kind: "run" }, { kind: "run" }, { kind: "stop", count: 5 }]);
  });

  it("tells results of the same text apart by their images: a screenshot of a page that changed is news", () => {
    const shots = (data: readonly string[]): Repeat[] => {
      const guard = createLoopGuard();
      return data.map((one, index) => {
        const image: ToolImage = { mediaType: "image/png", data: one, bytes: 3, width: 1, height: 1 };
        guard.record("mcp__web__shot", {});
        const repeat = guard.settle("mcp__web__shot", {}, { result: { text: "[image: image/png 1×1, 3 bytes]", isError: false, images: [image] }, mayChangeState: false });
        guard.record("mcp__web__click", { index });
        guard.settle("mcp__web__click", { index }, { result: ok("clicked"), mayChangeState: true });
        return repeat;
      });
    };
    const ran: Repeat = { kind: "run" };
    expect([shots(["AAAA", "AAAB", "AAAC", "AAAD", "AAAE"]), shots(["AAAE", "AAAE", "AAAE", "AAAE", "AAAE"])]).toEqual([
      [ran, ran, ran, ran, ran],
      [ran, ran, ran, ran, { kind: "stop", count: 5 }],
    ]);
  });

  it("tells an error result from the same text as a success", () => {
    const guard = createLoopGuard();
    guard.record("t", {});
    guard.settle("t", {}, { result: ok("x"), mayChangeState: false });
    guard.record("w", {});
    guard.settle("w", {}, { result: ok(""), mayChangeState: true });
    guard.record("t", {});
    guard.settle("t", {}, { result: { text: "x", isError: true }, mayChangeState: false });
    // The error result started the count over (1), so the refusal comes at 3 here, not at 4.
    expect(guard.record("t", {})).toEqual({ kind: "run" });
    expect(guard.record("t", {})).toEqual({ kind: "refuse", count: 3 });
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
