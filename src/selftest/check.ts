// The self-test's one way to fail: a check that throws with what it saw, so each assertion reads as a list.
import type { Fixture } from "./fixture.js";

export interface Assertion {
  readonly name: string;
  /** Resolves with a short account of what was seen; rejects with what went wrong. */
  run(fixture: Fixture): Promise<string>;
}

export function check(condition: boolean, failure: string): asserts condition {
  if (!condition) throw new Error(failure);
}

/** A limit for every call the self-test makes, so a broken part turns an assertion red instead of hanging. */
export const SELFTEST_CALL_LIMIT_MS = 10_000;

export function callSignal(): AbortSignal {
  return AbortSignal.timeout(SELFTEST_CALL_LIMIT_MS);
}
