// The bash tool's time per call, as a session makes it, in the bubblewrap sandbox and without one: `true`
// (what the sandbox adds to every call), `git status` in a committed repository of 1,000 files, and `true`
// in a repository of 50 submodules (what the sandbox's read-only places add: each submodule's `.git`).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createLocalTools, detectSandbox, sandboxPlaces, type BashSandbox } from "../../../src/tools/index.js";
import type { BashBenchCommand } from "../cases.js";

const FILES = 1_000;
const FILES_PER_FOLDER = 100;
const SUBMODULES = 50;

/** Each case's command, and what the project holds before it runs. */
const BENCH_PROJECTS: Readonly<Record<BashBenchCommand, { readonly command: string; readonly fill: (project: string) => void }>> = {
  true: { command: "true", fill: () => undefined },
  "git status": { command: "git status", fill: fillRepository },
  "true, 50 submodules": { command: "true", fill: fillSubmodules },
};

export async function bashCallMs(command: BashBenchCommand, sandboxed: boolean, warmups: number, samples: number): Promise<number[]> {
  const project = mkdtempSync(join(tmpdir(), "mca-bench-bash-"));
  try {
    const bench = BENCH_PROJECTS[command];
    bench.fill(project);
    const sandbox = sandboxed ? await bubblewrapSandbox(project) : undefined;
    const bash = createLocalTools(project, sandbox === undefined ? {} : { sandbox }).find((tool) => tool.name === "bash");
    if (bash === undefined) throw new Error("no bash tool");
    const args = bash.parse === undefined ? { command: bench.command } : bash.parse({ command: bench.command });
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
  const ownFolders = [join(home, ".config", "mca"), join(home, ".local", "state", "mca")];
  return { availability, network: false, writable: [], hidden: [], places: sandboxPlaces({ projectDir: project, env: { HOME: home, PATH: process.env.PATH }, ownFolders, programs: [] }) };
}

/** A committed repository with 50 submodules (`modules/m00` …), each a clone of one small repository beside it. */
function fillSubmodules(project: string): void {
  const library = `${project}-library`;
  const git = (cwd: string, ...args: string[]): void =>
    void execFileSync("git", ["-C", cwd, "-c", "user.name=bench", "-c", "user.email=bench@localhost", "-c", "protocol.file.allow=always", ...args], { stdio: "ignore" });
  mkdirSync(library);
  try {
    git(library, "init", "-q");
    git(library, "commit", "-q", "--allow-empty", "-m", "library");
    git(project, "init", "-q");
    for (let index = 0; index < SUBMODULES; index += 1) git(project, "submodule", "add", "-q", library, `modules/m${String(index).padStart(2, "0")}`);
    git(project, "commit", "-q", "-m", "50 submodules");
  } finally {
    rmSync(library, { recursive: true, force: true });
  }
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
