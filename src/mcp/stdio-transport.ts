// The stdio transport: spawns an MCP server as a child in its own process group, frames its stdout into
// JSON-RPC messages, keeps a tail of its stderr, and tears it down (stdin, SIGTERM, SIGKILL) on close.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { registerChild, signalProcessGroup, unregisterChild } from "./child-processes.js";
import { createConditionWaiter } from "./condition-waiter.js";
import { McpError } from "./errors.js";
import type { JsonRpcId, JsonRpcMessage } from "./jsonrpc.js";
import { MAX_LINE_BYTES, type LineFramer } from "./line-framer.js";
import { createStderrTail } from "./stderr-tail.js";
import { createStdioMessageReader, type StdioMessageReader } from "./stdio-message-reader.js";
import type { Transport, TransportHandlers } from "./transport.js";

export const STDIN_CLOSE_GRACE_MS = 2000;
export const SIGTERM_GRACE_MS = 2000;
/** After SIGKILL the kernel, not the child, decides; this only bounds our wait for the exit event. */
export const SIGKILL_WAIT_MS = 2000;
/** Once the child has exited (or closed stdout), how long the rest of its output may still drain. */
export const EXIT_DRAIN_MS = 200;

export interface StdioTransportOptions {
  /** The alias from the config; names the server in every message. */
  readonly label: string;
  readonly command: string;
  readonly args?: readonly string[];
  /** The child's whole environment (the composer merges the config's `env`); absent: inherit ours. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly maxLineBytes?: number;
  /** A different line framer (a seam for tests and the lab); the real one by default. */
  readonly createFramer?: (maxLineBytes: number) => LineFramer;
  readonly onWarning?: (message: string) => void;
}

const SPAWN_ERROR_REASONS: Readonly<Record<string, string>> = {
  ENOENT: "command not found (ENOENT)",
  EACCES: "permission denied (EACCES)",
};

function spawnErrorReason(error: NodeJS.ErrnoException): string {
  return (error.code && SPAWN_ERROR_REASONS[error.code]) ?? error.message;
}

export class StdioTransport implements Transport {
  readonly kind = "stdio";
  readonly label: string;
  readonly #options: StdioTransportOptions;
  readonly #reader: StdioMessageReader;
  readonly #stderr = createStderrTail();
  #child: ChildProcessWithoutNullStreams | undefined;
  #handlers: TransportHandlers | undefined;
  #exit: { readonly code: number | null; readonly signal: NodeJS.Signals | null } | undefined;
  #stdoutEnded = false;
  #drainTimer: NodeJS.Timeout | undefined;
  #closedReason: McpError | undefined;
  #closing: Promise<void> | undefined;
  readonly #waiter = createConditionWaiter();

  constructor(options: StdioTransportOptions) {
    this.#options = options;
    this.label = options.label;
    this.#reader = createStdioMessageReader({
      label: options.label,
      maxLineBytes: options.maxLineBytes ?? MAX_LINE_BYTES,
      ...(options.createFramer === undefined ? {} : { createFramer: options.createFramer }),
      onMessage: (message) => {
        if (!this.#closedReason) this.#handlers?.onMessage(message);
      },
      onWarning: options.onWarning,
      onFatal: (error) => {
        this.#fail(new McpError("closed", error.message));
        void this.close();
      },
    });
  }

  /** The last lines the server wrote to stderr. */
  stderrTail(): string {
    return this.#stderr.text();
  }

  /** How many stdout lines were not JSON-RPC (a server logging to stdout) and were skipped. */
  ignoredLineCount(): number {
    return this.#reader.ignoredLineCount();
  }

  start(handlers: TransportHandlers): Promise<void> {
    if (this.#child) return Promise.reject(new Error(`${this.label}: the stdio transport was already started`));
    const { command, args = [], env, cwd } = this.#options;
    this.#handlers = handlers;
    // detached: the child leads its own process group, so teardown reaches its children too.
    // stdio is left at its default: three pipes.
    const child = spawn(command, [...args], { cwd, env, detached: true });
    this.#child = child;
    child.stdin.on("error", () => undefined); // EPIPE after an exit: the exit event reports it
    child.stdout.on("data", (chunk: Buffer) => this.#reader.push(chunk));
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
          const reason = new McpError("unreachable", `${this.label}: cannot start \`${command}\`: ${spawnErrorReason(error)}`);
          this.#closedReason = reason;
          reject(reason);
          return;
        }
        this.#fail(new McpError("closed", `${this.label}: ${error.message}`));
        void this.close();
      });
    });
  }

  send(message: JsonRpcMessage): Promise<void> {
    const child = this.#child;
    if (this.#closedReason) return Promise.reject(this.#closedReason);
    if (!child || this.#closing) return Promise.reject(new McpError("closed", `${this.label}: connection closed`));
    return new Promise((resolve, reject) => {
      child.stdin.write(`${JSON.stringify(message)}\n`, (error) => {
        if (!error) return resolve();
        // A write fails when the child is gone (EPIPE); its exit, with code and stderr, is the better
        // reason, so give it a moment to arrive before falling back to the write error.
        const writeError = new McpError("closed", `${this.label}: cannot write to the server: ${error.message}`);
        void this.#waiter.waitFor(() => this.#closedReason !== undefined, EXIT_DRAIN_MS * 2).then(() =>
          reject(this.#closedReason ?? writeError),
        );
      });
    });
  }

  /** Spec §7 "Cancellation", stdio: the client MUST send `notifications/cancelled {requestId, reason?}`. */
  cancel(id: JsonRpcId, reason: string): void {
    if (!this.#child || this.#closedReason || this.#closing || this.#exit) return;
    const message = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason } };
    this.#child.stdin.write(`${JSON.stringify(message)}\n`, () => undefined);
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    const child = this.#child;
    const pid = child?.pid;
    if (child && pid !== undefined && !this.#exit) {
      // Spec §6 (shutdown, SHOULD): "close child's stdin → wait for exit → if still alive after 'a
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
    this.#fail(new McpError("closed", `${this.label}: connection closed`));
  }

  #waitForExit(limitMs: number): Promise<boolean> {
    return this.#waiter.waitFor(() => this.#exit !== undefined, limitMs);
  }

  #onStdoutEnd(): void {
    if (this.#stdoutEnded) return;
    this.#stdoutEnded = true;
    this.#reader.end();
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
    this.#waiter.wake();
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
      ? `${this.label} exited with code ${exit.code ?? "none"} (signal ${exit.signal ?? "none"}); stderr: ${stderr}`
      : `${this.label} closed its stdout; stderr: ${stderr}`;
    this.#fail(new McpError("closed", reason));
    if (!exit) void this.close();
  }

  #fail(reason: McpError): void {
    if (this.#closedReason) return;
    this.#closedReason = reason;
    clearTimeout(this.#drainTimer);
    this.#handlers?.onClose(reason);
    this.#waiter.wake();
  }
}

export function createStdioTransport(options: StdioTransportOptions): StdioTransport {
  return new StdioTransport(options);
}
