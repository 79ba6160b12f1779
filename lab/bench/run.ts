// `pnpm bench`: compiles, runs every case in a fresh process one after another, prints the figures and
// the targets as Markdown, saves the run under lab/.out/bench/runs, and checks that no process is left.
// `--only <text>` (repeatable) runs just the cases whose id contains one of the texts.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { BENCH_CASES, type BenchCase } from "./cases.js";
import { COMPILED_DIR, compileForBench } from "./compile.js";
import { figuresTable, targetsTable, type CaseReport } from "./report.js";
import { poolRounds, scheduleRounds } from "./rounds.js";
import { targetsFor } from "./targets.js";

const REPO_DIR = process.cwd();
const RUNS_DIR = join("lab", ".out", "bench", "runs");
const STDERR_TAIL_CHARS = 600;

function log(text: string): void {
  process.stderr.write(`${text}\n`);
}

function parseOutput(stdout: string): CaseReport {
  const line = stdout.trim().split("\n").at(-1) ?? "";
  const parsed: unknown = JSON.parse(line);
  if (typeof parsed !== "object" || parsed === null || !("samples" in parsed) || !Array.isArray(parsed.samples)) {
    return { ok: false, error: `unexpected output: ${line.slice(0, 200)}` };
  }
  const samples = parsed.samples.filter((sample): sample is number => typeof sample === "number");
  const peakRssMb = "peakRssMb" in parsed && typeof parsed.peakRssMb === "number" ? parsed.peakRssMb : undefined;
  const cpuUsPerCall = "cpuUsPerCall" in parsed && typeof parsed.cpuUsPerCall === "number" ? parsed.cpuUsPerCall : undefined;
  const outcome = "outcome" in parsed && typeof parsed.outcome === "string" ? parsed.outcome : undefined;
  return { ok: true, samples, peakRssMb, cpuUsPerCall, outcome };
}

/** Runs one case in its own process group, so that a timeout takes down whatever it started. */
function runCase(benchCase: BenchCase): Promise<CaseReport> {
  const script = join(REPO_DIR, COMPILED_DIR, "lab", "bench", "case-main.js");
  const child = spawn(process.execPath, [script, benchCase.id], { cwd: REPO_DIR, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS)));
  return new Promise((resolve) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    }, benchCase.timeoutMs);
    child.once("error", (error) => resolve({ ok: false, error: error.message }));
    child.once("close", (code) => {
      clearTimeout(timer);
      const why = stderr.trim().split("\n").slice(-3).join(" / ");
      if (timedOut) resolve({ ok: false, error: `no result within ${benchCase.timeoutMs / 1000} s` });
      else if (code !== 0) resolve({ ok: false, error: `exit ${code}: ${why}` });
      else {
        try {
          resolve(parseOutput(stdout));
        } catch (error) {
          resolve({ ok: false, error: `unreadable output (${error instanceof Error ? error.message : String(error)})` });
        }
      }
    });
  });
}

/** Processes still running a compiled bench file or a start-up project: ours, found by their command line. */
function leftoverPids(): number[] {
  const listing = spawnSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" }).stdout ?? "";
  return listing
    .split("\n")
    .filter((line) => line.includes(join(REPO_DIR, COMPILED_DIR)) || line.includes("mca-bench-"))
    .map((line) => Number(line.trim().split(/\s+/)[0]))
    .filter((pid) => Number.isInteger(pid) && pid !== process.pid);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { only: { type: "string", multiple: true } } });
  const only = values.only ?? [];
  const cases = BENCH_CASES.filter((one) => only.length === 0 || only.some((text) => one.id.includes(text)));
  const started = performance.now();
  const loadBefore = loadavg()[0] ?? 0;
  log(`compiling (pnpm build, and the bench to ${COMPILED_DIR})…`);
  for (const warning of await compileForBench(REPO_DIR)) log(warning);

  const reports = new Map<string, CaseReport>();
  const runs = scheduleRounds(cases);
  for (const [index, { benchCase, round }] of runs.entries()) {
    const runStarted = performance.now();
    const report = await runCase(benchCase);
    reports.set(benchCase.id, poolRounds(reports.get(benchCase.id), report));
    const seconds = ((performance.now() - runStarted) / 1000).toFixed(1);
    const which = benchCase.rounds > 1 ? ` (round ${round} of ${benchCase.rounds})` : "";
    log(`[${index + 1}/${runs.length}] ${benchCase.id}${which}: ${report.ok ? "ok" : `FAILED ${report.error}`} (${seconds} s)`);
  }

  const leftovers = leftoverPids();
  // Whatever is left was started by this run: end exactly those processes.
  for (const pid of leftovers) process.kill(pid, "SIGKILL");
  const date = new Date().toISOString();
  const header = [
    `mca bench, ${date.slice(0, 10)} — Node ${process.version}, ${process.platform}/${process.arch}, ${cases.length} cases in ` +
      `${((performance.now() - started) / 1000).toFixed(0)} s; load average ${loadBefore.toFixed(1)} before, ` +
      `${(loadavg()[0] ?? 0).toFixed(1)} after; processes left behind: ${leftovers.length}`,
  ];
  const text = [...header, "", figuresTable(cases, reports), "", targetsTable(cases, reports, targetsFor(cases.map((one) => one.id))), ""].join("\n");
  process.stdout.write(text);
  mkdirSync(RUNS_DIR, { recursive: true });
  const stamp = date.replace(/[:.]/g, "-");
  writeFileSync(join(RUNS_DIR, `${stamp}.md`), text);
  writeFileSync(join(RUNS_DIR, `${stamp}.json`), `${JSON.stringify(Object.fromEntries(reports), null, 2)}\n`);
  log(`saved ${join(RUNS_DIR, `${stamp}.md`)} and .json`);
}

main().catch((error: unknown) => {
  log(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});
