// bash: runs a shell command in the project folder with a time limit, inside the operating-system sandbox
// when this run has one (see sandbox.ts); the command's whole process group is killed on timeout or abort,
// and its output is bounded while it is read.
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { INHERITED_ENV_VARIABLES, onlyVariables, type CommandSandbox, type GateSubject, type ProtectedFolder, type Tool, type ToolArgs, type ToolResult } from "../kernel/index.js";
import { errorResult, okResult, optionalInteger, optionalString, requiredString } from "./local-tool.js";
import { bubblewrapArgs, sandboxPolicy, seatbeltProfile, type SandboxAvailability } from "./sandbox.js";

const BASH_DEFAULT_TIMEOUT_MS = 120_000;
const BASH_MAX_TIMEOUT_MS = 600_000;
const BASH_KILL_GRACE_MS = 2_000;

/** What a command inherits: the minimal set MCP servers get, and the locale. Never the model's credentials. */
const BASH_ENV_VARIABLES = [...INHERITED_ENV_VARIABLES, "LANG", "LANGUAGE", "LC_ALL", "LC_COLLATE", "LC_CTYPE", "LC_MESSAGES", "LC_NUMERIC", "LC_TIME", "TZ"];

export interface BashSandbox {
  readonly availability: SandboxAvailability;
  /** The settings give every call the network. */
  readonly network: boolean;
  /** Further writable folders, absolute. */
  readonly writable: readonly string[];
  /** Folders no command may read, absolute: where mca keeps the tokens of MCP logins. */
  readonly hidden: readonly string[];
  /** The project's protected folders as they are now, read again for each call. */
  readonly protectedFolders: () => readonly ProtectedFolder[];
}

export interface BashToolOptions {
  /** Between SIGTERM and SIGKILL to the process group; tests shorten it. */
  readonly killGraceMs?: number;
  /** Where commands run; absent: no sandbox. */
  readonly sandbox?: BashSandbox;
  /** What the command's environment is taken from; mca's own by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

type BashArgs = {
  readonly command: string;
  readonly timeoutMs: number;
  /** The model's reason for running this call outside the sandbox; null: inside it. */
  readonly outsideReason: string | null;
  readonly network: boolean;
};

export function createBashTool(projectDir: string, options: BashToolOptions = {}): Tool<BashArgs> {
  const cwd = resolve(projectDir);
  const { sandbox } = options;
  const placement = (args: BashArgs): CommandSandbox => {
    if (sandbox === undefined || sandbox.availability.kind === "none") return "unavailable";
    if (args.outsideReason !== null) return "requested-outside";
    return args.network && !sandbox.network ? "network-requested" : "inside";
  };
  return {
    name: "bash",
    description: describeTool(sandbox),
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
        sandbox: { type: "boolean", description: "false: run this one call outside the sandbox (the user is always asked; give `reason`)." },
        reason: { type: "string", description: "With `sandbox: false`: why this call must run outside the sandbox, shown to the user." },
        network: { type: "boolean", description: "true: this one call gets the network inside the sandbox (the user is always asked)." },
      },
      required: ["command"],
      additionalProperties: false,
    },
    kind: "exec",
    source: "local",
    originalName: "bash",
    parse: parseArgs,
    gateSubject: (args): GateSubject => ({ kind: "command", text: args.command, sandbox: placement(args) }),
    async run(args, context) {
      const where = placement(args);
      const outcome = await runCommand({
        ...commandLine(args, where, cwd, sandbox),
        env: onlyVariables(options.env ?? process.env, BASH_ENV_VARIABLES),
        cwd,
        timeoutMs: args.timeoutMs,
        killGraceMs: options.killGraceMs ?? BASH_KILL_GRACE_MS,
        signal: context.signal,
        ...(context.onProgress === undefined ? {} : { onLine: context.onProgress }),
      });
      const result = describe(outcome, args.timeoutMs);
      const refusal = where === "inside" || where === "network-requested" ? sandboxRefusal(outcome) : null;
      return refusal === null ? result : { ...result, text: `${result.text}\n${refusal}` };
    },
  };
}

function describeTool(sandbox: BashSandbox | undefined): string {
  const common =
    "Run a command with `bash -c` in the project folder (stdin is empty). Returns `exit code N` and then " +
    "stdout and stderr interleaved; a nonzero exit is reported as an error. Time limit `timeout_ms`: " +
    "default 120,000, at most 600,000; on timeout the command and everything it started are killed. " +
    "Output over 7,000 bytes keeps its first 3,000 and last 4,000 bytes. The environment is minimal " +
    "(PATH, HOME, USER, SHELL, TERM, the locale); the model's API key variables are never in it.";
  const availability = sandbox?.availability;
  if (sandbox === undefined || availability === undefined || availability.kind === "none") {
    const why = availability?.kind === "none" ? `no sandbox: ${availability.why}` : "no sandbox";
    return (
      `${common} This run has ${why}, so allow rules cover only read-only commands and other commands ask the user. ` +
      "Background processes that still hold the output when the command ends are killed; redirect their output " +
      "(`cmd > log 2>&1 &`) to keep them running."
    );
  }
  return (
    `${common} It runs in a sandbox: the file system is read-only except the project folder` +
    `${sandbox.writable.length === 0 ? "" : ` and ${sandbox.writable.join(", ")}`}; inside the project, git's config and hooks, ` +
    `.husky/ and .mca/ are read-only; /tmp is private and empty; ${sandbox.network ? "the network is available" : "there is no network"}; ` +
    "everything the command started ends with it. When the sandbox refuses something the result says so: then call again " +
    'with `"network": true` for the network, or `"sandbox": false` and a `"reason"` to run outside the sandbox. Both ' +
    "always ask the user, whatever the allow rules; use them only when the command needs it."
  );
}

