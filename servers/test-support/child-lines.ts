// Runs a demo server as a real child process and reads its stdout line by line, so tests speak the
// raw wire: JSON written to stdin, one JSON per line back. Every wait is bounded.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const WAIT_LIMIT_MS = 10_000;
const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

export type ChildLines = {
  readonly child: ChildProcess;
  write(text: string | Buffer): void;
  /** The next stdout line, raw. */
  nextLine(): Promise<string>;
  /** Everything the child wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code once the child has exited. */
  exited(): Promise<number | null>;
  /** Kills the child if it still runs and waits for it to exit. */
  stop(): Promise<void>;
};

export function spawnTsServer(script: string, args: readonly string[] = []): ChildLines {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { cwd: REPO_ROOT, stdio: ["pipe", "pipe", "pipe"] });
  const lines: string[] = [];
  const waiters: ((line: string) => void)[] = [];
  let partial = "";
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (chunk: string) => {
    const parts = (partial + chunk).split("\n");
    partial = parts.pop() ?? "";
    for (const line of parts) {
      const waiter = waiters.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  function bounded<T>(promise: Promise<T>, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${script}: no ${what} within ${WAIT_LIMIT_MS} ms`)), WAIT_LIMIT_MS);
    });
    return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
  }

  return {
    child,
    write(text) {
      child.stdin?.write(text);
    },
    nextLine() {
      const ready = lines.shift();
      if (ready !== undefined) return Promise.resolve(ready);
      return bounded(new Promise<string>((resolve) => waiters.push(resolve)), "stdout line");
    },
    stderr() {
      return stderr;
    },
    exited() {
      return bounded(exit, "exit");
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await bounded(exit, "exit after SIGKILL");
    },
  };
}
