import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ALWAYS_PROTECTED } from "../kernel/index.js";
import { bubblewrapArgs, detectSandbox, sandboxPolicy, seatbeltProfile, type SandboxPolicy } from "./sandbox.js";
import { BUBBLEWRAP, describeWithBubblewrap } from "./test-support/bubblewrap.js";
import { tempProjectPerTest } from "./test-support/temp-project.js";

const POLICY: SandboxPolicy = {
  project: "/home/u/p",
  writable: ["/home/u/.cache"],
  pinned: ["/home/u/p/.git"],
  readOnly: [
    { path: "/home/u/p/.git/config", present: true, hooks: false },
    { path: "/home/u/p/.git/hooks", present: false, hooks: true },
    { path: "/home/u/p/.mca", present: false, hooks: false },
    { path: "/home/u/p/.husky", present: true, hooks: false },
  ],
  hidden: ["/home/u/.config/mca/oauth"],
  network: false,
};

describe("sandboxPolicy", () => {
  const project = tempProjectPerTest("mca-sandbox-");

  it("pins the git folder, keeps its config and hooks read-only, names what is missing, and hides only folders that are there", () => {
    const root = realpathSync(project());
    execFileSync("git", ["init", "-q", root]);
    rmSync(join(root, ".git", "hooks"), { recursive: true });
    mkdirSync(join(root, ".husky"));
    const folders = [...ALWAYS_PROTECTED, { path: "tools/hooks", anyDepth: false, reason: "core.hooksPath" }];
    expect(sandboxPolicy(project(), folders, { network: false, writable: [join(root, ".husky"), join(root, "absent")], hidden: [join(root, ".mca"), join(root, ".husky")] })).toEqual({
      project: root,
      writable: [join(root, ".husky")],
      pinned: [join(root, ".git")],
      readOnly: [
        { path: join(root, ".git", "config"), present: true, hooks: false },
        { path: join(root, ".git", "config.worktree"), present: false, hooks: false },
        { path: join(root, ".git", "hooks"), present: false, hooks: true },
        { path: join(root, ".git", "modules"), present: false, hooks: false },
        { path: join(root, ".mca"), present: false, hooks: false },
        { path: join(root, ".husky"), present: true, hooks: false },
        { path: join(root, "tools", "hooks"), present: false, hooks: true },
      ],
      hidden: [join(root, ".husky")],
      network: false,
    });
  });

  it("binds a `.git` file read-only, so it cannot be pointed at another git folder", () => {
    const root = realpathSync(project());
    writeFileSync(join(root, ".git"), "gitdir: /elsewhere/.git/worktrees/p\n");
    expect(sandboxPolicy(root, ALWAYS_PROTECTED, { network: true, writable: [], hidden: [] }).readOnly).toEqual([
      { path: join(root, ".git"), present: true, hooks: false },
      { path: join(root, ".mca"), present: false, hooks: false },
      { path: join(root, ".husky"), present: false, hooks: false },
    ]);
  });

  it("leaves out a protected folder outside the project, which is read-only anyway", () => {
    const root = realpathSync(project());
    expect(sandboxPolicy(root, [{ path: "../hooks", anyDepth: false, reason: "" }], { network: false, writable: [], hidden: [] }).readOnly).toEqual([]);
  });
});

describe("bubblewrapArgs", () => {
  it("makes everything read-only but the writable places, then binds the read-only places inside them", () => {
    expect(bubblewrapArgs(POLICY, ["bash", "-c", "ls"])).toEqual([
      "--ro-bind", "/", "/",
      "--dev", "/dev",
      "--unshare-pid", "--proc", "/proc",
      "--tmpfs", "/tmp",
      "--tmpfs", "/run",
      "--ro-bind-try", "/run/systemd/resolve", "/run/systemd/resolve",
      "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
      "--unshare-net",
      "--die-with-parent",
      "--bind", "/home/u/.cache", "/home/u/.cache",
      "--bind", "/home/u/p", "/home/u/p",
      "--bind", "/home/u/p/.git", "/home/u/p/.git",
      "--ro-bind", "/home/u/p/.git/config", "/home/u/p/.git/config",
      "--tmpfs", "/home/u/p/.git/hooks", "--remount-ro", "/home/u/p/.git/hooks",
      "--ro-bind", "/home/u/p/.husky", "/home/u/p/.husky",
      "--tmpfs", "/home/u/.config/mca/oauth",
      "--chdir", "/home/u/p",
      "--", "bash", "-c", "ls",
    ]);
  });

  it("keeps the network namespace when the network is allowed", () => {
    expect(bubblewrapArgs({ ...POLICY, network: true }, ["true"])).not.toContain("--unshare-net");
  });
});

