// bash: runs a shell command in the project folder with a time limit; the command's whole process
// group is killed on timeout or abort, and its output is bounded while it is read.
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { withoutModelKeys, type Tool, type ToolArgs, type ToolResult } from "../kernel/index.js";
import { errorResult, okResult, optionalInteger, requiredString } from "./local-tool.js";

const BASH_DEFAULT_TIMEOUT_MS = 120_000;
const BASH_MAX_TIMEOUT_MS = 600_000;
const BASH_KILL_GRACE_MS = 2_000;

export interface BashToolOptions {
  /** Between SIGTERM and SIGKILL to the process group; tests shorten it. */
  readonly killGraceMs?: number;
}

type BashArgs = { readonly command: string; readonly timeoutMs: number };

export function createBashTool(projectDir: string, options: BashToolOptions = {}): Tool<BashArgs> {
  const cwd = resolve(projectDir);
  return {
    name: "bash",
    description:
      "Run a command with `bash -c` in the project folder (stdin is empty). Returns `exit code N` and then " +
      "stdout and stderr interleaved; a nonzero exit is reported as an error. Time limit `timeout_ms`: " +
      "default 120,000, at most 600,000; on timeout the command and everything it started are killed. " +
      "Output over 7,000 bytes keeps its first 3,000 and last 4,000 bytes. Background processes that " +
      "still hold the output when the command ends are killed; redirect their output " +
      "(`cmd > log 2>&1 &`) to keep them running. The model's API key variables are not in its environment.",
    inputSchema: {
      type: "object",
      properties: {
        command: { type: "string", description: "The shell command, e.g. `git status --short`." },
        timeout_ms: {
          type: "integer",
          minimum: 1,
          maximum: BASH_MAX_TIMEOUT_MS,
          description: "Time limit in milliseconds (default 120000).",
        },
      },
      required: ["command"],
      additionalProperties: false,
    },
    kind: "exec",
    source: "local",
    originalName: "bash",
    parse: parseArgs,
    async run({ command, timeoutMs }, context) {
      const outcome = await runCommand({
        command,
        cwd,
        timeoutMs,
        killGraceMs: options.killGraceMs ?? BASH_KILL_GRACE_MS,
        signal: context.signal,
        ...(context.onProgress === undefined ? {} : { onLine: context.onProgress }),
      });
      return describe(outcome, timeoutMs);
    },
  };
}

function parseArgs(args: ToolArgs): BashArgs | Error {
  const command = requiredString(args, "command");
  if (command instanceof Error) return command;
  const timeoutMs = optionalInteger(args, "timeout_ms", { min: 1, max: BASH_MAX_TIMEOUT_MS });
  if (timeoutMs instanceof Error) return timeoutMs;
  return { command, timeoutMs: timeoutMs ?? BASH_DEFAULT_TIMEOUT_MS };
}

function describe(outcome: CommandOutcome, limitMs: number): ToolResult {
  switch (outcome.kind) {
    case "exited": {
      const body = outcome.output === "" ? "(no output)" : outcome.output;
      if (outcome.exitCode === 0) return okResult(`exit code 0\n${body}`);
      if (outcome.exitCode !== null) return errorResult(`exit code ${outcome.exitCode}\n${body}`);
      return errorResult(`killed by signal ${outcome.signal ?? "unknown"}\n${body}`);
    }
    case "timed_out":
      return errorResult(`timed out after ${limitMs} ms; the command's process group was killed\n${outcome.output}`);
    case "aborted":
      return errorResult(`aborted; the command's process group was killed\n${outcome.output}`);
    case "spawn_failed":
      return errorResult(`could not start bash: ${outcome.message}`);
    default: {
      const unexpected: never = outcome;
      return unexpected;
    }
  }
}

// Runs one `bash -c` command in its own process group and owns that group until it is gone: on
// timeout or abort the whole group gets SIGTERM, then SIGKILL after a grace period, so background
// grandchildren (`sleep 30 &`) die with the command instead of outliving the agent.

const OUTPUT_HEAD_BYTES = 3_000;
const OUTPUT_TAIL_BYTES = 4_000;
/** After bash exits, how long its output pipes may stay open (held by background processes). */
const PIPE_DRAIN_MS = 500;
/** After SIGKILL, how long to wait for the pipes before giving up on a process that escaped the group. */
const AFTER_KILL_WAIT_MS = 1_000;

interface CommandRequest {
  readonly command: string;
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly killGraceMs: number;
  readonly signal: AbortSignal;
  /** The newest complete line of output, at most every PROGRESS_INTERVAL_MS: the user sees the command work. */
  readonly onLine?: (line: string) => void;
}

const PROGRESS_INTERVAL_MS = 200;
/** Only the end of a chunk is looked at for the newest line: a huge chunk costs no more than this. */
const PROGRESS_SCAN_CHARS = 4096;

type CommandOutcome =
  | { readonly kind: "exited"; readonly exitCode: number | null; readonly signal: string | null; readonly output: string }
  | { readonly kind: "timed_out"; readonly output: string }
  | { readonly kind: "aborted"; readonly output: string }
  | { readonly kind: "spawn_failed"; readonly message: string };

function runCommand(request: CommandRequest): Promise<CommandOutcome> {
  return new Promise((settle) => {
    const output = createOutputCap(OUTPUT_HEAD_BYTES, OUTPUT_TAIL_BYTES);
    const timers: NodeJS.Timeout[] = [];
    let stopReason: "timed_out" | "aborted" | undefined;
    let exit: { readonly code: number | null; readonly signal: string | null } | undefined;
    let spawnError: Error | undefined;
    let settled = false;

    // `detached: true` makes the child the leader of a new process group whose id is its pid.
    // The command is the model's: the model's own credentials are not its to read (or to print into the transcript).
    const child = spawn("bash", ["-c", request.command], {
      cwd: request.cwd,
      env: withoutModelKeys(process.env),
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let lastProgressMs = 0;
    const progress = (chunk: Buffer): void => {
      if (request.onLine === undefined || Date.now() - lastProgressMs < PROGRESS_INTERVAL_MS) return;
      const tail = chunk.subarray(Math.max(0, chunk.length - PROGRESS_SCAN_CHARS)).toString("utf8");
      const newest = tail.split("\n").map((line) => line.trim()).filter((line) => line !== "").at(-1);
      if (newest === undefined) return;
      lastProgressMs = Date.now();
      request.onLine(newest);
    };
    const onData = (chunk: Buffer): void => {
      output.push(chunk);
      progress(chunk);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);

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
