// The local tools on inputs too large to read whole: a sparse 2 GB file (text at the start, NULs after
// it, which cost no disk) and a folder of 200,000 entries (hard links to a few empty files). Each case runs
// in a fresh child process, so its peak RSS is its own. Run: `npx tsx lab/large-inputs-bench.ts`.
import { spawnSync } from "node:child_process";
import { linkSync, mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Tool } from "../src/kernel/index.js";
import { createLocalTools } from "../src/tools/index.js";

const HUGE_FILE_BYTES = 2 * 1024 ** 3;
const FOLDER_ENTRIES = 200_000;
const LINKS_PER_TARGET = 50_000;
const CASE_LIMIT_MS = 120_000;

interface BenchCase {
  readonly id: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

const CASES: readonly BenchCase[] = [
  // What a child costs before any large input: the process, tsx and the tools.
  { id: "baseline: list_dir of an empty folder", tool: "list_dir", args: { path: "empty" } },
  { id: "read_file: first window of the 2 GB file", tool: "read_file", args: { path: "huge.log" } },
  // The first pass over the sparse tail fills the page cache with its zeros; the same call again reads from there.
  { id: "read_file: offset past the end of the 2 GB file (cold)", tool: "read_file", args: { path: "huge.log", offset: 1_000_000 } },
  { id: "read_file: the same again (warm)", tool: "read_file", args: { path: "huge.log", offset: 1_000_000 } },
  { id: "search: a pattern matching the first lines of the 2 GB file", tool: "search", args: { pattern: "entry", path: "huge.log" } },
  { id: "search: a pattern matching nothing in the 2 GB file", tool: "search", args: { pattern: "nowhere", path: "huge.log" } },
  { id: "list_dir: a folder of 200,000 entries", tool: "list_dir", args: { path: "many" } },
];

function prepare(project: string): void {
  writeFileSync(join(project, "huge.log"), Array.from({ length: 5_000 }, (_, i) => `entry ${i + 1}`).join("\n"));
  truncateSync(join(project, "huge.log"), HUGE_FILE_BYTES);
  mkdirSync(join(project, "empty"));
  const folder = join(project, "many");
  mkdirSync(folder);
  // ext4 allows 65,000 links to one file: a new target every 50,000 entries.
  for (let i = 0; i < FOLDER_ENTRIES; i++) {
    const target = join(folder, `f${i - (i % LINKS_PER_TARGET)}`);
    if (i % LINKS_PER_TARGET === 0) writeFileSync(target, "");
    else linkSync(target, join(folder, `f${i}`));
  }
}

/** In the child: one call, then its table row: time, peak RSS and how the result ends. */
async function runCase(project: string, index: number): Promise<void> {
  const spec = CASES[index];
  if (spec === undefined) throw new Error(`no case ${index}`);
  const tool: Tool | undefined = createLocalTools(project).find((candidate) => candidate.name === spec.tool);
  if (tool?.parse === undefined) throw new Error(`no local tool ${spec.tool}`);
  const parsed = tool.parse(spec.args);
  if (parsed instanceof Error) throw parsed;
  const started = performance.now();
  const result = await tool.run(parsed, { signal: new AbortController().signal });
  const ms = Math.round(performance.now() - started);
  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const lastLine = (result.text.split("\n").at(-1) ?? "").slice(0, 110);
  const verdict = `${result.isError ? "error" : "ok"}, ${result.text.length} chars, last line: ${lastLine}`;
  process.stdout.write(`| ${spec.id} | ${ms} ms | ${peakRssMb} MB | ${verdict} |\n`);
}

function main(): void {
  const project = mkdtempSync(join(tmpdir(), "mca-large-"));
  try {
    prepare(project);
    console.log("| case | time | peak RSS | result |");
    console.log("|---|---|---|---|");
    CASES.forEach((spec, index) => {
      const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), "--case", String(index), project], {
        encoding: "utf8",
        timeout: CASE_LIMIT_MS,
      });
      const line = child.stdout.trim().split("\n").at(-1) ?? "";
      if (child.status !== 0 || line === "") {
        console.log(`| ${spec.id} | failed (status ${child.status}) | | ${child.stderr.trim().split("\n").at(-1) ?? ""} |`);
        return;
      }
      console.log(line);
    });
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

const caseFlag = process.argv.indexOf("--case");
if (caseFlag === -1) main();
else await runCase(process.argv[caseFlag + 2] ?? "", Number(process.argv[caseFlag + 1]));
