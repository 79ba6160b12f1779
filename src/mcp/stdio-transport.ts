// The stdio transport (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports#stdio): spawns an MCP server as a child in its own process group, frames its stdout
// into JSON-RPC messages, keeps a tail of its stderr, and tears it down (stdin, SIGTERM, SIGKILL) on close.
// The process groups it spawned are kept in one registry, so that any exit can take them all down.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import type { Redact } from "../kernel/index.js";
import { McpError, parseMessage, type JsonRpcMessage, type Transport, type TransportHandlers } from "./jsonrpc.js";
import { createLineFramer, MAX_LINE_BYTES, type LineFramer } from "./line-framer.js";

const STDIN_CLOSE_GRACE_MS = 2000;
const SIGTERM_GRACE_MS = 2000;
/** After SIGKILL the kernel, not the child, decides; this only bounds our wait for the exit event. */
const SIGKILL_WAIT_MS = 2000;
/** Once the child has exited (or closed stdout), how long the rest of its output may still drain. */
const EXIT_DRAIN_MS = 200;
const STDERR_TAIL_CHARS = 8 * 1024;
/** Kept raw beyond what is shown, so that a secret cut at the raw edge falls outside the redacted, shown tail. */
const STDERR_RAW_CHARS = 2 * STDERR_TAIL_CHARS;
const STDERR_TAIL_LINES = 40;
const QUOTED_LINE_CHARS = 80;

export interface StdioTransportOptions {
  /** The alias from the config: the `server` of every McpError this transport raises. */
  readonly label: string;
  readonly command: string;
  readonly args?: readonly string[];
  /** The child's whole environment (the composer merges the config's `env`); absent: inherit ours. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly maxLineBytes?: number;
  /** A different line framer (a seam for tests and the lab); the real one by default. */
  readonly createFramer?: (maxLineBytes: number) => LineFramer;
  /** Applied to the stderr tail and a quoted stdout line before they are cut: the server may print the secrets it was given. */
  readonly redact?: Redact;
  /** What runs the command (a PID namespace of its own, stdio-isolation.ts); absent: the command is spawned as it is. */
  readonly launcher?: StdioLauncher;
  /** The clock of the transport's waits (the graces before SIGTERM and SIGKILL above all); the real one by default, a hand-moved one in tests. */
  readonly clock?: TeardownClock;
}

/** Starts a timer; the function returned stops it. */
export interface TeardownClock {
  setTimer(ms: number, fire: () => void): () => void;
}

const REAL_CLOCK: TeardownClock = {
  setTimer(ms, fire) {
    const timer = setTimeout(fire, ms);
    return () => clearTimeout(timer);
  },
};

/** What a launcher spawns for a server: a program that runs its command (bubblewrap), or the command itself. */
export type LaunchPlan =
  | { readonly kind: "spawn"; readonly program: string; readonly args: readonly string[] }
  /** The command cannot start, found as spawning it would have found it: said as a spawn failure is, without a child. */
  | { readonly kind: "cannot start"; readonly code: "ENOENT" | "EACCES" };

/** The server's command as the config gives it, with the environment and folder it runs in. */
export interface LaunchRequest {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string | undefined;
}

export type StdioLauncher = (request: LaunchRequest) => Promise<LaunchPlan>;

// ---------------------------------------------------------------------------------------------------
// The process groups of the servers this process spawned and has not yet seen die, so that any exit —
// even a crash — can take them all down synchronously from `process.on("exit")`.

const liveGroups = new Set<number>();

/** Each stdio server is spawned detached, so its pid is also the id of its own process group. */
export function registerChild(pid: number): void {
  liveGroups.add(pid);
}

export function unregisterChild(pid: number): void {
  liveGroups.delete(pid);
}

/** Signals a whole process group; false when there is no such group any more. */
export function signalProcessGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Synchronous on purpose: an "exit" listener cannot wait. SIGKILL, because nothing will be left to wait. */
export function killAllChildrenSync(): void {
  for (const pid of liveGroups) signalProcessGroup(pid, "SIGKILL");
  liveGroups.clear();
}

// ---------------------------------------------------------------------------------------------------
// The transport.

const SPAWN_ERROR_REASONS: Readonly<Record<string, string>> = {
  ENOENT: "command not found (ENOENT)",
  EACCES: "permission denied (EACCES)",
};

/** spawn says ENOENT for a missing working folder too: that one is named for what it is. */
function spawnErrorReason(error: { readonly code?: string | undefined; readonly message: string }, cwd: string | undefined): string {
  if (error.code === "ENOENT" && cwd !== undefined && !existsSync(cwd)) return `its working folder ${cwd} does not exist (cwd)`;
  return (error.code && SPAWN_ERROR_REASONS[error.code]) ?? error.message;
}

/**
 * A bounded tail of the server's stderr: kept for `/mcp` and for the message when the server dies, never
 * read as protocol (the client "SHOULD NOT read it as an error signal").
 */
class StderrTail {
  readonly #decoder = new StringDecoder("utf8");
  #tail = "";

  constructor(readonly redact: Redact) {}

