import { describe, expect, it } from "vitest";
import { printable, settle } from "./settle.js";

describe("settle", () => {
  it("reports the value of work that finishes", async () => {
    expect(await settle(async () => 42, new AbortController().signal)).toEqual({ kind: "done", value: 42 });
  });

  it("reports a rejection and a synchronous throw as failures", async () => {
    const signal = new AbortController().signal;
    const boom = new Error("boom");
    expect(await settle(() => Promise.reject(boom), signal)).toEqual({ kind: "failed", error: boom });
    expect(
      await settle(() => {
        throw boom;
      }, signal),
    ).toEqual({ kind: "failed", error: boom });
  });

  it("ends the wait on abort even when the work never settles", async () => {
    const controller = new AbortController();
    const waiting = settle(() => new Promise<never>(() => controller.abort()), controller.signal);
    expect(await waiting).toEqual({ kind: "aborted" });
  });

  it("does not start work when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    let started = false;
    const result = await settle(async () => {
      started = true;
    }, controller.signal);
    expect({ result, started }).toEqual({ result: { kind: "aborted" }, started: false });
  });

  it("swallows a rejection that comes after the abort", async () => {
    const controller = new AbortController();
    let rejectLater: (error: Error) => void = () => undefined;
    const waiting = settle(
      () =>
        new Promise<never>((_, reject) => {
          rejectLater = reject;
          controller.abort();
        }),
      controller.signal,
    );
    expect(await waiting).toEqual({ kind: "aborted" });
    rejectLater(new Error("late"));
    await Promise.resolve();
  });
});

describe("printable", () => {
  it("puts ? for each control character (a newline too), trims the spaces around it, and keeps 200 characters", () => {
    expect(printable("  bwrap: \u001b[2Jno\u0085 namespace\n")).toBe("bwrap: ?[2Jno? namespace?");
    expect(printable("x".repeat(300))).toHaveLength(200);
  });
});
