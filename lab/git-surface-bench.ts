// What finding the git surface costs a bash call in a repository with 50 checked-out submodules: the first
// read (git asked) and the cached one (a few lstat calls), each the median of repeated reads.
// Run: npx tsx lab/git-surface-bench.ts
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gitSurfaceReader, readGitSurface } from "../src/config/index.js";

const SUBMODULES = 50;
const ROUNDS = 30;

const root = mkdtempSync(join(tmpdir(), "mca-git-surface-bench-"));
const env = { PATH: process.env.PATH ?? "", HOME: join(root, "home"), GIT_CONFIG_NOSYSTEM: "1" };
const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", ["-c", "init.defaultBranch=main", "-c", "protocol.file.allow=always", "-c", "user.name=b", "-c", "user.email=b@example.com", ...args], { cwd, env, encoding: "utf8" });

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function timed(run: () => unknown): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

try {
  mkdirSync(env.HOME);
  const lib = join(root, "lib");
  mkdirSync(lib);
  git(lib, "init", "--quiet");
  writeFileSync(join(lib, "a.txt"), "a\n");
  git(lib, "add", ".");
  git(lib, "commit", "--quiet", "-m", "lib");
  const project = join(root, "project");
  mkdirSync(project);
  git(project, "init", "--quiet");
  for (let index = 0; index < SUBMODULES; index += 1) git(project, "submodule", "add", "--quiet", lib, `vendor/lib${index}`);
  git(project, "commit", "--quiet", "-m", "submodules");
  const places = readGitSurface(project, { env }).places.length;
  const uncached = median(Array.from({ length: ROUNDS }, () => timed(() => readGitSurface(project, { env }))));
  const reader = gitSurfaceReader(project, { env });
  reader.read();
  const cached = median(Array.from({ length: ROUNDS }, () => timed(() => reader.read())));
  console.log(`${SUBMODULES} submodules, ${places} places: uncached ${uncached.toFixed(2)} ms, cached ${cached.toFixed(3)} ms (median of ${ROUNDS})`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
