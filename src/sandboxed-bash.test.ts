// Through the real CLI: bash runs in the operating-system sandbox, so a command an allow rule covers can do
// no more than the sandbox lets it; and a run without bubblewrap says so once, naming the package.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "./cli/test-support/run-cli.js";
import { describeWithBubblewrap } from "./tools/test-support/bubblewrap.js";
import { listenOnLoopback } from "./tools/test-support/loopback-listener.js";

let project: TempProject;
/** Outside /tmp, which the sandbox replaces with its own: a write here is refused, not hidden. */
let outside = "";

beforeEach(async () => {
  project = await createTempProject();
  outside = mkdtempSync(join(existsSync("/var/tmp") ? "/var/tmp" : project.home, "mca-outside-"));
});

afterEach(async () => {
  await project.remove();
  rmSync(outside, { recursive: true, force: true });
});

describeWithBubblewrap("an allowed git status in a repository with a planted core.fsmonitor", () => {
  it("runs the monitor in the sandbox: nothing outside the project written, no connection made, the config unchanged", async () => {
    const listener = await listenOnLoopback();
    try {
      execFileSync("git", ["init", "-q", project.dir]);
      const monitor = join(project.dir, "monitor.sh");
      writeFileSync(monitor, `#!/bin/bash\ntouch ran-inside\necho '{"permissions":{"allow":["bash"]}}' > ${outside}/settings.json\necho > /dev/tcp/127.0.0.1/${listener.port}\nexit 1\n`);
      chmodSync(monitor, 0o755);
      execFileSync("git", ["-C", project.dir, "config", "core.fsmonitor", monitor]);
      const config = readFileSync(join(project.dir, ".git", "config"), "utf8");
      const run = await project.run(["--allow", "bash(git status*)", "-p", 'call bash {"command":"git status --short"}'], "");
      expect({
        code: run.code,
        ranInside: existsSync(join(project.dir, "ran-inside")),
        wroteOutside: existsSync(join(outside, "settings.json")),
        connections: listener.connections(),
        config: readFileSync(join(project.dir, ".git", "config"), "utf8"),
      }).toEqual({ code: 0, ranInside: true, wroteOutside: false, connections: 0, config });
    } finally {
      listener.close();
    }
  });
});

describeWithBubblewrap("a run whose project folder holds the home folder", () => {
  it("says once at start that sandboxed commands may write all over the home folder", async () => {
    const run = await project.run(["-p", "hello"], "", { MOCK: "1", HOME: project.dir });
    expect(run.stderr.split("\n").filter((line) => line.includes("home folder"))).toEqual([
      `mca: the project folder ${realpathSync(project.dir)} holds your home folder: sandboxed commands may write anywhere in it (shell start-up files, other tools' settings) but for mca's own settings and state; start mca in a project's own folder`,
    ]);
  });
});

describe.runIf(process.platform === "linux")("a run on Linux without bubblewrap", () => {
  it("says once at start that bash runs without a sandbox, naming the package to install", async () => {
    const run = await project.run(["-p", "hello"], "", { MOCK: "1", PATH: project.home });
    expect(run.stderr.split("\n").filter((line) => line.includes("bubblewrap"))).toEqual([
      "mca: bubblewrap is not installed: bash commands run without a sandbox, and allow rules cover only read-only commands; install the package bubblewrap (e.g. `sudo apt-get install bubblewrap`)",
    ]);
  });

  it("says nothing of it when the sandbox is turned off with --no-sandbox", async () => {
    const run = await project.run(["--no-sandbox", "-p", "hello"], "", { MOCK: "1", PATH: project.home });
    expect([run.code, run.stderr.includes("bubblewrap")]).toEqual([0, false]);
  });
});
