// The bash tool's time per call, as a session makes it, in the bubblewrap sandbox and without one: `true`
// (what the sandbox adds to every call) and `git status` in a committed repository of 1,000 files.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createLocalTools, detectSandbox, sandboxPlaces, type BashSandbox } from "../../../src/tools/index.js";
import type { BashBenchCommand } from "../cases.js";

const FILES = 1_000;
const FILES_PER_FOLDER = 100;

export async function bashCallMs(command: BashBenchCommand, sandboxed: boolean, warmups: number, samples: number): Promise<number[]> {
  const project = mkdtempSync(join(tmpdir(), "mca-bench-bash-"));
  try {
    if (command === "git status") fillRepository(project);
    const sandbox = sandboxed ? await bubblewrapSandbox(project) : undefined;
    const bash = createLocalTools(project, sandbox === undefined ? {} : { sandbox }).find((tool) => tool.name === "bash");
    if (bash === undefined) throw new Error("no bash tool");
    const args = bash.parse === undefined ? { command } : bash.parse({ command });
    if (args instanceof Error) throw args;
    const context = { signal: new AbortController().signal };
    const times: number[] = [];
    for (let index = 0; index < warmups + samples; index += 1) {
      const started = performance.now();
      const result = await bash.run(args, context);
      const elapsed = performance.now() - started;
      if (result.isError) throw new Error(`bash ${command} failed: ${result.text}`);
      if (index >= warmups) times.push(elapsed);
    }
    return times;
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

async function bubblewrapSandbox(project: string): Promise<BashSandbox> {
  const availability = await detectSandbox("linux", process.env);
  if (availability.kind !== "bubblewrap") throw new Error(`no sandbox to measure: ${availability.kind === "none" ? availability.why : availability.kind}`);
  const home = join(project, "..", "mca-bench-home");
  return { availability, network: false, writable: [], hidden: [], places: sandboxPlaces({ projectDir: project, env: { HOME: home }, home, programs: [] }) };
}

function fillRepository(project: string): void {
  for (let index = 0; index < FILES; index += 1) {
    const folder = join(project, `dir${Math.floor(index / FILES_PER_FOLDER)}`);
    if (index % FILES_PER_FOLDER === 0) mkdirSync(folder);
    writeFileSync(join(folder, `file${index}.txt`), `line of file ${index}\n`);
  }
  const git = (...args: string[]): void => void execFileSync("git", ["-C", project, "-c", "user.name=bench", "-c", "user.email=bench@localhost", ...args], { stdio: "ignore" });
  git("init", "-q");
  git("add", ".");
  git("commit", "-q", "-m", "1,000 files");
}
