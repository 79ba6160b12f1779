// The running process as the rest of the CLI sees it, built once by main.ts: where mca writes (through the
// run's redactor, and nothing once a reader closed the output), what stops the work (a signal, Ctrl-C, a
// crash), and the one way out — the work settles, every MCP connection and child is closed, each bounded
// by CLOSE_TIMEOUT_MS, what was written reaches its reader, then the process exits with the work's status.
import { isatty } from "node:tty";
import { createRedactor, describeError, liveRedactor, secretsIn, type Redact } from "../kernel/index.js";
import type { TerminalInput, TerminalOutput } from "./terminal.js";

/** Exit statuses as a shell reports a process ended by the signal (128 + its number). */
const EXIT_ON_SIGNAL: Readonly<Record<"SIGTERM" | "SIGHUP", number>> = { SIGTERM: 143, SIGHUP: 129 };
export const INTERRUPTED_EXIT_CODE = 130;
/** After a reader closed our output, as a shell reports a process ended by SIGPIPE (`git log | head`). */
const OUTPUT_CLOSED_EXIT_CODE = 141;
const CRASH_EXIT_CODE = 1;
/** Longer than a stdio server's own teardown (stdin close, then SIGTERM, then SIGKILL, 2 s apart). */
const CLOSE_TIMEOUT_MS = 5000;

export type Closer = () => Promise<void> | void;

/** One of the process's output streams: written to, and failing with "error" once its reader is gone. */
export interface OutputStream {
  write(text: string, done?: () => void): unknown;
  on(event: "error", listener: () => void): unknown;
  /** Bytes written but not yet handed to the reader (into a pipe, a slow one); absent: none are ever held. */
  readonly writableLength?: number;
}

/** What the runtime takes of Node's process; tests pass a fake one. */
export interface RuntimeProcess {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  on(event: string, listener: (reason: unknown) => void): unknown;
  exit(code: number): void;
}

/**
 * The terminal a person may be at, reached only through the runtime: standard input, made on first use
 * (creating Node's stream costs a run that never reads it ~3 ms), and the outputs as they are, for the chat
 * and the questions, which pass what they write through the run's redactor themselves.
 */
export interface RuntimeTerminal {
  input(): TerminalInput;
  readonly output: TerminalOutput;
  readonly errorOutput: TerminalOutput;
  /** Whether a person types on standard input: asked of descriptor 0, not of the stream. */
  inputIsTerminal(): boolean;
  /** Whether a question can be asked and answered: standard input and output are both a terminal. */
  interactive(): boolean;
}

/** The process's own terminal. */
function processTerminal(): RuntimeTerminal {
  const inputIsTerminal = (): boolean => isatty(0);
  return {
    input: () => process.stdin,
    output: process.stdout,
    errorOutput: process.stderr,
    inputIsTerminal,
    interactive: () => inputIsTerminal() && process.stdout.isTTY === true,
  };
}

export interface Runtime {
  readonly env: NodeJS.ProcessEnv;
  readonly terminal: RuntimeTerminal;
  /**
   * The wall clock, in milliseconds (Date.now): the chat's double Ctrl-C window, a run's duration. Not
   * performance.now(): its first touch loads Node's perf_hooks, ~2 ms of every start.
   */
  readonly now: () => number;
  /** mca's own version, from its package.json. */
  readonly version: string;
  /** Every line mca itself writes passes the run's redactor; nothing is written once the output is closed. */
  readonly writeOut: (text: string) => void;
  readonly writeErr: (text: string) => void;
  /** One line for the user: on stderr, or while the chat shows notices (showWarningsIn), there. */
  readonly warn: (text: string) => void;
  /**
   * Hides every secret the run has learnt so far: the configured header and env values and the API key,
   * added once the MCP config is read, and a login's tokens as they come (what tools return is redacted
   * by the agent before it is cut).
   */
  readonly redact: Redact;
  readonly addSecret: (secret: string) => void;
  /**
   * Aborted when the work must stop: the first Ctrl-C outside the chat (pipe mode, -p, subcommands), and
   * every way of ending the process. The running mode sees it, aborts its turn (a tool's processes are
   * killed) and returns. Its reason completes "Stopped: …" in what the model reads of a call cut short,
   * so that a signal or a closed pipe is never reported as the user's own interrupt.
   */
  readonly interrupt: AbortSignal;
  /** Run at shutdown, once the work has settled, in the order they were added. */
  readonly addCloser: (close: Closer) => void;
  /** Run synchronously when the process exits, however it exits (a crash, a plain process.exit). */
  readonly atExit: (run: () => void) => void;
  /** Where warnings go from now on: the chat's place for them (above its input line), or null for stderr again. */
  readonly showWarningsIn: (show: ((text: string) => void) | null) => void;
  /** Shuts down once the work resolves, exiting with its status. */
  readonly exitWith: (work: Promise<number>) => void;
}

/**
 * The runtime of one process. Its handlers are on the process before this returns, so no child can start
 * before a signal or an exit would take it down: every step that starts one is given this runtime.
 */
