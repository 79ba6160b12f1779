// Waiting, with a limit, for a condition that some event will make true: whoever changes the state calls
// `wake()`, every waiter re-checks its condition. No wait here is ever unbounded.

export interface ConditionWaiter {
  /** Resolves true once `condition` holds, or with its value at the limit. */
  waitFor(condition: () => boolean, limitMs: number): Promise<boolean>;
  wake(): void;
}

export function createConditionWaiter(): ConditionWaiter {
  const checks = new Set<() => void>();

  function waitFor(condition: () => boolean, limitMs: number): Promise<boolean> {
    if (condition()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        checks.delete(check);
        resolve(condition());
      };
      const check = (): void => {
        if (condition()) done();
      };
      const timer = setTimeout(done, limitMs);
      checks.add(check);
    });
  }

  function wake(): void {
    for (const check of [...checks]) check();
  }

  return { waitFor, wake };
}
