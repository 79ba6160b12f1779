// Trap 1 made measurable: one long line fed to the line framer in 64 KiB chunks (what a pipe delivers),
// against the instinctive framer that accumulates a string and splits it on every chunk.
// Each run happens in a fresh child process, so "peak RSS" belongs to that run alone.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createLineFramer } from "../src/mcp/index.js";

const CHUNK_BYTES = 64 * 1024;
const BYTES_PER_MB = 1_000_000;
const SIZES_MB = [1, 10, 50];
/** The naive framer is quadratic: it runs at 1 and 10 MB only, and gives up after this long. */
const NAIVE_SIZES_MB = [1, 10];
const NAIVE_BUDGET_MS = 60_000;
const RUN_LIMIT_MS = 300_000;
/** This is a noisy machine as often as not: each child repeats its run and reports the fastest. */
const REPEATS = 3;

type Impl = "framer" | "naive" | "baseline";
type RunResult = { impl: Impl; mb: number; ms: number; peakRssMb: number; ok: boolean; gaveUp: boolean };

function chunksOfOneLine(mb: number): Buffer[] {
  const line = Buffer.alloc(mb * BYTES_PER_MB + 1, "x");
  line[line.length - 1] = 0x0a;
  const chunks: Buffer[] = [];
  for (let at = 0; at < line.length; at += CHUNK_BYTES) chunks.push(line.subarray(at, at + CHUNK_BYTES));
  return chunks;
}

function runFramer(chunks: readonly Buffer[]): { lengths: number[]; gaveUp: boolean } {
  const framer = createLineFramer();
  const lengths: number[] = [];
  for (const chunk of chunks) {
    const lines = framer.push(chunk);
    if (lines instanceof Error) throw lines;
    for (const line of lines) lengths.push(line.length);
  }
  return { lengths: [...lengths, ...framer.end().map((line) => line.length)], gaveUp: false };
}

/** The instinctive version: decode every chunk on its own, append, split the whole buffer each time. */
function runNaive(chunks: readonly Buffer[]): { lengths: number[]; gaveUp: boolean } {
  const started = performance.now();
  const lengths: number[] = [];
  let pending = "";
  for (const chunk of chunks) {
    pending += chunk.toString("utf8");
    const parts = pending.split("\n");
    pending = parts.pop() ?? "";
    for (const part of parts) if (part !== "") lengths.push(part.length);
    if (performance.now() - started > NAIVE_BUDGET_MS) return { lengths, gaveUp: true };
  }
  return { lengths, gaveUp: false };
}

function runOne(impl: Impl, mb: number): RunResult {
  const chunks = chunksOfOneLine(mb);
  let best: RunResult = { impl, mb, ms: Infinity, peakRssMb: 0, ok: true, gaveUp: false };
  for (let round = 0; round < REPEATS; round += 1) {
    const started = performance.now();
    const { lengths, gaveUp } = impl === "framer" ? runFramer(chunks) : impl === "naive" ? runNaive(chunks) : { lengths: [], gaveUp: false };
    const ms = performance.now() - started;
    const ok = impl === "baseline" || (lengths.length === 1 && lengths[0] === mb * BYTES_PER_MB);
    best = { ...best, ms: Math.min(best.ms, ms), ok: best.ok && ok, gaveUp };
    if (gaveUp) break;
  }
  return { ...best, peakRssMb: (process.resourceUsage().maxRSS * 1024) / BYTES_PER_MB };
}

function isRunResult(value: unknown): value is RunResult {
  return typeof value === "object" && value !== null && "impl" in value && "ms" in value && "peakRssMb" in value;
}

function runInChild(impl: Impl, mb: number): RunResult | Error {
  const script = fileURLToPath(import.meta.url);
  const child = spawnSync(process.execPath, [...process.execArgv, script, "--one", impl, String(mb)], {
    encoding: "utf8",
    timeout: RUN_LIMIT_MS,
    maxBuffer: 1024 * 1024,
  });
  if (child.error) return child.error;
  if (child.status !== 0) return new Error(`exit ${child.status ?? child.signal}: ${child.stderr.trim()}`);
  const parsed: unknown = JSON.parse(child.stdout);
  return isRunResult(parsed) ? parsed : new Error(`unexpected output: ${child.stdout}`);
}

function row(cells: readonly string[]): string {
  const widths = [8, 10, 14, 12, 10, 20];
  return cells.map((cell, index) => cell.padEnd(widths[index] ?? 10)).join("");
}

function describeRun(result: RunResult | Error, impl: Impl, mb: number): string {
  const size = impl === "baseline" ? "-" : `${mb} MB`;
  if (result instanceof Error) return row([size, impl, "failed", "", "", result.message]);
  const seconds = result.ms / 1000;
  const time = result.ms < 1000 ? `${result.ms.toFixed(1)} ms` : `${seconds.toFixed(2)} s`;
  const rate = impl === "baseline" || result.gaveUp ? "-" : (mb / seconds).toFixed(0);
  const note = result.gaveUp ? `gave up after ${NAIVE_BUDGET_MS / 1000} s` : result.ok ? "" : "WRONG LINES";
  return row([size, impl, result.gaveUp ? `> ${time}` : time, rate, `${result.peakRssMb.toFixed(0)} MB`, note]);
}

function main(): void {
  if (process.argv[2] === "--one") {
    const impl = process.argv[3];
    if (impl !== "framer" && impl !== "naive" && impl !== "baseline") throw new Error(`unknown impl ${String(impl)}`);
    process.stdout.write(JSON.stringify(runOne(impl, Number(process.argv[4]))));
    return;
  }
  console.log(`One line of N MB fed in ${CHUNK_BYTES / 1024} KiB chunks; each size in its own process, best of ${REPEATS}.`);
  console.log(row(["size", "impl", "time", "MB/s", "peak RSS", "note"]));
  console.log(describeRun(runInChild("baseline", 0), "baseline", 0) + "Node itself, for scale");
  for (const mb of SIZES_MB) {
    console.log(describeRun(runInChild("framer", mb), "framer", mb));
    if (NAIVE_SIZES_MB.includes(mb)) console.log(describeRun(runInChild("naive", mb), "naive", mb));
  }
  console.log("naive = decode each chunk, append to a string, split the whole string on every chunk (quadratic).");
}

main();
