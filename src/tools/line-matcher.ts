// A regular expression the model wrote, run where it can be stopped. JavaScript's engine backtracks, so
// a pattern like `(a+)+$` over 40 `a`s and a `!` runs for minutes, and on the main thread it would
// freeze everything: the chat, every timer, Ctrl-C. The matching runs in a worker thread instead, and a
// stop signal (the user's Ctrl-C, the caller's time limit) terminates the worker, which V8 does even in
// the middle of a match.
import { Worker } from "node:worker_threads";

// The worker's whole program, kept as plain JavaScript so it runs the same from the sources (vitest,
// tsx) and from the build: no file to resolve next to this module.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const pattern = new RegExp(workerData.source, workerData.flags);
parentPort.on("message", ({ lines, maxMatches }) => {
  const matching = [];
  for (let index = 0; index < lines.length && matching.length < maxMatches; index += 1) {
    if (pattern.test(lines[index])) matching.push(index);
  }
  parentPort.postMessage(matching);
});
`;

export type MatchOutcome =
  | { readonly kind: "matched"; readonly indexes: readonly number[] }
  /** The stop signal was aborted before the batch was done; the matcher is closed. */
  | { readonly kind: "stopped" }
  /** The worker itself failed (it could not start, or ran out of memory); the matcher is closed. */
  | { readonly kind: "failed"; readonly message: string };

export interface LineMatcher {
  /** The indexes of the lines `pattern` matches, in order, at most `maxMatches` of them. One batch at a time. */
  match(lines: readonly string[], maxMatches: number): Promise<MatchOutcome>;
  /** Ends the worker; safe to call more than once. */
  close(): Promise<void>;
}

/**
 * A matcher for one pattern (flags without `g` or `y`, so `test` keeps no state between lines). Once
 * `stop` is aborted the worker is terminated and every batch, pending or later, is "stopped".
 */
export function startLineMatcher(pattern: RegExp, stop: AbortSignal): LineMatcher {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { source: pattern.source, flags: pattern.flags } });
  let ended: MatchOutcome | undefined;
  let settlePending: ((outcome: MatchOutcome) => void) | undefined;
  const end = (outcome: MatchOutcome): void => {
    if (ended !== undefined) return;
    ended = outcome;
    stop.removeEventListener("abort", onStop);
    void worker.terminate();
    settlePending?.(outcome);
    settlePending = undefined;
  };
  const onStop = (): void => end({ kind: "stopped" });
  stop.addEventListener("abort", onStop);
  if (stop.aborted) onStop();
  worker.on("message", (indexes: number[]) => {
    settlePending?.({ kind: "matched", indexes });
    settlePending = undefined;
  });
  worker.on("error", (error) => end({ kind: "failed", message: error.message }));
  worker.on("exit", (code) => end({ kind: "failed", message: `the matching worker exited with code ${code}` }));

  return {
    match(lines, maxMatches) {
      if (ended !== undefined) return Promise.resolve(ended);
      if (settlePending !== undefined) return Promise.reject(new Error("a batch is already being matched"));
      return new Promise((resolve) => {
        settlePending = resolve;
        worker.postMessage({ lines, maxMatches });
      });
    },
    async close() {
      end({ kind: "stopped" });
      await worker.terminate();
    },
  };
}