describe("seatbeltProfile", () => {
  it("denies writes outside the writable places and to the read-only ones, any use of the hidden ones, other processes' information and sockets", () => {
    expect(seatbeltProfile(POLICY)).toBe(
      [
        "(version 1)",
        "(allow default)",
        '(deny file-write* (require-not (require-any (subpath "/home/u/p") (subpath "/home/u/.cache") (subpath "/private/tmp") (subpath "/private/var/folders") (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper") (subpath "/dev/fd"))))',
        '(deny file-write* (literal "/home/u/p/.git"))',
        '(deny file-write* (subpath "/home/u/p/.git/config"))',
        '(deny file-write* (subpath "/home/u/p/.git/hooks"))',
        '(deny file-write* (subpath "/home/u/p/.mca"))',
        '(deny file-write* (subpath "/home/u/p/.husky"))',
        '(deny file-read* file-write* (subpath "/home/u/.config/mca/oauth"))',
        "(deny process-info*)",
        "(allow process-info* (target same-sandbox))",
        "(deny network*)",
        "",
      ].join("\n"),
    );
  });

  it("allows sockets when the network is allowed", () => {
    expect(seatbeltProfile({ ...POLICY, network: true })).not.toContain("network");
  });

  it("escapes quotes and backslashes in paths and refuses a control character", () => {
    const policy = { ...POLICY, writable: [], pinned: [], readOnly: [], hidden: [] };
    expect(seatbeltProfile({ ...policy, project: '/p/a"b\\c' })).toContain('(subpath "/p/a\\"b\\\\c")');
    expect(() => seatbeltProfile({ ...policy, project: "/p/a\n(allow default)" })).toThrow("a sandbox path has a control character");
  });
});

describe("detectSandbox", () => {
  const bin = tempProjectPerTest("mca-sandbox-bin-");

  it("names the package to install when bubblewrap is not on the PATH", async () => {
    expect(await detectSandbox("linux", { PATH: bin() })).toEqual({
      kind: "none",
      why: "bubblewrap is not installed",
      notice:
        "mca: bubblewrap is not installed: bash commands run without a sandbox, and allow rules cover only read-only commands; " +
        "install the package bubblewrap (e.g. `sudo apt-get install bubblewrap`)",
    });
  });

  it("says why when bubblewrap is there but cannot make a sandbox", async () => {
    const fake = join(bin(), "bwrap");
    writeFileSync(fake, "#!/bin/sh\nprintf 'bwrap: No permissions to create new namespace\\033[31m\\n' >&2\nexit 1\n");
    chmodSync(fake, 0o755);
    expect(await detectSandbox("linux", { PATH: bin() })).toEqual({
      kind: "none",
      why: "bubblewrap does not work here (bwrap: No permissions to create new namespace?[31m)",
      notice: `mca: bubblewrap (${fake}) does not work here (bwrap: No permissions to create new namespace?[31m): bash commands run without a sandbox, and allow rules cover only read-only commands`,
    });
  });

  it("has none on Windows, without a notice", async () => {
    expect(await detectSandbox("win32", {})).toEqual({ kind: "none", why: "mca has no sandbox on win32", notice: null });
  });
});

describeWithBubblewrap("detectSandbox with the real bubblewrap", () => {
  it("finds it on the PATH and checks that it runs a command", () => {
    expect(BUBBLEWRAP).toEqual({ kind: "bubblewrap", program: expect.stringMatching(/\/bwrap$/u) });
  });
});
