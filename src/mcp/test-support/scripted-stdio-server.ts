// How tests launch the scripted stdio server, and how they tell that a process is really gone.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const SCRIPT_PATH = fileURLToPath(new URL("./scripted-stdio-server.mjs", import.meta.url));

/** The command and args for a StdioTransport; each flag is `--name` or `--name=value`. */
export function scriptedStdioServer(...flags: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [SCRIPT_PATH, ...flags] };
}

/**
 * Gone means no such process, or a zombie: in this sandbox pid 1 does not reap orphans, so a killed
 * grandchild can linger as a zombie that `process.kill(pid, 0)` still finds.
 */
export function isProcessGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

/** Live processes (zombies do not count) whose command line holds `text`; only the children of `parent` when given. */
export function processesNaming(text: string, parent?: number): number[] {
  const pids = readdirSync("/proc").filter((name) => /^\d+$/u.test(name)).map(Number);
  return pids.filter((pid) => {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(text) || isProcessGone(pid)) return false;
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      return parent === undefined || Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === parent;
    } catch {
      return false; // gone meanwhile
    }
  });
}

/** Polls until the process is gone, for at most `limitMs`; returns whether it went. */
export async function waitUntilGone(pid: number, limitMs: number): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (!isProcessGone(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** One teardown step as the server recorded it under `--record=<file>`. */
export type RecordedStep = { readonly event: string; readonly atMs: number };

/** The steps the server recorded, in order; none when it recorded nothing. */
export function recordedSteps(file: string): RecordedStep[] {
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, "utf8").split("\n").filter((line) => line !== "");
  return lines.map((line) => {
    const step: unknown = JSON.parse(line);
    if (typeof step !== "object" || step === null || !("event" in step) || !("atMs" in step)) throw new Error(`not a recorded step: ${line}`);
    const { event, atMs } = step;
    if (typeof event !== "string" || typeof atMs !== "number") throw new Error(`not a recorded step: ${line}`);
    return { event, atMs };
  });
}

/**
 * Polls the steps recorded in `file` until `condition` holds of them, failing after `limitMs` with what was
 * awaited and what was recorded: a wait for the server's own events, never a decision by the clock.
 */
export async function waitForSteps(file: string, what: string, condition: (events: readonly string[]) => boolean, limitMs = 10_000): Promise<string[]> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const events = recordedSteps(file).map(({ event }) => event);
    if (condition(events)) return events;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}; the server recorded ${JSON.stringify(events)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A clock the test moves by hand: timers fire only when `advance` passes their time. */
export function handClock(): { setTimer(ms: number, fire: () => void): () => void; advance(ms: number): void } {
  let now = 0;
  const timers = new Set<{ readonly at: number; readonly fire: () => void }>();
  return {
    setTimer(ms, fire) {
      const timer = { at: now + ms, fire };
      timers.add(timer);
      return () => void timers.delete(timer);
    },
    advance(ms) {
      now += ms;
      for (const timer of [...timers].sort((a, b) => a.at - b.at)) {
        if (timer.at > now) continue;
        timers.delete(timer);
        timer.fire();
      }
    },
  };
}