  append(chunk: Buffer): void {
    this.#tail += this.#decoder.write(chunk);
    if (this.#tail.length > STDERR_RAW_CHARS) this.#tail = this.#tail.slice(this.#tail.length - STDERR_RAW_CHARS);
    const lines = this.#tail.split("\n");
    // One more than the limit: the last element is the line still being written. Whole lines only, so no
    // secret is split here.
    if (lines.length > STDERR_TAIL_LINES + 1) this.#tail = lines.slice(lines.length - STDERR_TAIL_LINES - 1).join("\n");
  }

  /** The last lines of stderr, redacted, then cut to size, without a trailing newline. */
  text(): string {
    const redacted = this.redact(this.#tail);
    const shown = redacted.length > STDERR_TAIL_CHARS ? redacted.slice(redacted.length - STDERR_TAIL_CHARS) : redacted;
    const lines = shown.replace(/\n+$/, "").split("\n");
    return lines.slice(Math.max(0, lines.length - STDERR_TAIL_LINES)).join("\n");
  }
}

export class StdioTransport implements Transport {
  readonly label: string;
  readonly cancellation = "notify";
  readonly #options: StdioTransportOptions;
  readonly #framer: LineFramer;
  readonly #redact: Redact;
  readonly #stderr: StderrTail;
  #child: ChildProcessWithoutNullStreams | undefined;
  #handlers: TransportHandlers | undefined;
  #exit: { readonly code: number | null; readonly signal: NodeJS.Signals | null } | undefined;
  #started = false;
  #stdoutEnded = false;
  #framingFailed = false;
  #ignoredLines = 0;
  #drainTimer: NodeJS.Timeout | undefined;
  #closedReason: McpError | undefined;
  #closing: Promise<void> | undefined;
  /** Whoever changes what a wait is about (an exit, a close reason) wakes the waits to re-check. */
  readonly #wakes = new Set<() => void>();

  constructor(options: StdioTransportOptions) {
    this.#options = options;
    this.label = options.label;
    this.#redact = options.redact ?? ((text) => text);
    this.#stderr = new StderrTail(this.#redact);
    this.#framer = (options.createFramer ?? createLineFramer)(options.maxLineBytes ?? MAX_LINE_BYTES);
  }

  /** The last lines the server wrote to stderr. */
  stderrTail(): string {
    return this.#stderr.text();
  }

  async start(handlers: TransportHandlers): Promise<void> {
    const server = this.label;
    if (this.#started) throw new McpError("closed", "the stdio transport was already started", { server });
    this.#started = true;
    const { command, args = [], env, cwd, launcher } = this.#options;
    this.#handlers = handlers;
    const plan: LaunchPlan = launcher === undefined ? { kind: "spawn", program: command, args } : await launcher({ command, args, env: env ?? process.env, cwd });
    if (this.#closing) throw new McpError("closed", "connection closed", { server });
    if (plan.kind === "cannot start") {
      // The reason names the server's command, as a failed spawn of it does, never the launcher's program.
      const reason = new McpError("unreachable", `cannot start \`${command}\`: ${spawnErrorReason({ code: plan.code, message: plan.code }, cwd)}`, { server });
      this.#closedReason = reason;
      throw reason;
    }
    return this.#spawn(plan);
  }

  #spawn({ program, args }: { readonly program: string; readonly args: readonly string[] }): Promise<void> {
    const server = this.label;
    const { command, env, cwd } = this.#options;
    // detached: the child leads its own process group, so teardown reaches its children too.
    // stdio is left at its default: three pipes.
    const child = spawn(program, [...args], { cwd, env, detached: true });
    this.#child = child;
    child.stdin.on("error", () => undefined); // EPIPE after an exit: the exit event reports it
    child.stdout.on("data", (chunk: Buffer) => this.#read(chunk));
    child.stdout.on("end", () => this.#onStdoutEnd());
    child.stdout.on("error", () => this.#onStdoutEnd());
    child.stderr.on("data", (chunk: Buffer) => this.#stderr.append(chunk));
    child.stderr.on("error", () => undefined);
    child.on("exit", (code, signal) => this.#onExit(code, signal));

    return new Promise((resolve, reject) => {
      child.once("spawn", () => {
        if (child.pid !== undefined) registerChild(child.pid);
        resolve();
      });
      child.on("error", (error: NodeJS.ErrnoException) => {
        if (child.pid === undefined) {
          const reason = new McpError("unreachable", `cannot start \`${command}\`: ${spawnErrorReason(error, cwd)}`, { server });
          this.#closedReason = reason;
          reject(reason);
          return;
        }
        this.#fail(new McpError("closed", error.message, { server }));
        void this.close();
      });
    });
  }

  /** One line per message; `notifications/cancelled` too (on stdio "the client MUST send" it). */
  send(message: JsonRpcMessage): Promise<void> {
    const child = this.#child;
    if (this.#closedReason) return Promise.reject(this.#closedReason);
    if (!child || this.#closing) return Promise.reject(new McpError("closed", "connection closed", { server: this.label }));
    return new Promise((resolve, reject) => {
      child.stdin.write(`${JSON.stringify(message)}\n`, (error) => {
        if (!error) return resolve();
        // A write fails when the child is gone (EPIPE); its exit, with code and stderr, is the better
        // reason, so give it a moment to arrive before falling back to the write error.
        const writeError = new McpError("closed", `cannot write to the server: ${error.message}`, { server: this.label });
        void this.#waitFor(() => this.#closedReason !== undefined, EXIT_DRAIN_MS * 2).then(() => reject(this.#closedReason ?? writeError));
      });
    });
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    const child = this.#child;
    const pid = child?.pid;
    if (child && pid !== undefined && !this.#exit) {
      // stdio shutdown (SHOULD): "close child's stdin → wait for exit → if still alive after 'a
      // reasonable time', SIGTERM → wait → SIGKILL". The spec gives no timings; we wait 2 s and 2 s.
      child.stdin.end();
      if (!(await this.#waitForExit(STDIN_CLOSE_GRACE_MS))) {
        signalProcessGroup(pid, "SIGTERM");
        if (!(await this.#waitForExit(SIGTERM_GRACE_MS))) {
          signalProcessGroup(pid, "SIGKILL");
          await this.#waitForExit(SIGKILL_WAIT_MS);
        }
      }
    }
    child?.stdout.destroy();
    child?.stderr.destroy();
    this.#fail(new McpError("closed", "connection closed", { server: this.label }));
  }

  /** Frames stdout; a line that is not JSON-RPC is skipped (warned about once), a line over the cap is fatal. */
  #read(chunk: Buffer): void {
    if (this.#framingFailed) return;
    const lines = this.#framer.push(chunk);
    if (lines instanceof Error) {
      this.#framingFailed = true;
      this.#fail(new McpError("closed", `${lines.message}; the connection is closed`, { server: this.label }));
      void this.close();
      return;
    }
    for (const line of lines) this.#take(line);
  }

  #take(line: string): void {
    const message = parseMessage(line);
    if (!(message instanceof Error)) {
      if (!this.#closedReason) this.#handlers?.onMessage(message);
      return;
    }
    // A server printing logs to stdout breaks the spec ("nothing else may be written to stdout") but
    // should not break the connection.
    this.#ignoredLines += 1;
    if (this.#ignoredLines > 1) return;
    // Redacted before it is cut, as the stderr tail is: a cut secret would no longer match.
    const shown = this.#redact(line);
    const quoted = shown.length > QUOTED_LINE_CHARS ? `${shown.slice(0, QUOTED_LINE_CHARS)}…` : shown;
    this.#handlers?.onWarning?.(`ignoring a line on stdout that is not JSON-RPC (${message.message}): "${quoted}"`);
  }

  /** Resolves true once `condition` holds, or with its value at the limit: no wait here is unbounded. */
  #waitFor(condition: () => boolean, limitMs: number): Promise<boolean> {
    if (condition()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (): void => {
        stopTimer();
        this.#wakes.delete(check);
        resolve(condition());
      };
      const check = (): void => {
        if (condition()) done();
      };
      const stopTimer = (this.#options.clock ?? REAL_CLOCK).setTimer(limitMs, done);
      this.#wakes.add(check);
    });
  }

  #wake(): void {
    for (const check of [...this.#wakes]) check();
  }

  #waitForExit(limitMs: number): Promise<boolean> {
    return this.#waitFor(() => this.#exit !== undefined, limitMs);
  }

  #onStdoutEnd(): void {
    if (this.#stdoutEnded) return;
    this.#stdoutEnded = true;
    if (!this.#framingFailed) for (const line of this.#framer.end()) this.#take(line);
    this.#afterEnding();
  }

  #onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.#exit = { code, signal };
    const pid = this.#child?.pid;
    if (pid !== undefined) {
      // The leader is gone; whatever is left in its group is an orphan we spawned: take it down too.
      signalProcessGroup(pid, "SIGKILL");
      unregisterChild(pid);
    }
    this.#wake();
    this.#afterEnding();
  }

  /** Exit and end of stdout come in either order; the reason is given once both are in, or after a short drain. */
  #afterEnding(): void {
    if (this.#exit && this.#stdoutEnded) {
      this.#terminated();
      return;
    }
    this.#drainTimer ??= setTimeout(() => this.#terminated(), EXIT_DRAIN_MS);
  }

  #terminated(): void {
    clearTimeout(this.#drainTimer);
    if (this.#closing) return; // close() reports its own reason once the child is gone
    const exit = this.#exit;
    const stderr = this.stderrTail() || "(empty)";
    const reason = exit
      ? `the server exited with code ${exit.code ?? "none"} (signal ${exit.signal ?? "none"}); stderr: ${stderr}`
      : `the server closed its stdout; stderr: ${stderr}`;
    this.#fail(new McpError("closed", reason, { server: this.label }));
    if (!exit) void this.close();
  }

  #fail(reason: McpError): void {
    if (this.#closedReason) return;
    this.#closedReason = reason;
    clearTimeout(this.#drainTimer);
    this.#handlers?.onClose(reason);
    this.#wake();
  }
}

export function createStdioTransport(options: StdioTransportOptions): StdioTransport {
  return new StdioTransport(options);
}