export function createRuntime(proc: RuntimeProcess, version: string, closeTimeoutMs = CLOSE_TIMEOUT_MS, terminal: RuntimeTerminal = processTerminal()): Runtime {
  let outputClosed = false;
  const secrets = growingRedactor([]);
  const writeTo = (stream: OutputStream) => (text: string) => void (outputClosed || stream.write(secrets.redact(text)));
  const writeOut = writeTo(proc.stdout);
  const writeErr = writeTo(proc.stderr);
  const warnOnStderr = (text: string): void => writeErr(`${text}\n`);
  let showWarning = warnOnStderr;
  const warn = (text: string): void => showWarning(text);

  let work: Promise<unknown> = Promise.resolve();
  // Shutdown first lets the aborted work settle (bounded by the shutdown's own limit), then closes the rest.
  const closers: Closer[] = [() => work.then(() => undefined, () => undefined)];
  // Into a pipe Node may still hold what was written when the work ends: the process exits only once the
  // reader has it all (`mca tools --json | slow-reader` gets every byte), unless the reader has gone.
  const drained = (stream: OutputStream): Promise<void> =>
    outputClosed || (stream.writableLength ?? 0) === 0 ? Promise.resolve() : new Promise((resolve) => void stream.write("", resolve));
  const exit = async (code: number): Promise<void> => {
    await Promise.all([drained(proc.stdout), drained(proc.stderr)]);
    proc.exit(code);
  };
  const shutdown = createShutdown({ closers, exit, warn, closeTimeoutMs });
  const interrupt = new AbortController();
  const end = (code: number, why: string): void => {
    if (!interrupt.signal.aborted) interrupt.abort(why);
    void shutdown(code);
  };

  const atExit: (() => void)[] = [];
  proc.on("exit", () => {
    for (const run of atExit) run();
  });
  for (const [signal, code] of Object.entries(EXIT_ON_SIGNAL)) proc.on(signal, () => end(code, `mca received ${signal}`));
  proc.on("SIGINT", () => {
    // The user's own Ctrl-C: no reason given, the call reads "Aborted by the user.".
    if (interrupt.signal.aborted) end(INTERRUPTED_EXIT_CODE, "the user pressed Ctrl-C twice");
    else interrupt.abort();
  });
  // A reader that closed our output (`mca … | head -1`) ends the run quietly and at once, servers closed
  // first; writing on would only raise EPIPE again.
  for (const stream of [proc.stdout, proc.stderr]) {
    stream.on("error", () => {
      if (outputClosed) return;
      outputClosed = true;
      end(OUTPUT_CLOSED_EXIT_CODE, "mca's output was closed");
    });
  }
  let crashed = false;
  for (const event of ["uncaughtException", "unhandledRejection"]) {
    proc.on(event, (error) => {
      // One report per run: a second failure while shutting down must not loop.
      if (crashed) return;
      crashed = true;
      warn(`mca: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      end(CRASH_EXIT_CODE, "mca hit an unexpected error");
    });
  }

  return {
    env: proc.env,
    terminal,
    now: Date.now,
    version,
    writeOut,
    writeErr,
    warn,
    redact: secrets.redact,
    addSecret: secrets.add,
    interrupt: interrupt.signal,
    addCloser: (close) => void closers.push(close),
    atExit: (run) => void atExit.push(run),
    showWarningsIn: (show) => {
      showWarning = show === null ? warnOnStderr : (text) => void (outputClosed || show(secrets.redact(text)));
    },
    exitWith: (running) => {
      work = running;
      void running.then((code) => shutdown(code));
    },
  };
}

/**
 * The run's redaction set, open to secrets learnt after start-up (configured values once the config is
 * read; tokens read from the store, issued, or refreshed): `redact` always hides every secret added so far.
 */
export function growingRedactor(initial: readonly string[]): { readonly redact: Redact; add(secret: string): void } {
  const secrets = new Set(initial);
  let current = createRedactor(secrets);
  return {
    redact: liveRedactor(() => current),
    add(secret) {
      if (secrets.has(secret)) return;
      for (const part of secretsIn([secret])) secrets.add(part);
      current = createRedactor(secrets);
    },
  };
}

export interface ShutdownDeps {
  /** Read when shutdown runs, so closers registered after start-up are included. */
  readonly closers: readonly Closer[];
  /** Exits the process; it may first wait for something (the outputs reaching their readers). */
  readonly exit: (code: number) => unknown;
  readonly warn: (text: string) => void;
  readonly closeTimeoutMs?: number;
}

export type Shutdown = (code: number) => Promise<void>;

/** Closes the closers, then exits; calling it again changes nothing. */
export function createShutdown(deps: ShutdownDeps): Shutdown {
  let running: Promise<void> | undefined;
  return (code) => {
    running ??= closeAll(deps).then(async () => {
      await deps.exit(code);
    });
    return running;
  };
}

/**
 * One closer after another, in the order they were registered, reading the list as it grows: the first
 * (the running work settling) may still register more (connections mounted while it was stopping).
 */
async function closeAll(deps: ShutdownDeps): Promise<void> {
  const limitMs = deps.closeTimeoutMs ?? CLOSE_TIMEOUT_MS;
  for (let index = 0; index < deps.closers.length; index += 1) {
    const close = deps.closers[index];
    if (close === undefined) continue;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), limitMs);
    });
    try {
      const result = await Promise.race([Promise.resolve().then(close), timeout]);
      if (result === "timeout") deps.warn(`a connection did not close within ${limitMs} ms; leaving it to the exit handler`);
    } catch (error) {
      deps.warn(`closing a connection failed: ${describeError(error)}`);
    } finally {
      clearTimeout(timer);
    }
  }
}