function parseArgs(args: ToolArgs): BashArgs | Error {
  const command = requiredString(args, "command");
  if (command instanceof Error) return command;
  const timeoutMs = optionalInteger(args, "timeout_ms", { min: 1, max: BASH_MAX_TIMEOUT_MS });
  if (timeoutMs instanceof Error) return timeoutMs;
  const inside = optionalBoolean(args, "sandbox");
  if (inside instanceof Error) return inside;
  const network = optionalBoolean(args, "network");
  if (network instanceof Error) return network;
  const reason = optionalString(args, "reason");
  if (reason instanceof Error) return reason;
  if (inside === false && (reason === undefined || reason.trim() === "")) {
    return new Error('argument "reason" must say why the command must run outside the sandbox when "sandbox" is false');
  }
  return { command, timeoutMs: timeoutMs ?? BASH_DEFAULT_TIMEOUT_MS, outsideReason: inside === false ? (reason ?? "") : null, network: network === true };
}

function optionalBoolean(args: ToolArgs, name: string): boolean | undefined | Error {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  return typeof value === "boolean" ? value : new Error(`argument "${name}" must be true or false`);
}

/** The program that runs the command: bash itself, or bash inside the sandbox's program. */
function commandLine(args: BashArgs, where: CommandSandbox, cwd: string, sandbox: BashSandbox | undefined): { readonly program: string; readonly args: readonly string[] } {
  const bash = ["bash", "-c", args.command];
  const availability = sandbox?.availability;
  if (sandbox === undefined || availability === undefined || where === "unavailable" || where === "requested-outside") return { program: "bash", args: bash.slice(1) };
  const policy = sandboxPolicy(cwd, sandbox.protectedFolders(), { network: sandbox.network || args.network, writable: sandbox.writable, hidden: sandbox.hidden });
  switch (availability.kind) {
    case "bubblewrap":
      return { program: availability.program, args: bubblewrapArgs(policy, bash) };
    case "seatbelt":
      return { program: availability.program, args: ["-p", seatbeltProfile(policy), ...bash] };
    case "none":
      return { program: "bash", args: bash.slice(1) };
    default: {
      const unexpected: never = availability;
      return unexpected;
    }
  }
}

/** Failures the sandbox causes, as the programs inside word them, and what the model can do about them. */
const SANDBOX_REFUSALS: ReadonlyArray<{ readonly output: RegExp; readonly line: string }> = [
  {
    output: /Read-only file system|Device or resource busy/u,
    line:
      "[the sandbox refused a write: only the project folder is writable, and not its git config and hooks, .husky/ or .mca/. " +
      'If the command must write there, call bash again with "sandbox": false and a "reason"; the user will be asked.]',
  },
  {
    output: /Network is unreachable|Could not resolve host|Temporary failure in name resolution|Name or service not known|getaddrinfo (?:EAI_AGAIN|ENOTFOUND)/u,
    line: '[the sandbox has no network. If the command needs it, call bash again with "network": true; the user will be asked.]',
  },
];

function sandboxRefusal(outcome: CommandOutcome): string | null {
  if (outcome.kind !== "exited" || outcome.exitCode === 0) return null;
  return SANDBOX_REFUSALS.find(({ output }) => output.test(outcome.output))?.line ?? null;
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
}

const PROGRESS_INTERVAL_MS = 200;
/** A longer line is never shown as progress: only whole lines are, and one this long is held no further. */
const PROGRESS_MAX_LINE_BYTES = 4096;

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

    // `detached: true` makes the child the leader of a new process group whose id is its pid (and of a
    // new session, without a controlling terminal). The environment is the minimal one: the model's own
    // credentials are not its to read (or to print into the transcript).
    const child = spawn(request.program, request.args, {
      cwd: request.cwd,
      env: request.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let lastProgressMs = 0;
    const onLine = (line: string): void => {
      if (request.onLine === undefined || Date.now() - lastProgressMs < PROGRESS_INTERVAL_MS) return;
      lastProgressMs = Date.now();
      request.onLine(line);
    };
    for (const stream of [child.stdout, child.stderr]) {
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
