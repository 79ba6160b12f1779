// Start-up timings of whole processes: until exit (`node -e 0`, `mca tools --json`, pipe mode with empty
// input), or until a ready text appears on a pseudo-terminal made by script(1) (the interactive chat).
import { spawn, spawnSync } from "node:child_process";
import type { Command } from "../servers/server-command.js";

const RUN_LIMIT_MS = 20_000;
const EXIT_AFTER_READY_LIMIT_MS = 5000;
const END_OF_INPUT = "\u0004";

export interface StartUpRun {
  readonly command: Command;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Absent: time until exit. Present: time until this text is on stdout, then Ctrl-D. */
  readonly readyText?: string;
  /** What a run until exit reads on stdin before its end; nothing when absent. */
  readonly input?: string;
  /** A run until exit fails unless its stdout holds this: it did what it is timed for. */
  readonly expectText?: string;
}

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

/** The run wrapped in script(1), so that the program sees a terminal on stdin and stdout. */
function onTerminal(command: Command): Command {
  const line = [command.command, ...command.args].map(shellQuote).join(" ");
  return { command: "script", args: ["-qfec", line, "/dev/null"] };
}

function runOnce(run: StartUpRun): Promise<number> {
  const { command, args } = run.readyText === undefined ? run.command : onTerminal(run.command);
  const started = performance.now();
  const child = spawn(command, [...args], { cwd: run.cwd, env: run.env, stdio: ["pipe", "pipe", "pipe"], detached: true });
  const killGroup = (): void => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, "SIGKILL");
  };
  return new Promise<number>((resolve, reject) => {
    let readyAt: number | undefined;
    let seen = "";
    let stderr = "";
    const limit = setTimeout(() => {
      killGroup();
      reject(new Error(`${command} did not ${run.readyText === undefined ? "exit" : "get ready"} within ${RUN_LIMIT_MS} ms`));
    }, RUN_LIMIT_MS);
    child.stdin.on("error", () => undefined); // Ctrl-D to a program that already exited
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.stdout.on("data", (chunk: Buffer) => {
      if (run.readyText === undefined) {
        if (run.expectText !== undefined) seen += chunk.toString("utf8");
        return;
      }
      if (readyAt !== undefined) return;
      seen += chunk.toString("utf8");
      if (!seen.includes(run.readyText)) return;
      readyAt = performance.now() - started;
      child.stdin.write(END_OF_INPUT);
      setTimeout(killGroup, EXIT_AFTER_READY_LIMIT_MS).unref();
    });
    if (run.readyText === undefined) child.stdin.end(run.input ?? "");
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(limit);
      const elapsed = readyAt ?? performance.now() - started;
      const judge = (): void => {
        if (run.readyText !== undefined && readyAt === undefined) reject(new Error(`exited (code ${code}) before "${run.readyText}"`));
        else if (run.readyText === undefined && code !== 0) reject(new Error(`exited with code ${code}: ${stderr.trim()}`));
        else if (run.expectText !== undefined && !seen.includes(run.expectText)) reject(new Error(`exited without printing "${run.expectText}": ${seen.trim().slice(0, 300)}`));
        else resolve(elapsed);
      };
      // The last of stdout may come after the exit: what is expected in it is judged once it is all read.
      if (run.expectText === undefined || child.stdout.readableEnded) judge();
      else child.stdout.once("end", judge);
    });
  });
}

/** Milliseconds per run, after `warmups` unmeasured runs (which fill the file cache). */
export async function startUpMs(run: StartUpRun, warmups: number, samples: number): Promise<number[]> {
  for (let index = 0; index < warmups; index += 1) await runOnce(run);
  const millis: number[] = [];
  for (let index = 0; index < samples; index += 1) millis.push(await runOnce(run));
  return millis;
}

/** Peak RSS of one run until exit, by GNU time(1); undefined where it is not installed. */
export function exitRunPeakRssMb(run: StartUpRun): number | undefined {
  const timed = spawnSync("/usr/bin/time", ["-f", "%M", run.command.command, ...run.command.args], {
    cwd: run.cwd,
    env: run.env,
    input: run.input ?? "",
    encoding: "utf8",
    timeout: RUN_LIMIT_MS,
  });
  const kilobytes = Number(timed.stderr.trim().split("\n").at(-1));
  return timed.status === 0 && Number.isFinite(kilobytes) ? kilobytes / 1024 : undefined;
}
