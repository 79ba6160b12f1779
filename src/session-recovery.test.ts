// End to end, with the real CLI as a child the test drives: stopped in the middle of a slow command (by
// SIGTERM and by `kill -9`) and what the transcript, and so a resumed session, then says about that call;
// and a chat on a pseudo-terminal (script(1)) that names its session and is shown again on --resume.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliNodeArgs, createTempProject, type TempProject } from "./cli/test-support/run-cli.js";
import { STARTED_OUTCOME_UNKNOWN_TEXT } from "./kernel/index.js";

/** Long enough to be killed in the middle of, short enough that an orphan left by `kill -9` soon ends. */
const SLOW_COMMAND = "sleep 6";
/** The CLI on a busy machine may take seconds to reach its first call. */
const START_LIMIT_MS = 10_000;
const POLL_MS = 20;

let project: TempProject;
let child: ChildProcessByStdio<Writable, Readable, Readable> | undefined;

beforeEach(async () => {
  project = await createTempProject();
});

afterEach(async () => {
  if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  child = undefined;
  await project.remove();
});

/** mca -p with a scripted model whose first reply is one call of `bash` running SLOW_COMMAND. */
async function startSlowCall(): Promise<{ readonly exited: Promise<number | null> }> {
  const script = join(project.home, "script.json");
  await writeFile(script, JSON.stringify([[{ name: "bash", input: { command: SLOW_COMMAND } }], "done"]));
  const env = { PATH: process.env.PATH ?? "", HOME: project.home, XDG_CONFIG_HOME: join(project.home, ".config"), MCA_MOCK_SCRIPT: script };
  const started = spawn(process.execPath, cliNodeArgs("bundle", ["--allow", "bash", "-p", "run it"]), { cwd: project.dir, env, stdio: ["pipe", "pipe", "pipe"] });
  child = started;
  started.stdin.end();
  started.stdout.resume();
  started.stderr.resume();
  const exited = new Promise<number | null>((resolve) => started.on("close", (code) => resolve(code)));
  for (let waitedMs = 0; !transcriptEntries().some((entry) => entry.type === "call_started"); waitedMs += POLL_MS) {
    if (waitedMs > START_LIMIT_MS) throw new Error("the slow call never started");
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return { exited };
}

interface Entry {
  readonly type: string;
  readonly [key: string]: unknown;
}

/** Every entry of every transcript in the project, oldest file first (names start with the start time). */
function transcriptEntries(): Entry[] {
  const dir = project.sessionsDir;
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(".jsonl")).sort();
  } catch {
    return [];
  }
  return names.flatMap((name) =>
    readFileSync(join(dir, name), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line): Entry => JSON.parse(line)),
  );
}

describe("a call cut short by a signal", () => {
  it("reads 'Stopped: mca received SIGTERM.' for the model, not an abort by the user", async () => {
    const { exited } = await startSlowCall();
    child?.kill("SIGTERM");
    expect(await exited).toBe(143);
    const results = transcriptEntries().filter((entry) => entry.type === "tool_result");
    expect(results.map((entry) => entry.text)).toEqual(["Stopped: mca received SIGTERM."]);
  }, 20_000);

  it("is resumed after kill -9 as started with its outcome unknown, not as a call that never ran", async () => {
    const { exited } = await startSlowCall();
    child?.kill("SIGKILL");
    await exited;
    // A -p run is continued by its id: `--resume` alone continues only chat sessions.
    const [killed] = readdirSync(project.sessionsDir);
    const resumed = await project.run(["--resume", (killed ?? "").replace(/\.jsonl$/, ""), "-p", "what happened?"], "");
    expect(resumed.code).toBe(0);
    const history = transcriptEntries().find((entry) => entry.type === "history");
    expect(Array.isArray(history?.messages) ? history.messages.slice(-1) : history).toEqual([
      { role: "user", content: [{ type: "tool_result", toolUseId: "scripted_1", text: STARTED_OUTCOME_UNKNOWN_TEXT, isError: true }] },
    ]);
  }, 30_000);
});

/** The chat on a pseudo-terminal made by script(1); `typed` goes to it as keys, and it ends with Ctrl-D. */
async function chatOnTerminal(args: readonly string[], typed: string, waitFor: RegExp): Promise<string> {
  const quote = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;
  const line = [process.execPath, ...cliNodeArgs("bundle", args)].map(quote).join(" ");
  const env = { PATH: process.env.PATH ?? "", HOME: project.home, XDG_CONFIG_HOME: join(project.home, ".config"), MOCK: "1", TERM: "dumb" };
  const started = spawn("script", ["-qfec", line, "/dev/null"], { cwd: project.dir, env, stdio: ["pipe", "pipe", "pipe"] });
  child = started;
  let screen = "";
  started.stdout.on("data", (chunk: Buffer) => {
    screen += chunk.toString("utf8");
  });
  started.stderr.resume();
  const exited = new Promise<void>((resolve) => started.on("close", () => resolve()));
  const until = async (pattern: RegExp): Promise<void> => {
    for (let waitedMs = 0; !pattern.test(screen); waitedMs += POLL_MS) {
      if (waitedMs > START_LIMIT_MS) throw new Error(`gave up waiting for ${String(pattern)} in ${JSON.stringify(screen)}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };
  await until(/Ctrl-D exits/);
  if (typed !== "") started.stdin.write(`${typed}\r`);
  await until(waitFor);
  started.stdin.write("\x04");
  await exited;
  return screen;
}

describe("a chat session on a terminal", () => {
  it("names its session at start and at exit, and --resume shows the conversation before the first prompt", async () => {
    const first = await chatOnTerminal([], "remember the blue door", /the blue door"\. I am the offline mock/);
    const id = /session (\d{8}-\d{6}-\d+)\r?\n/.exec(first)?.[1];
    expect(first).toContain(`session ${id} · mca --resume ${id} continues it`);
    // A newer one-shot run is not what --resume alone continues.
    await project.run(["-p", "a one-shot question"], "");
    const resumed = await chatOnTerminal(["--resume"], "", /the conversation goes on from here/);
    expect(resumed).toMatch(new RegExp(`resumed session ${id} \\(2 messages\\)[^]*›[^]*remember the blue door[^]*You asked`));
  }, 30_000);
});
