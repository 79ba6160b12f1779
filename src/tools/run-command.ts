// Runs one `bash -c` command in its own process group and owns that group until it is gone: on
// timeout or abort the whole group gets SIGTERM, then SIGKILL after a grace period, so background
// grandchildren (`sleep 30 &`) die with the command instead of outliving the agent.
import { spawn } from "node:child_process";
import { createOutputCap } from "./output-cap.js";

const OUTPUT_HEAD_BYTES = 3_000;
const OUTPUT_TAIL_BYTES = 4_000;
/** After bash exits, how long its output pipes may stay open (held by background processes). */
const PIPE_DRAIN_MS = 500;
/** After SIGKILL, how long to wait for the pipes before giving up on a process that escaped the group. */
const AFTER_KILL_WAIT_MS = 1_000;

export interface CommandRequest {
  readonly command: string;
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly killGraceMs: number;
  readonly signal: AbortSignal;
}

export type CommandOutcome =
  | { readonly kind: "exited"; readonly exitCode: number | null; readonly signal: string | null; readonly output: string }
  | { readonly kind: "timed_out"; readonly output: string }
  | { readonly kind: "aborted"; readonly output: string }
  | { readonly kind: "spawn_failed"; readonly message: string };

export function runCommand(request: CommandRequest): Promise<CommandOutcome> {
  return new Promise((settle) => {
    const output = createOutputCap(OUTPUT_HEAD_BYTES, OUTPUT_TAIL_BYTES);
    const timers: NodeJS.Timeout[] = [];
    let stopReason: "timed_out" | "aborted" | undefined;
    let exit: { readonly code: number | null; readonly signal: string | null } | undefined;
    let spawnError: Error | undefined;
    let settled = false;

    // `detached: true` makes the child the leader of a new process group whose id is its pid.
    const child = spawn("bash", ["-c", request.command], {
      cwd: request.cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk));

    const killGroup = (signal: NodeJS.Signals): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // ESRCH: the group is already gone.
      }
    };

    const finish = (): void => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      request.signal.removeEventListener("abort", onAbort);
      // A stopped command's leftovers that no longer hold our pipes end with it too.
      if (stopReason !== undefined) killGroup("SIGKILL");
      child.stdout.destroy();
      child.stderr.destroy();
      settle(outcome());
    };

    /** SIGKILL the group, then wait (with a limit) for the pipes to close, which means the holders died. */
    const killAndWait = (): void => {
      killGroup("SIGKILL");
      timers.push(setTimeout(finish, AFTER_KILL_WAIT_MS));
    };

    const outcome = (): CommandOutcome => {
      if (spawnError !== undefined) return { kind: "spawn_failed", message: spawnError.message };
      if (stopReason !== undefined) return { kind: stopReason, output: output.text() };
      return { kind: "exited", exitCode: exit?.code ?? null, signal: exit?.signal ?? null, output: output.text() };
    };

    const stop = (reason: "timed_out" | "aborted"): void => {
      if (settled || stopReason !== undefined || exit !== undefined) return;
      stopReason = reason;
      killGroup("SIGTERM");
      timers.push(setTimeout(killAndWait, request.killGraceMs));
    };
    const onAbort = (): void => stop("aborted");

    child.on("error", (error) => {
      spawnError = error;
      finish();
    });
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      // Background processes still holding the pipes after bash exited are this call's leftovers.
      if (stopReason === undefined) timers.push(setTimeout(killAndWait, PIPE_DRAIN_MS));
    });
    child.on("close", finish);

    timers.push(setTimeout(() => stop("timed_out"), request.timeoutMs));
    if (request.signal.aborted) stop("aborted");
    else request.signal.addEventListener("abort", onAbort, { once: true });
  });
}
