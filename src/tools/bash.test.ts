import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBashTool } from "./bash.js";
import type { SandboxAvailability } from "./sandbox.js";
import { sandboxPlaces } from "./sandbox-places.js";
import { BUBBLEWRAP, describeWithBubblewrap } from "./test-support/bubblewrap.js";
import { callTool } from "./test-support/call-tool.js";
import { listenOnLoopback } from "./test-support/loopback-listener.js";
import { tempProjectPerTest } from "./test-support/temp-project.js";

const WRITE_REFUSED =
  "[the sandbox refused a write: only the project folder is writable, and not its git folder (.git), .husky/ or .mca/, " +
  "so git commands that write (add, commit, checkout, stash, fetch…) need to run outside the sandbox. " +
  'If the command must write there, call bash again with "sandbox": false and a "reason"; the user will be asked.]';

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

describe("bash's account of where a call runs, for the gate", () => {
  const tool = (availability: SandboxAvailability, network = false) =>
    createBashTool("/p", { sandbox: { availability, network, writable: [], hidden: [], places: { read: () => [], changed: () => undefined } } });
  const subject = (created: ReturnType<typeof tool>, args: Record<string, unknown>): unknown => {
    const parsed = created.parse?.({ command: "ls", ...args });
    if (parsed === undefined || parsed instanceof Error) return parsed?.message;
    return created.gateSubject?.(parsed);
  };
  const bwrap: SandboxAvailability = { kind: "bubblewrap", program: "/usr/bin/bwrap", socketFilter: null, notice: null, works: async () => null };
  const none: SandboxAvailability = { kind: "none", why: "bubblewrap is not installed", notice: null };

  it("is inside the sandbox, unless the call asks to leave it or for a network the settings do not give", () => {
    expect(subject(tool(bwrap), {})).toEqual({ kind: "command", text: "ls", sandbox: "inside" });
    expect(subject(tool(bwrap), { sandbox: false, reason: "writes ~/.npmrc" })).toEqual({ kind: "command", text: "ls", sandbox: "requested-outside" });
    expect(subject(tool(bwrap), { network: true })).toEqual({ kind: "command", text: "ls", sandbox: "network-requested" });
    expect(subject(tool(bwrap, true), { network: true })).toEqual({ kind: "command", text: "ls", sandbox: "inside" });
  });

  it("does not run a call judged to be inside a sandbox that fails on first use, and judges later calls as without one", async () => {
    let probes = 0;
    const works = async (): Promise<string> => {
      probes += 1;
      return "No permissions to create new namespace";
    };
    const failing: SandboxAvailability = { kind: "bubblewrap", program: "/usr/bin/bwrap", socketFilter: null, notice: null, works };
    const created = tool(failing);
    const before = subject(created, {});
    const parsed = created.parse?.({ command: "touch made-by-the-call" });
    if (parsed === undefined || parsed instanceof Error) throw new Error("the arguments should parse");
    const result = await created.run(parsed, { signal: new AbortController().signal });
    expect({ before, result, after: subject(created, {}), probes }).toEqual({
      before: { kind: "command", text: "ls", sandbox: "inside" },
      result: {
        isError: true,
        text:
          "Not run: the sandbox could not start here (bubblewrap: No permissions to create new namespace). From now on commands run without a sandbox, " +
          "so they ask the user unless an allow rule covers them as read-only; call again to be asked.",
      },
      after: { kind: "command", text: "ls", sandbox: "unavailable" },
      probes: 1,
    });
  });

  it("is unavailable without a sandbox, whatever the call asks", () => {
    expect(subject(tool(none), { sandbox: false, reason: "r", network: true })).toEqual({ kind: "command", text: "ls", sandbox: "unavailable" });
    expect(subject(createBashTool("/p"), {})).toEqual({ kind: "command", text: "ls", sandbox: "unavailable" });
  });

  it("wants a reason for leaving the sandbox, and booleans for the switches", () => {
    expect(subject(tool(bwrap), { sandbox: false })).toBe('argument "reason" must say why the command must run outside the sandbox when "sandbox" is false');
    expect(subject(tool(bwrap), { sandbox: false, reason: "  " })).toBe('argument "reason" must say why the command must run outside the sandbox when "sandbox" is false');
    expect(subject(tool(bwrap), { network: "yes" })).toBe('argument "network" must be true or false');
  });

  it("tells the model the sandbox's limits and how to ask past them", () => {
    expect(tool(bwrap).description).toContain('call again with `"network": true` for the network, or `"sandbox": false` and a `"reason"` to run outside the sandbox');
    expect(tool(none).description).toContain("This run has no sandbox: bubblewrap is not installed, so allow rules cover only read-only commands");
  });
});

