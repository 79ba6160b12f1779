// Runs one command as a process group it owns until the group is gone: a time limit, an abort, output
// bounded while it is read, and the newest whole line of output for the user's eyes. The bash tool runs
// `bash -c` through it, directly or inside the sandbox's program.
import { spawn } from "node:child_process";
import { Duplex, Writable } from "node:stream";

// On timeout or abort the whole group gets SIGTERM, then SIGKILL after a grace period, so background
// grandchildren (`sleep 30 &`) die with the command instead of outliving the agent.

const OUTPUT_HEAD_BYTES = 3_000;
const OUTPUT_TAIL_BYTES = 4_000;
/** After bash exits, how long its output pipes may stay open (held by background processes). */
const PIPE_DRAIN_MS = 500;
/** After SIGKILL, how long to wait for the pipes before giving up on a process that escaped the group. */
const AFTER_KILL_WAIT_MS = 1_000;

export interface CommandRequest {
  /** `bash` (with `-c` and the command), or the sandbox's program with bash after it. */
  readonly program: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly killGraceMs: number;
  readonly signal: AbortSignal;
  /** The newest complete line of output, at most every PROGRESS_INTERVAL_MS: the user sees the command work. */
  readonly onLine?: (line: string) => void;
  /**
   * Bytes the program reads on descriptor 3 to its end (bubblewrap's seccomp program): a pipe of this
   * call's own, as a file shared between calls would be read once, from its offset.
   */
  readonly fd3?: Buffer;
  /**
   * Given, the program gets a socket pair's end on descriptor 4 and this is called with the other end: the
   * sandbox's way out to mca's proxy (network-proxy.ts). It is destroyed when the command has ended.
   */
  readonly channel?: (stream: Duplex) => void;
}

const PROGRESS_INTERVAL_MS = 200;
/** A longer line is never shown as progress: only whole lines are, and one this long is held no further. */
const PROGRESS_MAX_LINE_BYTES = 4096;

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

    // `detached: true` makes the child the leader of a new process group whose id is its pid (and of a
    // new session, without a controlling terminal). The environment is the minimal one: the model's own
    // credentials are not its to read (or to print into the transcript).
    const child = spawn(request.program, request.args, {
      cwd: request.cwd,
      env: request.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe", request.fd3 === undefined ? "ignore" : "pipe", ...(request.channel === undefined ? [] : ["pipe" as const])],
    });
    const { stdout, stderr } = child;
    // Both are pipes as asked for (spawn's types cannot tell, with a fourth stdio entry).
    if (stdout === null || stderr === null) throw new Error("spawn gave the command no output pipes");
    const fd3 = child.stdio[3];
    if (request.fd3 !== undefined && fd3 instanceof Writable) {
      // A program that exits without reading it (one that failed to start) closes it first: that is no error of ours.
      fd3.on("error", () => undefined);
      fd3.end(request.fd3);
    }
    // libuv makes a child's pipe a socket pair: both ways on one descriptor.
    const channel = child.stdio[4];
    if (request.channel !== undefined && channel instanceof Duplex) request.channel(channel);
    let lastProgressMs = 0;
    const onLine = (line: string): void => {
      if (request.onLine === undefined || Date.now() - lastProgressMs < PROGRESS_INTERVAL_MS) return;
      lastProgressMs = Date.now();
      request.onLine(line);
    };
    for (const stream of [stdout, stderr]) {
      const lines = createLineWatcher(PROGRESS_MAX_LINE_BYTES, onLine);
      stream.on("data", (chunk: Buffer) => {
        output.push(chunk);
        lines(chunk);
      });
    }

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
      stdout.destroy();
      stderr.destroy();
      if (fd3 instanceof Writable) fd3.destroy();
      if (channel instanceof Duplex) channel.destroy();
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
      // Nothing inside the sandbox outlives bubblewrap: the way out to the proxy is no longer anyone's.
      if (channel instanceof Duplex) channel.destroy();
      // Background processes still holding the pipes after bash exited are this call's leftovers.
      if (stopReason === undefined) timers.push(setTimeout(killAndWait, PIPE_DRAIN_MS));
    });
    child.on("close", finish);

    timers.push(setTimeout(() => stop("timed_out"), request.timeoutMs));
    if (request.signal.aborted) stop("aborted");
    else request.signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Calls `onLine` with the newest whole, non-blank line (trimmed) that a chunk of one stream completes. A
 * line cut at a chunk's end is held until its end comes, so a fragment (of a secret the redactor would
 * know whole) is never shown; a line longer than `maxLineBytes` is not shown at all.
 */
export function createLineWatcher(maxLineBytes: number, onLine: (line: string) => void): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  let tooLong = false;
  const keep = (rest: Buffer): void => {
    if (tooLong || rest.length === 0) return;
    if (pending.length + rest.length > maxLineBytes) {
      tooLong = true;
      pending = Buffer.alloc(0);
    } else {
      pending = Buffer.concat([pending, rest]);
    }
  };
  return (chunk) => {
    const last = chunk.lastIndexOf(0x0a);
    if (last === -1) return keep(chunk);
    let newest: string | undefined;
    // The lines this chunk ends, newest first; the oldest of them began in the held bytes.
    for (let end = last; newest === undefined; ) {
      const start = end === 0 ? 0 : chunk.lastIndexOf(0x0a, end - 1) + 1;
      const bytes = start > 0 ? chunk.subarray(start, end) : tooLong ? null : Buffer.concat([pending, chunk.subarray(0, end)]);
      const text = bytes === null || bytes.length > maxLineBytes ? "" : bytes.toString("utf8").trim();
      if (text !== "") newest = text;
      if (start === 0) break;
      end = start - 1;
    }
    pending = Buffer.alloc(0);
    tooLong = false;
    keep(chunk.subarray(last + 1));
    if (newest !== undefined) onLine(newest);
  };
}

// Keeps a command's output bounded while it is read: the first and the last bytes are kept, the
// middle is counted and dropped, so a command printing gigabytes costs a few kilobytes of memory.

export interface OutputCap {
  push(chunk: Buffer): void;
  /** The kept output, with one line saying how many bytes were left out in the middle, if any. */
  text(): string;
}

export function createOutputCap(headBytes: number, tailBytes: number): OutputCap {
  const head: Buffer[] = [];
  let headLength = 0;
  let tail: Buffer[] = [];
  let tailLength = 0;
  let totalLength = 0;

  return {
    push(chunk) {
      totalLength += chunk.length;
      let rest = chunk;
      if (headLength < headBytes) {
        const taken = rest.subarray(0, headBytes - headLength);
        head.push(taken);
        headLength += taken.length;
        rest = rest.subarray(taken.length);
      }
      if (rest.length === 0) return;
      tail.push(rest);
      tailLength += rest.length;
      // Drop whole chunks that fall entirely before the last `tailBytes`.
      while (tail.length > 1 && tailLength - (tail[0]?.length ?? 0) >= tailBytes) {
        tailLength -= tail[0]?.length ?? 0;
        tail = tail.slice(1);
      }
    },
    text() {
      const kept = Buffer.concat(tail);
      const keptTail = kept.subarray(Math.max(0, kept.length - tailBytes));
      const omitted = totalLength - headLength - keptTail.length;
      if (omitted === 0) return Buffer.concat([...head, keptTail]).toString("utf8");
      const headText = Buffer.concat(head).toString("utf8");
      return `${headText}\n[… ${omitted} bytes of output left out …]\n${keptTail.toString("utf8")}`;
    },
  };
}
