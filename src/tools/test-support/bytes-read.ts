// How many bytes this process read while `work` ran, from Linux's count of every read(2) it makes (rchar in
// /proc/self/io, all threads together): a test that a tool reads a window of a large file and not the rest
// counts the bytes instead of timing the call, so a busy machine cannot fail it.
import { readFileSync } from "node:fs";

export const MiB = 1024 ** 2;

function bytesReadSoFar(): number {
  const count = /^rchar: (\d+)$/mu.exec(readFileSync("/proc/self/io", "utf8"))?.[1];
  if (count === undefined) throw new Error("/proc/self/io has no rchar line");
  return Number(count);
}

export async function bytesReadDuring<T>(work: () => Promise<T>): Promise<{ readonly result: T; readonly bytes: number }> {
  const before = bytesReadSoFar();
  const result = await work();
  return { result, bytes: bytesReadSoFar() - before };
}
