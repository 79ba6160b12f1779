// Runs the real CLI as a child process in a temporary project, stdin piped, with a temporary HOME,
// XDG_CONFIG_HOME and XDG_STATE_HOME so the user's own settings never leak in and the run's state stays in the
// test's folder. It runs the bundle users run, dist/src/main.cjs (the suite's global setup, test/build-for-tests.ts,
// builds it when the sources are newer): ~0.05 s of CPU a start, where the sources through tsx cost ~0.35 s.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { projectState, sessionsDir, type ProjectState } from "../../session/index.js";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));
export const BUNDLE = fileURLToPath(new URL("../../../dist/src/main.cjs", import.meta.url));
/**
 * The notes demo server as the build ships it (built with the bundle), for a test that mounts a real stdio
 * server: a plain `node` start, where servers/notes.ts through tsx costs ~0.3 s of CPU more.
 */
export const BUILT_NOTES_SERVER = fileURLToPath(new URL("../../../dist/servers/notes.js", import.meta.url));
/** Absolute, because the CLI runs from a temporary project folder where `tsx` cannot be resolved. */
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const CLI_LIMIT_MS = 15_000;

export const README_TEXT = "# demo\nhello from the readme\n";

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface TempProject {
  /** The project folder, with a README.md holding README_TEXT; the CLI's working directory. */
  readonly dir: string;
  readonly home: string;
  /** Where mca keeps this project's state (in `home`), and the sessions folder in it. */
  readonly state: ProjectState;
  readonly sessionsDir: string;
  /** Runs the CLI to completion; it is killed (and the promise rejects) if it outlives CLI_LIMIT_MS. */
  run(args: readonly string[], stdin: string, env?: Readonly<Record<string, string>>): Promise<CliRun>;
  /** Runs the CLI from a folder inside the project (`sub` relative to it). */
  runIn(sub: string, args: readonly string[], stdin: string, env?: Readonly<Record<string, string>>): Promise<CliRun>;
  /** Runs the CLI and closes both of its output pipes on its first byte of output, as `| head -1` does. */
  runIntoClosedPipe(args: readonly string[], stdin: string): Promise<CliRun>;
  remove(): Promise<void>;
}

/**
 * Which CLI a temporary project runs: the bundle `pnpm build` makes, or the TypeScript sources through tsx, for
 * a test about the sources themselves (what the bundle leaves out of itself, or a process found by its file).
 */
export type CliEntry = "bundle" | "source";

/** The arguments of the `node` (process.execPath) that runs the CLI with `args`. */
export function cliNodeArgs(entry: CliEntry, args: readonly string[]): string[] {
  return entry === "bundle" ? [BUNDLE, ...args] : ["--import", TSX_LOADER, MAIN, ...args];
}

export async function createTempProject(entry: CliEntry = "bundle"): Promise<TempProject> {
  const root = await mkdtemp(join(tmpdir(), "mca-cli-"));
  const dir = join(root, "project");
  const home = join(root, "home");
  await mkdir(dir);
  await mkdir(home);
  await writeFile(join(dir, "README.md"), README_TEXT);
  const state = projectState(dir, baseEnv(home), home);
  return {
    dir,
    home,
    state,
    sessionsDir: sessionsDir(state),
    run: (args, stdin, env = { MOCK: "1" }) => runCli(entry, args, stdin, dir, { ...baseEnv(home), ...env }),
    runIn: (sub, args, stdin, env = { MOCK: "1" }) => runCli(entry, args, stdin, join(dir, sub), { ...baseEnv(home), ...env }),
    runIntoClosedPipe: (args, stdin) => runCli(entry, args, stdin, dir, { ...baseEnv(home), MOCK: "1" }, true),
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

function baseEnv(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_STATE_HOME: join(home, ".local", "state") };
}

function runCli(
  entry: CliEntry,
  args: readonly string[],
  stdin: string,
  cwd: string,
  env: Record<string, string>,
  closeOnOutput = false,
): Promise<CliRun> {
  const child = spawn(process.execPath, cliNodeArgs(entry, args), { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  const closeOutput = (): void => {
    child.stdout.destroy();
    child.stderr.destroy();
  };
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
    if (closeOnOutput) closeOutput();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
    if (closeOnOutput) closeOutput();
  });
  child.stdin.end(stdin);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`mca ${args.join(" ")} did not finish within ${CLI_LIMIT_MS} ms; stderr: ${stderr}`));
    }, CLI_LIMIT_MS);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
