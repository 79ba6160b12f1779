// Asking git about a repository without letting the repository, or anything else, make it run a program:
// git found by an absolute path outside the project, none of the caller's GIT_* variables, fsmonitor off,
// no pager, no terminal prompt, no optional locks, a time limit. Only plumbing that runs no hook is asked.
import { spawnSync } from "node:child_process";
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join, relative, sep } from "node:path";

/** A git that reads a few files answers in milliseconds; one that waits (a lock, a named pipe) is given up on. */
export const GIT_PROBE_TIMEOUT_MS = 5_000;
/** `git ls-files -s` of a very large index; more is given up on rather than held in memory. */
const MAX_GIT_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * Passed on from the caller's environment: where git finds the user's and the system's config, so the
 * probe reads the files the user's own git reads. Every other GIT_* variable is dropped (`GIT_DIR`,
 * `GIT_CONFIG_PARAMETERS`, `GIT_EXEC_PATH`, `GIT_TRACE`…): each could point git elsewhere or inject config.
 */
const PASSED_VARIABLES = ["HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM"] as const;

/** What git answered: its output, or how it failed (`status: null`: it did not start, or timed out). */
export type GitAnswer =
  | { readonly kind: "answered"; readonly stdout: string }
  | { readonly kind: "failed"; readonly status: number | null; readonly stdout: string; readonly stderr: string };

/** A git to ask, found once. `run` never throws. */
export interface GitProbe {
  /** The absolute path of the git program. */
  readonly git: string;
  /** `git <args>` in `cwd`, with fsmonitor off and no pager; `noHooks` also points core.hooksPath nowhere. */
  run(cwd: string, args: readonly string[], options?: { readonly noHooks?: boolean }): GitAnswer;
}

/**
 * The git of the first absolute `PATH` entry holding an executable `git`, outside `projectDir` (a command in
 * the sandbox may write there, and this git runs outside it); undefined when there is none.
 */
export function findGitProbe(env: Readonly<Record<string, string | undefined>>, projectDir: string): GitProbe | undefined {
  const project = realOrSelf(projectDir);
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!isAbsolute(dir) || isInside(project, realOrSelf(dir))) continue;
    const candidate = join(dir, "git");
    if (isExecutableFile(candidate)) return gitProbe(candidate, probeEnv(env));
  }
  return undefined;
}

function probeEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const passed: Record<string, string> = {};
  for (const name of PASSED_VARIABLES) {
    const value = env[name];
    if (value !== undefined) passed[name] = value;
  }
  // A pager only starts on a terminal, and the probe has none; named anyway, as is the prompt for credentials.
  return { ...passed, GIT_PAGER: "cat", PAGER: "cat", GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" };
}

function gitProbe(git: string, env: Record<string, string>): GitProbe {
  return {
    git,
    run(cwd, args, options = {}) {
      // `-c` outranks every config file. core.fsmonitor is the one setting that runs a program while the
      // index is read (`git ls-files` would run it); a hooks path of /dev/null holds no hook, should a
      // command ever try one. Not used where it would hide the setting being read (`git config`).
      const overrides = ["-c", "core.fsmonitor=false", ...(options.noHooks === true ? ["-c", "core.hooksPath=/dev/null"] : [])];
      const result = spawnSync(git, ["--no-pager", ...overrides, ...args], {
        cwd,
        env,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        timeout: GIT_PROBE_TIMEOUT_MS,
        killSignal: "SIGKILL",
        maxBuffer: MAX_GIT_OUTPUT_BYTES,
      });
      if (result.error === undefined && result.status === 0) return { kind: "answered", stdout: result.stdout };
      const stderr = result.error === undefined ? result.stderr : `${result.error.message}\n${result.stderr ?? ""}`;
      return { kind: "failed", status: result.error === undefined ? result.status : null, stdout: result.stdout ?? "", stderr };
    },
  };
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

function isInside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
