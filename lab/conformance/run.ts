// `pnpm conformance`: the official MCP conformance suite (pinned runner, under an exact Node 22) against
// mca's client (client.ts: every client scenario the runner lists, at each of its versions, extensions
// forced) and the tickets demo server; one line per run, a closing count, and exit status 1 on any failure
// expected-failures.json does not name.
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ensureNode22 } from "./node22.js";
import { runLimited, type LimitedRun } from "./run-limited.js";
import { clientJobs, SERVER_SCENARIOS, SPEC_VERSION, type ClientJob } from "./scenarios.js";
import { startServerProcess, type ServerProcess } from "./server-process.js";
import { judge, parseChecks, parseExpectedFailures, verdictLines, type Check, type ExpectedFailure, type Verdict } from "./verdict.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const OUT = join(ROOT, "lab", ".out");
const RESULTS = join(OUT, "conformance");
const RUNNER = join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const CLIENT = join(ROOT, "lab", "conformance", "client.ts");
const EXPECTED_FAILURES = join(ROOT, "lab", "conformance", "expected-failures.json");
const TICKETS = join(ROOT, "servers", "tickets.ts");
const TICKETS_PATH = "/mcp";
/** Absolute, so the client command works from wherever the runner spawns it. */
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
/** The runner's own limit for one scenario (its --timeout). */
const SCENARIO_TIMEOUT_MS = 30_000;
/** Ours, around the whole runner process: beyond it the process group is killed. */
const RUN_LIMIT_MS = 90_000;
const PARALLEL_RUNS = 4;

type Job = { readonly mode: "client" | "server"; readonly scenario: string; readonly specVersion: string; readonly forced: boolean };
/** How long `list --client` may take. */
const LIST_LIMIT_MS = 30_000;

function limiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    while (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
    try {
      return await task();
    } finally {
      active -= 1;
      waiting.shift()?.();
    }
  };
}

/**
 * The runner writes `<dir>/<scenario>-<timestamp>/checks.json` (`auth/x` lands in `<dir>/auth/x-<timestamp>`);
 * the dir is emptied before each run.
 */
async function readChecks(runDir: string, scenario: string): Promise<Check[] | Error> {
  const dir = join(runDir, ...scenario.split("/").slice(0, -1));
  const entries = existsSync(dir) ? await readdir(dir, { withFileTypes: true }) : [];
  const run = entries.find((entry) => entry.isDirectory());
  if (run === undefined) return new Error("the runner saved no results");
  const file = join(dir, run.name, "checks.json");
  if (!existsSync(file)) return new Error("the runner saved no checks.json");
  return parseChecks(JSON.parse(await readFile(file, "utf8")));
}

/** What went wrong around the checks, read from the runner's exit and its closing words. */
function runProblem(mode: Job["mode"], run: LimitedRun, signal: AbortSignal): string | undefined {
  if (signal.aborted) return "interrupted";
  if (run.timedOut) return `the runner took longer than ${RUN_LIMIT_MS} ms and was stopped`;
  if (run.code === null) return `the runner was killed: ${run.output.trim().split("\n").slice(-2).join(" / ")}`;
  if (mode === "server") return run.code === 0 || run.code === 1 ? undefined : `the runner exited with ${String(run.code)}`;
  if (run.code === 0) return undefined;
  if (run.output.includes("CLIENT TIMED OUT")) return `the client did not finish within ${SCENARIO_TIMEOUT_MS} ms`;
  const exited = /CLIENT EXITED WITH ERROR \(code (\d+)\)/.exec(run.output);
  return exited ? `the client exited with code ${exited[1]}` : `the runner exited with ${String(run.code)}`;
}

/** A client scenario that runs at several versions is named with its version in the output. */
function shownName(job: Job, versionsOf: ReadonlyMap<string, number>): string {
  if (job.forced) return `${job.scenario} (forced at ${job.specVersion})`;
  return (versionsOf.get(job.scenario) ?? 0) > 1 ? `${job.scenario} (${job.specVersion})` : job.scenario;
}

async function runJob(job: Job, node22: string, target: string, expected: readonly ExpectedFailure[], signal: AbortSignal): Promise<Verdict> {
  const dir = join(RESULTS, job.mode, job.specVersion, job.scenario);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const how = job.mode === "client" ? ["--command", target] : ["--url", target];
  const args = [RUNNER, job.mode, ...how, "--scenario", job.scenario, "--spec-version", job.specVersion, ...(job.forced ? ["--force"] : []), "--timeout", String(SCENARIO_TIMEOUT_MS), "-o", dir];
  const run = await runLimited(node22, args, { cwd: ROOT, limitMs: RUN_LIMIT_MS, signal });
  const checks = await readChecks(dir, job.scenario);
  const problem = runProblem(job.mode, run, signal);
  if (checks instanceof Error) return judge(job.scenario, [], expected, [checks.message, problem].filter(Boolean).join("; "));
  return judge(job.scenario, checks, expected, problem);
}

