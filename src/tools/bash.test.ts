import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createBashTool, createOutputCap } from "./bash.js";
import { callTool } from "./test-support/call-tool.js";
import { tempProjectPerTest } from "./test-support/temp-project.js";

/** Alive means present in /proc and not a zombie waiting for its (re)parent to reap it. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** The pids still running after waiting (at most 5 s) for them to end: the kernel closes a dying
 * process's pipes a moment before it shows as a zombie. */
async function stillRunning(pids: readonly number[]): Promise<number[]> {
  for (let waitedMs = 0; waitedMs < 5_000 && pids.some(isRunning); waitedMs += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return pids.filter(isRunning);
}

/** Waits (at most 5 s) for a file a command writes, such as a pid file. */
async function waitForFile(path: string): Promise<string> {
  for (let waitedMs = 0; waitedMs < 5_000; waitedMs += 20) {
    if (existsSync(path)) {
      const content = readFileSync(path, "utf8");
      if (content.endsWith("\n")) return content.trim();
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${path} never appeared`);
}

describe("bash", () => {
  const project = tempProjectPerTest("mca-bash-");
  const started: number[] = [];
  const context = { signal: new AbortController().signal };

  afterEach(() => {
    for (const pid of started.splice(0)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Already gone, as it should be.
      }
    }
  });

  /** Pids the command wrote to `name`, remembered so a failing test still cleans up. */
  const readPids = (name: string): number[] => {
    const pids = readFileSync(join(project(), name), "utf8").trim().split(/\s+/).map(Number);
    started.push(...pids);
    return pids;
  };

  it("returns exit code 0 and the output", async () => {
    const result = await callTool(createBashTool(project()), { command: "echo hello" }, context);
    expect(result).toEqual({ text: "exit code 0\nhello\n", isError: false });
  });

  it("reports the newest line of output while the command runs, so the user sees it work", async () => {
    const lines: string[] = [];
    const command = "echo one; sleep 0.3; echo two; sleep 0.3; printf 'three\\n\\n'";
    const result = await callTool(createBashTool(project()), { command }, { ...context, onProgress: (line) => lines.push(line) });
    expect(result.isError).toBe(false);
    expect(lines).toEqual(["one", "two", "three"]);
  });

  it("runs with the minimal environment: never the model's API key variables, nor the rest of mca's", async () => {
    const env = { ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_AUTH_TOKEN: "auth-test", GITHUB_TOKEN: "ghp-test", PATH: process.env.PATH, HOME: "/h", LANG: "C.UTF-8" };
    const command = 'echo "key=${ANTHROPIC_API_KEY-unset} token=${ANTHROPIC_AUTH_TOKEN-unset} other=${GITHUB_TOKEN-unset} home=$HOME lang=$LANG"';
    const result = await callTool(createBashTool(project(), { env }), { command }, context);
    expect(result.text).toBe("exit code 0\nkey=unset token=unset other=unset home=/h lang=C.UTF-8\n");
  });

  it("reports only whole lines as progress, never the part of a line a chunk ends with", async () => {
    const lines: string[] = [];
    const command = "printf 'first\\nsk-ant-'; sleep 0.4; printf 'secret-rest\\n'";
    const result = await callTool(createBashTool(project()), { command }, { ...context, onProgress: (line) => lines.push(line) });
    expect(result.isError).toBe(false);
    expect(lines).toEqual(["first", "sk-ant-secret-rest"]);
  });

  it("runs in the project folder", async () => {
    const result = await callTool(createBashTool(project()), { command: "pwd" }, context);
    expect(result).toEqual({ text: `exit code 0\n${realpathSync(project())}\n`, isError: false });
  });

  it("reports a nonzero exit as an error with the exit code, stderr included", async () => {
    const result = await callTool(createBashTool(project()), { command: "echo out; echo err >&2; exit 3" }, context);
    expect(result.isError).toBe(true);
    expect(result.text.split("\n")[0]).toBe("exit code 3");
    expect(result.text).toContain("out\n");
    expect(result.text).toContain("err\n");
  });

  it("says when there is no output", async () => {
    expect(await callTool(createBashTool(project()), { command: "true" }, context)).toEqual({
      text: "exit code 0\n(no output)",
      isError: false,
    });
  });

  it("kills the whole process group on timeout, background grandchildren included", async () => {
    const result = await callTool(
      createBashTool(project()),
      { command: "sleep 30 & echo $! > pids; echo $$ >> pids; sleep 30", timeout_ms: 300 },
      context,
    );
    expect(result).toEqual({ text: "timed out after 300 ms; the command's process group was killed\n", isError: true });
    const pids = readPids("pids");
    expect(pids).toHaveLength(2);
    expect(await stillRunning(pids)).toEqual([]);
  });

  it("kills a process that ignores SIGTERM with SIGKILL after the grace period", async () => {
    const result = await callTool(
      createBashTool(project(), { killGraceMs: 200 }),
      { command: "trap '' TERM; sleep 30 & echo $! > pids; echo $$ >> pids; wait", timeout_ms: 300 },
      context,
    );
    expect(result.isError).toBe(true);
    const pids = readPids("pids");
    expect(pids).toHaveLength(2);
    expect(await stillRunning(pids)).toEqual([]);
  });

  it("kills the whole process group when aborted", async () => {
    const controller = new AbortController();
    const running = callTool(
      createBashTool(project()),
      { command: "sleep 30 & echo $! > pids; echo $$ >> pids; echo started; sleep 30" },
      { signal: controller.signal },
    );
    await waitForFile(join(project(), "pids"));
    controller.abort();
    const result = await running;
    expect(result).toEqual({ text: "aborted; the command's process group was killed\nstarted\n", isError: true });
    expect(await stillRunning(readPids("pids"))).toEqual([]);
  });

  it("returns when the command exits even if a background process holds the output, and stops it", async () => {
    const result = await callTool(createBashTool(project()), { command: "sleep 30 & echo $! > pids; echo done" }, context);
    expect(result).toEqual({ text: "exit code 0\ndone\n", isError: false });
    expect(await stillRunning(readPids("pids"))).toEqual([]);
  });

  it("caps a huge output while reading it, keeping the head and the tail", async () => {
    const result = await callTool(
      createBashTool(project()),
      { command: "echo FIRST; head -c 20000000 /dev/zero | tr '\\0' x; echo; echo LAST" },
      context,
    );
    expect(result.isError).toBe(false);
    expect(result.text.startsWith("exit code 0\nFIRST\nxxx")).toBe(true);
    expect(result.text.endsWith("xxx\nLAST\n")).toBe(true);
    // 6 + 20,000,000 + 1 + 5 bytes printed; 3,000 + 4,000 kept.
    expect(result.text.includes("\n[… 19993012 bytes of output left out …]\n")).toBe(true);
    expect(result.text.length).toBeLessThan(8_000);
  });

  it("refuses a timeout above 600 seconds", async () => {
    expect(await callTool(createBashTool(project()), { command: "true", timeout_ms: 600_001 }, context)).toEqual({
      text: 'argument "timeout_ms" must be an integer from 1 to 600000',
      isError: true,
    });
  });

  it("leaves no file behind in the project folder but what the command wrote", async () => {
    await callTool(createBashTool(project()), { command: "touch made.txt" }, context);
    expect(readdirSync(project())).toEqual(["made.txt"]);
  });
});

describe("createOutputCap", () => {
  it("keeps everything that fits in head and tail", () => {
    const cap = createOutputCap(4, 4);
    cap.push(Buffer.from("abc"));
    cap.push(Buffer.from("defgh"));
    expect(cap.text()).toBe("abcdefgh");
  });

  it("keeps the first and last bytes and counts what it left out", () => {
    const cap = createOutputCap(3, 3);
    for (const chunk of ["ab", "cdef", "ghij", "kl"]) cap.push(Buffer.from(chunk));
    expect(cap.text()).toBe("abc\n[… 6 bytes of output left out …]\njkl");
  });

  it("does not split a character that straddles head and tail when nothing was left out", () => {
    const cap = createOutputCap(1, 8);
    cap.push(Buffer.from("é!"));
    expect(cap.text()).toBe("é!");
  });
});
