import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runLimited } from "./run-limited.js";

/** Bounded waits, not timings: a process starts when it starts, and a killed one may linger until reaped. */
const WAIT_LIMIT_MS = 10_000;
const POLL_MS = 50;

/** A child that starts a grandchild, writes the grandchild's pid to `pidFile`, and both wait forever. */
function family(pidFile: string): string[] {
  const script =
    'const c = require("node:child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });' +
    'require("node:fs").writeFileSync(process.argv[1], String(c.pid)); setInterval(() => {}, 1000);';
  return ["-e", script, pidFile];
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean): Promise<boolean> {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  while (!condition() && Date.now() < deadline) await sleep(POLL_MS);
  return condition();
}

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "run-limited-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("runLimited", () => {
  it("returns the exit code and the output of a command that ends by itself", async () => {
    const run = await runLimited(process.execPath, ["-e", 'console.log("out"); console.error("err"); process.exit(3)'], { cwd: dir, limitMs: 20_000 });
    expect({ ...run, output: run.output.split("\n").filter(Boolean).sort() }).toEqual({ code: 3, timedOut: false, output: ["err", "out"] });
  });

  it("takes the command's whole process group down when the limit is hit", async () => {
    const pidFile = join(dir, "pid");
    const run = await runLimited(process.execPath, family(pidFile), { cwd: dir, limitMs: 1000 });
    expect(run.timedOut).toBe(true);
    const grandchild = Number(readFileSync(pidFile, "utf8"));
    expect(await waitFor(() => !alive(grandchild))).toBe(true);
  });

  it("takes the group down at once when the caller aborts", async () => {
    const pidFile = join(dir, "pid");
    const controller = new AbortController();
    const running = runLimited(process.execPath, family(pidFile), { cwd: dir, limitMs: 60_000, signal: controller.signal });
    expect(await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8") !== "")).toBe(true);
    controller.abort();
    const run = await running;
    expect(run.timedOut).toBe(false);
    const grandchild = Number(readFileSync(pidFile, "utf8"));
    expect(await waitFor(() => !alive(grandchild))).toBe(true);
  });
});