describeWithBubblewrap("bash in the bubblewrap sandbox", () => {
  const project = tempProjectPerTest("mca-bash-sandbox-");
  const outside = tempProjectPerTest("mca-bash-outside-");
  const context = { signal: new AbortController().signal };
  /** A home outside /tmp (the sandbox's /tmp is its own), so that a write there is refused rather than hidden. */
  let home = "";
  beforeEach(() => {
    home = mkdtempSync(join(existsSync("/var/tmp") ? "/var/tmp" : homedir(), "mca-bash-home-"));
    mkdirSync(join(home, ".config", "mca"), { recursive: true });
    writeFileSync(join(home, ".config", "mca", "settings.json"), "{}\n");
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  const sandboxed = (options: { readonly network?: boolean; readonly env?: Record<string, string | undefined>; readonly projectDir?: string; readonly writable?: readonly string[] } = {}) => {
    const projectDir = options.projectDir ?? project();
    return createBashTool(projectDir, {
      killGraceMs: 200,
      env: { PATH: process.env.PATH, HOME: home, ...options.env },
      sandbox: {
        availability: BUBBLEWRAP,
        network: options.network ?? false,
        writable: options.writable ?? [],
        hidden: [join(home, ".config", "mca", "oauth")],
        places: sandboxPlaces({ projectDir, env: { HOME: home, PATH: process.env.PATH }, ownFolders: [join(home, ".config", "mca"), join(home, ".local", "state", "mca")], programs: [] }),
      },
    });
  };

  it("runs git's core.fsmonitor command of a planted config with nothing outside the project written and no connection made", async () => {
    const listener = await listenOnLoopback();
    try {
      execFileSync("git", ["init", "-q", project()]);
      const hook = join(project(), "monitor.sh");
      writeFileSync(hook, `#!/bin/bash\ntouch ran-inside\necho pwned > ${home}/pwned\necho > /dev/tcp/127.0.0.1/${listener.port}\nexit 1\n`);
      chmodSync(hook, 0o755);
      execFileSync("git", ["-C", project(), "config", "core.fsmonitor", hook]);
      const config = readFileSync(join(project(), ".git", "config"), "utf8");
      const result = await callTool(sandboxed(), { command: "git status --short; git config core.fsmonitor false" }, context);
      expect(result.isError).toBe(true);
      expect(result.text).toContain("could not lock config file .git/config: Read-only file system");
      expect(existsSync(join(project(), "ran-inside"))).toBe(true);
      expect(existsSync(join(home, "pwned"))).toBe(false);
      expect(listener.connections()).toBe(0);
      expect(readFileSync(join(project(), ".git", "config"), "utf8")).toBe(config);
    } finally {
      listener.close();
    }
  });

  it("shows nothing of mca's environment: its /proc entry is not there, and the parent's environment is the minimal one", async () => {
    const secret = "mca-test-secret-in-the-environment";
    const command = `cat /proc/${process.pid}/environ; base64 /proc/$PPID/environ | base64 -d | tr '\\0' '\\n' | sort`;
    const result = await callTool(sandboxed({ env: { OTHER_TOKEN: secret } }), { command }, context);
    expect(result.text).toBe(`exit code 0\ncat: /proc/${process.pid}/environ: No such file or directory\nGIT_CONFIG_COUNT=1\nGIT_CONFIG_KEY_0=safe.bareRepository\nGIT_CONFIG_VALUE_0=explicit\nGIT_OPTIONAL_LOCKS=0\nHOME=${home}\nPATH=${process.env.PATH ?? ""}\n`);
  });

  it("cannot read the tokens of MCP logins in the user's config folder", async () => {
    mkdirSync(join(home, ".config", "mca", "oauth"));
    writeFileSync(join(home, ".config", "mca", "oauth", "server.json"), '{"access_token":"mca-test-token"}');
    const result = await callTool(sandboxed(), { command: "ls -A $HOME/.config/mca/oauth; cat $HOME/.config/mca/settings.json" }, context);
    expect(result).toEqual({ text: "exit code 0\n{}\n", isError: false });
  });

  it("writes the project, and refuses writes to the home, the user's settings, git's hooks and config, .husky/ and .mca/, saying why", async () => {
    execFileSync("git", ["init", "-q", project()]);
    mkdirSync(join(project(), ".husky"));
    mkdirSync(join(project(), ".mca"));
    const attempts = ["$HOME/x", "$HOME/.config/mca/settings.json", ".git/hooks/pre-commit", ".git/config", ".husky/pre-commit", ".mca/settings.json", "/usr/mca-x"];
    const command = `echo ok > made.txt; ${attempts.map((path) => `(echo '{"permissions":{"allow":["bash"]}}' >> ${path}) || echo "refused ${path}"`).join("; ")}; exit 1`;
    const result = await callTool(sandboxed(), { command }, context);
    expect(readFileSync(join(project(), "made.txt"), "utf8")).toBe("ok\n");
    for (const path of attempts) expect(result.text).toContain(`refused ${path.replace("$HOME", home)}`);
    expect(readFileSync(join(home, ".config", "mca", "settings.json"), "utf8")).toBe("{}\n");
    expect(readdirSync(join(project(), ".mca"))).toEqual([]);
    expect(result.text.endsWith(`\n${WRITE_REFUSED}`)).toBe(true);
  });

  it("holds a missing core.hooksPath folder with an empty read-only one while the command runs, and leaves nothing behind", async () => {
    execFileSync("git", ["init", "-q", project()]);
    execFileSync("git", ["-C", project(), "config", "core.hooksPath", "tools/hooks"]);
    const result = await callTool(sandboxed(), { command: "ls -A tools; touch tools/hooks/pre-commit" }, context);
    expect([result.isError, result.text.startsWith("exit code 1\n"), existsSync(join(project(), "tools"))]).toEqual([true, true, false]);
  });

  it("has no capabilities, even run as root: the read-only file system cannot be mounted writable again", async () => {
    const command = `grep CapEff /proc/self/status; (mount -o remount,rw,bind / && touch ${home}/pwned) 2>/dev/null || echo "mount refused"`;
    const result = await callTool(sandboxed(), { command }, context);
    expect([result.text, existsSync(join(home, "pwned"))]).toEqual(["exit code 0\nCapEff:\t0000000000000000\nmount refused\n", false]);
  });

  it("keeps the whole git folder read-only: nothing planted there makes the user's git run a program later", async () => {
    const git = (...args: string[]): string => execFileSync("git", ["-C", project(), ...args], { encoding: "utf8" });
    git("init", "-q");
    writeFileSync(join(project(), "a.txt"), "a\n");
    git("add", "a.txt");
    git("-c", "user.name=u", "-c", "user.email=u@example.com", "commit", "-qm", "first");
    const before = git("status", "--porcelain", "--ignored");
    const plantings: ReadonlyArray<readonly [string, string]> = [
      ["commondir", "mkdir -p ../evilcommon && echo ../evilcommon > .git/commondir"],
      ["config.worktree", "git config --worktree core.fsmonitor ./evil || echo '[core] fsmonitor = ./evil' > .git/config.worktree"],
      ["gitlink", "git -C sub init -q && git -C sub config core.fsmonitor ./evil && git update-index --add --cacheinfo 160000,$(git rev-parse HEAD),sub"],
      ["modules", "mkdir -p .git/modules/x && echo '[core] fsmonitor = ./evil' > .git/modules/x/config"],
      ["worktrees", "mkdir -p .git/worktrees/w"],
      ["attributes", "echo '* diff=evil' >> .git/info/attributes"],
    ];
    const command = plantings.map(([name, planting]) => `(${planting}) 2>/dev/null && echo "planted ${name}" || echo "refused ${name}"`).join("; ");
    const result = await callTool(sandboxed(), { command: `mkdir sub; ${command}` }, context);
    expect(result.text).toBe(`exit code 0\n${plantings.map(([name]) => `refused ${name}\n`).join("")}`);
    rmSync(join(project(), "sub"), { recursive: true });
    expect(git("status", "--porcelain", "--ignored")).toBe(before);
  });

  it("keeps a submodule's .git read-only, so it cannot be swapped for a folder with a config of its own", async () => {
    const git = (cwd: string, ...args: string[]): string =>
      execFileSync("git", ["-C", cwd, "-c", "user.name=u", "-c", "user.email=u@example.com", "-c", "protocol.file.allow=always", ...args], { encoding: "utf8" });
    const library = join(outside(), "lib");
    git(outside(), "init", "-q", "lib");
    git(library, "commit", "-q", "--allow-empty", "-m", "lib");
    git(project(), "init", "-q");
    git(project(), "submodule", "add", "-q", library, "libs/lib");
    const pointer = readFileSync(join(project(), "libs", "lib", ".git"), "utf8");
    const swap = "rm -f libs/lib/.git && mkdir libs/lib/.git && echo '[core] fsmonitor = ./evil' > libs/lib/.git/config";
    const result = await callTool(sandboxed(), { command: `(${swap}) 2>/dev/null || echo refused` }, context);
    expect([result.text, readFileSync(join(project(), "libs", "lib", ".git"), "utf8")]).toEqual(["exit code 0\nrefused\n", pointer]);
  });

  it("runs git's reading commands, and refuses its writing ones saying they need to run outside the sandbox", async () => {
    const git = (...args: string[]): string => execFileSync("git", ["-C", project(), "-c", "user.name=u", "-c", "user.email=u@example.com", ...args], { encoding: "utf8" });
    git("init", "-q", "-b", "main");
    writeFileSync(join(project(), "a.txt"), "a\n");
    git("add", "a.txt");
    git("commit", "-qm", "first");
    writeFileSync(join(project(), "a.txt"), "b\n");
    const reading = await callTool(sandboxed(), { command: "git status --short && git diff --stat && git log --format=%s" }, context);
    expect(reading).toEqual({ text: "exit code 0\n M a.txt\n a.txt | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\nfirst\n", isError: false });
    const writing = await callTool(sandboxed(), { command: "git -c user.name=u -c user.email=u@example.com commit -qam second" }, context);
    expect(writing).toEqual({
      text: `exit code 128\nfatal: Unable to create '${realpathSync(project())}/.git/index.lock': Read-only file system\n\n${WRITE_REFUSED}`,
      isError: true,
    });
    expect(git("log", "--format=%s")).toBe("first\n");
  });

  it("cannot connect to a unix socket without the network, though socket pairs work; with the network it can", async () => {
    const socket = join(home, "agent.sock");
    let connections = 0;
    const server = createServer((peer) => {
      connections += 1;
      peer.destroy();
    });
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      const connect = `${process.execPath} -e "require('net').connect(process.argv[1]).on('connect', () => { console.log('connected'); process.exit(0); }).on('error', (error) => { console.log(error.code); process.exit(1); })" ${socket}`;
      const pair = `${process.execPath} -e "console.log(require('child_process').execFileSync('echo', ['pair']).toString().trim())"`;
      const refused = await callTool(sandboxed(), { command: `${pair}; ${connect}` }, context);
      expect([refused, connections]).toEqual([{ text: "exit code 1\npair\nEPERM\n", isError: true }, 0]);
      const allowed = await callTool(sandboxed(), { command: connect, network: true }, context);
      for (let waitedMs = 0; waitedMs < 2_000 && connections === 0; waitedMs += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      expect([allowed, connections]).toEqual([{ text: "exit code 0\nconnected\n", isError: false }, 1]);
    } finally {
      server.close();
    }
  });

  it("keeps mca's settings and state read-only when the project is the home folder", async () => {
    mkdirSync(join(home, ".local", "state", "mca"), { recursive: true });
    const attempts = [".config/mca/settings.json", ".local/state/mca/x", ".config/mca/oauth/token"];
    const command = `echo ok > made.txt; ${attempts.map((path) => `(echo x >> ${path}) 2>/dev/null || echo "refused ${path}"`).join("; ")}`;
    const result = await callTool(sandboxed({ projectDir: home }), { command }, context);
    expect([result.text, readFileSync(join(home, "made.txt"), "utf8"), readdirSync(join(home, ".config", "mca")), readdirSync(join(home, ".local", "state", "mca"))]).toEqual([
      `exit code 0\n${attempts.map((path) => `refused ${path}\n`).join("")}`,
      "ok\n",
      ["settings.json"],
      [],
    ]);
  });

  it("keeps mca's settings read-only in a writable folder that holds them", async () => {
    const command = "echo ok > $HOME/.config/other.json; (echo x >> $HOME/.config/mca/settings.json) 2>/dev/null || echo refused";
    const result = await callTool(sandboxed({ writable: [join(home, ".config")] }), { command }, context);
    expect([result.text, readFileSync(join(home, ".config", "other.json"), "utf8"), readFileSync(join(home, ".config", "mca", "settings.json"), "utf8")]).toEqual([
      "exit code 0\nrefused\n",
      "ok\n",
      "{}\n",
    ]);
  });

  it("runs nothing while a symbolic link in the project folder itself leads to a place it keeps read-only, which a command could replace", async () => {
    mkdirSync(join(project(), "state"));
    symlinkSync("state", join(project(), ".mca"));
    const result = await callTool(sandboxed(), { command: "echo ran > ran.txt" }, context);
    expect([result, existsSync(join(project(), "ran.txt"))]).toEqual([
      {
        text:
          `Not run: the sandbox cannot keep ${JSON.stringify(join(realpathSync(project()), ".mca"))} in place (a symbolic link in a writable folder, on the way to something git or mca obeys later, which a command could replace). ` +
          'Call again with "sandbox": false and a "reason" to run it outside the sandbox; the user will be asked.',
        isError: true,
      },
      false,
    ]);
  });

  it("cannot move the git folder away to put another in its place", async () => {
    execFileSync("git", ["init", "-q", project()]);
    const result = await callTool(sandboxed(), { command: "mv .git .git-old" }, context);
    expect(result.isError).toBe(true);
    expect(result.text).toContain("Device or resource busy");
    expect(existsSync(join(project(), ".git", "HEAD"))).toBe(true);
  });

  it("has no network unless the call asks for it, and says how to ask", async () => {
    const listener = await listenOnLoopback();
    try {
      const command = `echo hi > /dev/tcp/127.0.0.1/${listener.port} || curl -sS http://host.invalid/`;
      const refused = await callTool(sandboxed(), { command }, context);
      expect(refused.text.endsWith('\n[the sandbox has no network. If the command needs it, call bash again with "network": true; the user will be asked.]')).toBe(true);
      expect(listener.connections()).toBe(0);
      const allowed = await callTool(sandboxed(), { command: `echo hi > /dev/tcp/127.0.0.1/${listener.port}`, network: true }, context);
      expect(allowed).toEqual({ text: "exit code 0\n(no output)", isError: false });
      for (let waitedMs = 0; waitedMs < 2_000 && listener.connections() === 0; waitedMs += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(listener.connections()).toBe(1);
    } finally {
      listener.close();
    }
  });

  it("runs a call outside the sandbox when it asks to (the gate has put it to the user)", async () => {
    const result = await callTool(sandboxed(), { command: `touch ${outside()}/made`, sandbox: false, reason: "writes outside" }, context);
    expect(result).toEqual({ text: "exit code 0\n(no output)", isError: false });
    expect(existsSync(join(outside(), "made"))).toBe(true);
  });

  it("keeps /tmp private: what a command writes there is gone after it", async () => {
    const result = await callTool(sandboxed(), { command: `echo x > /tmp/mca-private-${process.pid}; cat /tmp/mca-private-${process.pid}` }, context);
    expect(result).toEqual({ text: "exit code 0\nx\n", isError: false });
    expect(existsSync(`/tmp/mca-private-${process.pid}`)).toBe(false);
  });

  it("leaves no process behind when a command times out, a background one included", async () => {
    const marker = `30.${process.pid}`;
    const result = await callTool(sandboxed(), { command: `sleep ${marker} & trap '' TERM; sleep ${marker}`, timeout_ms: 300 }, context);
    expect(result).toEqual({ text: "timed out after 300 ms; the command's process group was killed\n", isError: true });
    expect(await processesWith(`sleep\0${marker}`)).toEqual([]);
  });

  it("ends what a command started in the background when the command ends", async () => {
    const marker = `31.${process.pid}`;
    const result = await callTool(sandboxed(), { command: `sleep ${marker} > /dev/null 2>&1 & echo started` }, context);
    expect(result).toEqual({ text: "exit code 0\nstarted\n", isError: false });
    expect(await processesWith(`sleep\0${marker}`)).toEqual([]);
  });

  it("stops when aborted", async () => {
    const controller = new AbortController();
    const printed: string[] = [];
    const running = callTool(sandboxed(), { command: "echo started; sleep 30" }, { signal: controller.signal, onProgress: (line) => printed.push(line) });
    // Stopped once the command has printed, so that what it printed is part of the result.
    await expect.poll(() => printed, { timeout: 5000 }).toEqual(["started"]);
    controller.abort();
    expect(await running).toEqual({ text: "aborted; the command's process group was killed\nstarted\n", isError: true });
  });
});

/** The pids (after waiting at most 5 s for them to go) whose command line contains `text`. */
async function processesWith(text: string): Promise<number[]> {
  const matching = (): number[] =>
    readdirSync("/proc")
      .filter((entry) => /^\d+$/u.test(entry))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(text) && isRunning(Number(pid));
        } catch {
          return false;
        }
      })
      .map(Number);
  for (let waitedMs = 0; waitedMs < 5_000 && matching().length > 0; waitedMs += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  return matching();
}

describe("bash's git", () => {
  const project = tempProjectPerTest("mca-bash-bare-");
  const context = { signal: new AbortController().signal };

  it("refuses a folder that merely looks like a bare repository, whose config would run a program, and still takes one named explicitly", async () => {
    const bare = join(project(), "vendor", "looks.git");
    mkdirSync(bare, { recursive: true });
    execFileSync("git", ["init", "-q", "--bare", bare]);
    execFileSync("git", ["--git-dir", bare, "config", "alias.st", "!touch ../../ran"]);
    const tool = createBashTool(project(), { killGraceMs: 200, env: { PATH: process.env.PATH, HOME: project() } });
    const found = await callTool(tool, { command: "cd vendor/looks.git && git st; git log" }, context);
    const named = await callTool(tool, { command: "git --git-dir=vendor/looks.git config alias.st" }, context);
    expect({ found: found.text.split("\n").at(-2), ran: existsSync(join(project(), "ran")), named: named.text }).toEqual({
      found: `fatal: cannot use bare repository '${realpathSync(bare)}' (safe.bareRepository is 'explicit')`,
      ran: false,
      named: "exit code 0\n!touch ../../ran\n",
    });
  });
});
