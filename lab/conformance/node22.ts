// The Node 22 the conformance runner needs (it calls fs.globSync), an exact version fetched once from the
// npm registry into lab/.out and reused; the machine's Node stays 20 and `node` is no project dependency.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { runLimited } from "./run-limited.js";

export const NODE22_VERSION = "22.23.3";
const INSTALL_LIMIT_MS = 240_000;
const VERSION_LIMIT_MS = 15_000;

/**
 * The `node` package's preinstall fetches `node-<platform>-<arch>` and links its binary into `node/bin`;
 * where install scripts do not run, the platform package installed directly carries the same binary.
 */
const ARCH_PACKAGE = `node-${process.platform}-${process.arch}`;

function candidates(prefix: string): string[] {
  const modules = join(prefix, "node_modules");
  return [join(modules, "node", "bin", "node"), join(modules, "node", "node_modules", ARCH_PACKAGE, "bin", "node"), join(modules, ARCH_PACKAGE, "bin", "node")];
}

function versionOf(binary: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(binary, ["--version"], { timeout: VERSION_LIMIT_MS }, (error, stdout) => resolve(error ? undefined : stdout.trim()));
  });
}

async function working(prefix: string): Promise<string | undefined> {
  for (const binary of candidates(prefix)) {
    if ((await versionOf(binary)) === `v${NODE22_VERSION}`) return binary;
  }
  return undefined;
}

async function npmInstall(prefix: string, spec: string, cwd: string): Promise<string> {
  const run = await runLimited("npm", ["install", "--prefix", prefix, spec, "--no-save", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error"], {
    cwd,
    limitMs: INSTALL_LIMIT_MS,
  });
  if (run.timedOut) return `npm install ${spec} took longer than ${INSTALL_LIMIT_MS} ms`;
  return run.code === 0 ? "" : `npm install ${spec} exited with ${String(run.code)}: ${run.output.trim().split("\n").slice(-3).join(" / ")}`;
}

/** The path of a working Node 22 binary under `outDir`, installing it first if needed; an Error says why not. */
export async function ensureNode22(outDir: string): Promise<string | Error> {
  const prefix = join(outDir, "node22");
  const present = await working(prefix);
  if (present !== undefined) return present;
  const problems: string[] = [];
  for (const spec of [`node@${NODE22_VERSION}`, `${ARCH_PACKAGE}@${NODE22_VERSION}`]) {
    const problem = await npmInstall(prefix, spec, outDir);
    if (problem !== "") problems.push(problem);
    const installed = await working(prefix);
    if (installed !== undefined) return installed;
  }
  return new Error(`no working Node ${NODE22_VERSION} under ${prefix}${problems.length > 0 ? `: ${problems.join("; ")}` : ""}`);
}
