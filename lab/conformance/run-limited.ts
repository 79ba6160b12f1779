// Runs one command to its end within a time limit, in its own process group, so that whatever it spawned
// (the conformance runner spawns our client through a shell) dies with it when the limit is hit.
import { spawn } from "node:child_process";
import { releaseGroup, signalGroup, trackGroup } from "./process-groups.js";

/** What is kept of a child's output: its end, which is where runners print their verdicts. */
const MAX_OUTPUT_CHARS = 20_000;
/** After SIGTERM, how long the group has before SIGKILL. */
const TERM_GRACE_MS = 2000;

export interface LimitedRun {
  readonly code: number | null;
  readonly timedOut: boolean;
  /** stdout and stderr interleaved, at most MAX_OUTPUT_CHARS from the end. */
  readonly output: string;
}

export interface LimitedRunOptions {
  readonly cwd: string;
  readonly limitMs: number;
  readonly env?: NodeJS.ProcessEnv;
  /** Aborting takes the whole group down at once (the caller was interrupted). */
  readonly signal?: AbortSignal;
}

export function runLimited(command: string, args: readonly string[], options: LimitedRunOptions): Promise<LimitedRun> {
  if (options.signal?.aborted) return Promise.resolve({ code: null, timedOut: false, output: "not started: interrupted" });
  return new Promise((resolve) => {
    // No stdin: the runs must work with CI=true and nothing attached.
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    if (child.pid !== undefined) trackGroup(child.pid);
    let output = "";
    let timedOut = false;
    let killTimer: NodeJS.Timeout | undefined;
    let settled = false;
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString("utf8")).slice(-MAX_OUTPUT_CHARS);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const limitTimer = setTimeout(() => {
      timedOut = true;
      signalGroup(child.pid, "SIGTERM");
      killTimer = setTimeout(() => signalGroup(child.pid, "SIGKILL"), TERM_GRACE_MS);
    }, options.limitMs);
    const onAbort = (): void => signalGroup(child.pid, "SIGKILL");
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const finish = (code: number | null): void => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener("abort", onAbort);
      clearTimeout(limitTimer);
      clearTimeout(killTimer);
      // Whatever the command left behind in its group goes with it.
      releaseGroup(child.pid);
      resolve({ code, timedOut, output });
    };
    child.on("error", (error) => {
      keep(Buffer.from(`cannot run ${command}: ${error.message}\n`));
      finish(null);
    });
    child.on("close", (code) => finish(code));
  });
}
