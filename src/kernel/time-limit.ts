// Work that may run a pattern someone else wrote (a server's JSON Schema `pattern`, the model's tool_search
// regex) under a time limit. A backtracking regular expression can take minutes on a short text while
// nothing else of mca runs; node:vm's `timeout` interrupts synchronous work, a regular expression included.
import { createContext, runInContext, type Context } from "node:vm";

interface Limiter {
  readonly context: Context;
  work: () => unknown;
}

/** One context for every call: making one costs more than most of the work it guards. */
let limiter: Limiter | undefined;

/**
 * What `work` returns, or an Error once it has run `limitMs` milliseconds (its effects so far stay). `work`
 * runs synchronously, at once; an exception it throws is passed on.
 */
export function withinTimeLimit<T>(work: () => T, limitMs: number): T | Error {
  const own: Limiter = (limiter ??= { context: createContext({ run: () => limiter?.work() }), work: () => undefined });
  let result: { value: T } | undefined;
  own.work = () => {
    result = { value: work() };
  };
  try {
    runInContext("run()", own.context, { timeout: limitMs });
  } catch (error) {
    if (result === undefined && isTimeout(error)) return new Error(`it took longer than ${limitMs} ms`);
    throw error;
  } finally {
    own.work = () => undefined;
  }
  if (result === undefined) throw new Error("the work did not run");
  return result.value;
}

function isTimeout(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "ERR_SCRIPT_EXECUTION_TIMEOUT";
}
