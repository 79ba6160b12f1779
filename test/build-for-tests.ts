// Vitest's global setup. The CLI tests run the built `mca` (dist/src/main.cjs), as users do, and the self-test
// starts the demo servers from dist/servers: so before any test file, the suite builds dist/ when something the
// build reads is newer than it, and `pnpm test` after an edit tests the edit without a manual `pnpm build`.
// When dist/ is fresh this costs one walk of the source folders, a few milliseconds.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, symlinkSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const ROOT = join(import.meta.dirname, "..");
/** The last file the build writes (scripts/bundle.mjs copies the launcher at its very end). */
const BUILT = join(ROOT, "dist", "src", "main.cjs");
/** What the build reads: the folders esbuild bundles, the build's scripts, and its configuration (esbuild reads
 * tsconfig.json; tsconfig.build.json only type-checks, so a change to it leaves dist/ as it is). */
const INPUT_FOLDERS = ["src", "servers", "scripts"];
const INPUT_FILES = ["package.json", "pnpm-lock.yaml", "tsconfig.json"];
/** Two test runs started together build once: the second waits for the first, then finds dist/ fresh. */
const LOCK = join(ROOT, "dist", ".test-build.lock");
/** A lock this old was left by a run that died mid-build. */
const LOCK_ABANDONED_MS = 180_000;
const LOCK_POLL_MS = 200;
const BUILD_LIMIT_MS = 180_000;

export default async function buildForTests(): Promise<void> {
  if (!isStale()) return;
  await withLock(() => {
    if (isStale()) bundleInPlace();
  });
}

/** Tests and their helpers are not part of the build: editing them leaves dist/ as it is. */
function isBuildInput(name: string): boolean {
  return !name.endsWith(".test.ts") && name !== "test-support" && !name.startsWith(".");
}

function newestMs(path: string): number {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined) return 0;
  if (!stats.isDirectory()) return stats.mtimeMs;
  // Files only: a folder's own time changes when a test file is added to it.
  return readdirSync(path)
    .filter(isBuildInput)
    .reduce((newest, name) => Math.max(newest, newestMs(join(path, name))), 0);
}

function isStale(): boolean {
  const built = statSync(BUILT, { throwIfNoEntry: false });
  if (built === undefined) return true;
  const inputs = [...INPUT_FOLDERS, ...INPUT_FILES].map((name) => newestMs(join(ROOT, name)));
  return Math.max(...inputs) > built.mtimeMs;
}

/**
 * `pnpm build` without its type-check (`tsc -p tsconfig.build.json` emits nothing, and `pnpm typecheck` is the
 * check for the sources), so scripts/bundle.mjs alone writes dist/. It writes its files where it runs, one
 * write at a time, and another test run may be starting `mca` from them meanwhile (a launcher caught half copied is an empty script that exits at once). So it runs in
 * a folder of its own inside dist/, whose src, servers, scripts and node_modules are the project's, and each file it
 * wrote is then renamed into dist/ whole: the bundle before its code cache (a start in between compiles
 * without the cache, whose id no longer matches), the launcher last, as the build itself writes it last.
 */
function bundleInPlace(): void {
  process.stderr.write("dist/ is older than the sources: building it for the tests (node scripts/bundle.mjs)\n");
  const stage = mkdtempSync(join(ROOT, "dist", ".test-build-"));
  try {
    for (const name of ["src", "servers", "scripts", "node_modules", "package.json"]) symlinkSync(join(ROOT, name), join(stage, name));
    const bundle = run([join(ROOT, "scripts", "bundle.mjs")], stage);
    if (bundle.status !== 0) throw new Error(`building dist/ for the tests failed (node scripts/bundle.mjs):\n${bundle.output}`);
    const built = join(stage, "dist");
    const last = ["src/bundle.js.cache", "src/main.cjs"];
    const files = readdirSync(built, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(built, join(entry.parentPath, entry.name)))
      .sort((a, b) => last.indexOf(a) - last.indexOf(b));
    for (const file of files) {
      mkdirSync(dirname(join(ROOT, "dist", file)), { recursive: true });
      renameSync(join(built, file), join(ROOT, "dist", file));
    }
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

function run(args: readonly string[], cwd: string): { status: number | null; output: string } {
  const child = spawnSync(process.execPath, args, { cwd, encoding: "utf8", timeout: BUILD_LIMIT_MS });
  return { status: child.status, output: `${child.stdout}${child.stderr}${child.error === undefined ? "" : String(child.error)}`.trim() };
}

async function withLock(body: () => void): Promise<void> {
  mkdirSync(join(ROOT, "dist"), { recursive: true });
  for (let waitedMs = 0; !tryLock(); waitedMs += LOCK_POLL_MS) {
    if (waitedMs > BUILD_LIMIT_MS) throw new Error(`${LOCK} is still held after ${BUILD_LIMIT_MS / 1000} s: is another test run building?`);
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
  try {
    body();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** mkdir is atomic: whoever makes the folder holds the lock. */
function tryLock(): boolean {
  const held = statSync(LOCK, { throwIfNoEntry: false });
  if (held !== undefined && Date.now() - held.mtimeMs > LOCK_ABANDONED_MS) rmSync(LOCK, { recursive: true, force: true });
  try {
    mkdirSync(LOCK);
    return true;
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "EEXIST") return false;
    throw error;
  }
}
