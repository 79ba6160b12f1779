import { describe, expect, it } from "vitest";
import { createConditionWaiter } from "./condition-waiter.js";

describe("createConditionWaiter", () => {
  it("resolves true at once when the condition already holds", async () => {
    expect(await createConditionWaiter().waitFor(() => true, 10_000)).toBe(true);
  });

  it("resolves true when a wake finds the condition true", async () => {
    const waiter = createConditionWaiter();
    let exited = false;
    const waiting = waiter.waitFor(() => exited, 10_000);
    waiter.wake();
    exited = true;
    waiter.wake();
    expect(await waiting).toBe(true);
  });

  it("resolves false at the limit when the condition never holds", async () => {
    expect(await createConditionWaiter().waitFor(() => false, 1)).toBe(false);
  });
});
