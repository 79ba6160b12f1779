// Before any case runs: the CLI is built (`tsc -p tsconfig.build.json`, a type check only, then
// scripts/bundle.mjs, what `pnpm build` does) for the start-up cases and the scale group's CLI runs, and the bench with the mca code it imports is compiled to plain JavaScript, so that no
// case pays for a TypeScript loader. Both compilers run at once; emitting does not wait for type checks.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

const COMPILE_LIMIT_MS = 120_000;
/** Where the compiled bench goes; lab/.out is ignored by git. */
export const COMPILED_DIR = join("lab", ".out", "bench", "js");
/** The bench's entry points: the case runner and the servers it starts by path. */
const ENTRY_FILES = [
  "lab/bench/case-main.ts",
  "lab/bench/servers/raw-stdio-server.ts",
  "lab/bench/servers/sdk-stdio-server.ts",
  "lab/bench/servers/sdk-http-server.ts",
  "lab/bench/servers/plain-http-server.ts",
];

type Ran = { code: number | null; output: string };

function runTsc(repoDir: string, args: readonly string[]): Promise<Ran> {
  return runNode(repoDir, join(repoDir, "node_modules", "typescript", "bin", "tsc"), args);
}

/** `pnpm build`: tsc, then the bundle dist/src/main.cjs runs (without it, the CLI cases would time a stale bundle). */
async function buildCli(repoDir: string): Promise<Ran> {
  const tsc = await runTsc(repoDir, ["-p", "tsconfig.build.json"]);
  const bundle = await runNode(repoDir, join(repoDir, "scripts", "bundle.mjs"), []);
  return { code: bundle.code === 0 ? tsc.code : bundle.code, output: `${tsc.output}${bundle.output}` };
}

function runNode(repoDir: string, script: string, args: readonly string[]): Promise<Ran> {
  const child = spawn(process.execPath, [script, ...args], { cwd: repoDir, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${script} ${args.join(" ")} took longer than ${COMPILE_LIMIT_MS} ms`));
    }, COMPILE_LIMIT_MS);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Compiles both; resolves with warnings (a type error elsewhere still emits), rejects if nothing runnable came out. */
export async function compileForBench(repoDir: string): Promise<string[]> {
  const [build, bench] = await Promise.all([
    buildCli(repoDir),
    runTsc(repoDir, [
      "--noCheck",
      "--outDir", COMPILED_DIR,
      "--rootDir", ".",
      "--module", "nodenext",
      "--moduleResolution", "nodenext",
      "--target", "es2022",
      "--types", "node",
      "--skipLibCheck",
      ...ENTRY_FILES,
    ]),
  ]);
  const warnings: string[] = [];
  if (build.code !== 0) warnings.push(`pnpm build reported errors (dist may be stale where they are):\n${build.output.trim()}`);
  if (bench.code !== 0) warnings.push(`compiling the bench reported errors:\n${bench.output.trim()}`);
  if (!existsSync(join(repoDir, "dist", "src", "main.cjs"))) throw new Error("dist/src/main.cjs is missing after the build");
  if (!existsSync(join(repoDir, COMPILED_DIR, "lab", "bench", "case-main.js"))) throw new Error("the bench did not compile");
  return warnings;
}