/** Every client scenario the pinned runner offers, from its own list. */
async function listClientJobs(node22: string, signal: AbortSignal): Promise<ClientJob[] | Error> {
  const run = await runLimited(node22, [RUNNER, "list", "--client"], { cwd: ROOT, limitMs: LIST_LIMIT_MS, signal });
  if (run.code !== 0) return new Error(`the runner's list --client exited with ${String(run.code)}: ${run.output.trim().split("\n").slice(-2).join(" / ")}`);
  return clientJobs(run.output);
}

async function loadExpectedFailures(): Promise<ExpectedFailure[] | Error> {
  return parseExpectedFailures(JSON.parse(await readFile(EXPECTED_FAILURES, "utf8")));
}

async function main(signal: AbortSignal): Promise<number> {
  await mkdir(OUT, { recursive: true });
  const [node22, expected] = await Promise.all([ensureNode22(OUT), loadExpectedFailures()]);
  for (const problem of [node22, expected]) {
    if (problem instanceof Error) process.stderr.write(`conformance: ${problem.message}\n`);
  }
  if (node22 instanceof Error || expected instanceof Error) return 1;
  const listed = await listClientJobs(node22, signal);
  if (listed instanceof Error) {
    process.stderr.write(`conformance: ${listed.message}\n`);
    return 1;
  }
  if (/\s/.test(`${process.execPath}${TSX_LOADER}${CLIENT}`)) {
    process.stderr.write("conformance: the runner splits the client command on spaces; run it from a path without spaces\n");
    return 1;
  }
  const clientCommand = `${process.execPath} --import ${TSX_LOADER} ${CLIENT}`;
  let tickets: ServerProcess | Error;
  try {
    tickets = existsSync(TICKETS)
      ? await startServerProcess({ nodeArgs: ["--import", TSX_LOADER], entry: TICKETS, args: [], cwd: ROOT })
      : new Error(`${TICKETS} does not exist`);
  } catch (error) {
    tickets = error instanceof Error ? error : new Error(String(error));
  }
  const ticketsUrl = tickets instanceof Error ? "" : `http://127.0.0.1:${tickets.port}${TICKETS_PATH}`;
  try {
    const jobs: Job[] = [
      ...listed.map((job) => ({ mode: "client" as const, ...job })),
      ...SERVER_SCENARIOS.map((scenario) => ({ mode: "server" as const, scenario, specVersion: SPEC_VERSION, forced: false })),
    ];
    const versionsOf = new Map<string, number>();
    for (const job of listed) versionsOf.set(job.scenario, (versionsOf.get(job.scenario) ?? 0) + 1);
    const limit = limiter(PARALLEL_RUNS);
    const verdicts = jobs.map((job) =>
      job.mode === "server" && tickets instanceof Error
        ? Promise.resolve(judge(job.scenario, [], [], `the tickets server could not be started: ${tickets.message}`))
        : limit(async () => ({ ...(await runJob(job, node22, job.mode === "client" ? clientCommand : ticketsUrl, expected, signal)), scenario: shownName(job, versionsOf) })),
    );
    let passed = 0;
    let expectedFailures = 0;
    // In the tables' order, each line as soon as it and those before it are known.
    for (const pending of verdicts) {
      const verdict = await pending;
      if (verdict.problems.length === 0) passed += 1;
      expectedFailures += verdict.expectedFailures;
      process.stdout.write(`${verdictLines(verdict).join("\n")}\n`);
    }
    const failed = jobs.length - passed;
    const details = failed > 0 ? ` (details: ${join("lab", ".out", "conformance")}/<client|server>/<version>/<scenario>/)` : "";
    process.stdout.write(`${passed} passed, ${failed} failed (${expectedFailures} expected failures)${details}\n`);
    return failed > 0 || signal.aborted ? 1 : 0;
  } finally {
    if (!(tickets instanceof Error)) await tickets.stop();
  }
}

const interrupted = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => interrupted.abort());
// A reader that went away (`| head`) ends the run the same way; the exit hook of process-groups.ts is the last net.
process.stdout.on("error", () => interrupted.abort());
process.exitCode = await main(interrupted.signal);
