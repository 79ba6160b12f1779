// Waiting for work that the user may abort: the wait ends at once on abort even if the work ignores
// its signal, and whatever the work does later is caught so that it can never surface as unhandled.
// A failure's text for the user or the model is made in one way: describeError.

export type Settled<T> =
  | { readonly kind: "done"; readonly value: T }
  | { readonly kind: "failed"; readonly error: unknown }
  | { readonly kind: "aborted" };

/** Starts `work` unless `signal` is already aborted; a synchronous throw counts as a failure. */
export function settle<T>(work: () => Promise<T>, signal: AbortSignal): Promise<Settled<T>> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve({ kind: "aborted" });
      return;
    }
    const onAbort = (): void => resolve({ kind: "aborted" });
    signal.addEventListener("abort", onAbort, { once: true });
    let running: Promise<T>;
    try {
      running = work();
    } catch (error) {
      running = Promise.reject(error);
    }
    running
      .then(
        (value) => resolve({ kind: "done", value }),
        (error: unknown) => resolve({ kind: "failed", error }),
      )
      .finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** A thrown value as one line of text for the user or the model (tools and models may throw anything). */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message === "" ? error.name : error.message;
  return String(error);
}

/**
 * What another program said (an error, a line of its stderr) or a path it names, fit for one line of mca's
 * output: each control character, which could move the cursor or rewrite the screen, as `?`; at most 200 characters.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/gu, "?").trim().slice(0, 200);
}
