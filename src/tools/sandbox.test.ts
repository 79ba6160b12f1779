import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bubblewrapArgs, detectSandbox, findSandbox, homeInProjectNotice, sandboxPolicy, seatbeltProfile, type SandboxPolicy } from "./sandbox.js";
import { unixSocketFilter } from "./seccomp-filter.js";
import { BUBBLEWRAP, describeWithBubblewrap } from "./test-support/bubblewrap.js";
import { tempProjectPerTest } from "./test-support/temp-project.js";

const POLICY: SandboxPolicy = {
  project: "/home/u/p",
  writable: ["/home/u/.cache"],
  pinned: ["/home/u/p/vendor"],
  readOnly: [
    { kind: "bind", path: "/home/u/p/.git" },
    { kind: "placeholder", path: "/home/u/p/.gitmodules", shape: "file" },
    { kind: "placeholder", path: "/home/u/p/.mca", shape: "folder" },
    { kind: "bind", path: "/home/u/p/vendor/lib" },
  ],
  unguarded: [],
  hidden: ["/home/u/.config/mca/oauth"],
  network: false,
};

describe("sandboxPolicy", () => {
  const project = tempProjectPerTest("mca-sandbox-");

  it("keeps the places read-only where the project or a writable folder holds them, and hides only folders that are there", () => {
    const root = realpathSync(project());
    execFileSync("git", ["init", "-q", root]);
    mkdirSync(join(root, "cache"));
    const places = [
      { path: join(root, ".git"), absent: "folder" as const },
      { path: join(root, ".mca"), absent: "folder" as const },
      { path: join(root, "cache", "mca"), absent: "folder" as const },
      { path: "/usr/mca", absent: "folder" as const },
    ];
    const options = { network: false, writable: [join(root, "cache"), join(root, "absent")], hidden: [join(root, ".mca"), join(root, "cache")], places };
    expect(sandboxPolicy(project(), options)).toEqual({
      project: root,
      writable: [join(root, "cache")],
      pinned: [],
      readOnly: [
        { kind: "bind", path: join(root, ".git") },
        { kind: "placeholder", path: join(root, ".mca"), shape: "folder" },
        { kind: "placeholder", path: join(root, "cache", "mca"), shape: "folder" },
      ],
      unguarded: [],
      hidden: [join(root, "cache")],
      network: false,
    });
  });
});

describe("bubblewrapArgs", () => {
  it("makes everything read-only but the writable places, pins the folders on the way, then binds the read-only places and placeholders inside", () => {
    expect(bubblewrapArgs(POLICY, ["bash", "-c", "ls"], 3)).toEqual([
      "--ro-bind", "/", "/",
      "--dev", "/dev",
      "--unshare-pid", "--proc", "/proc",
      "--tmpfs", "/tmp",
      "--tmpfs", "/run",
      "--ro-bind-try", "/run/systemd/resolve", "/run/systemd/resolve",
      "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
      "--cap-drop", "ALL",
      "--unshare-net", "--seccomp", "3",
      "--die-with-parent",
      "--bind", "/home/u/.cache", "/home/u/.cache",
      "--bind", "/home/u/p", "/home/u/p",
      "--bind", "/home/u/p/vendor", "/home/u/p/vendor",
      "--ro-bind", "/home/u/p/.git", "/home/u/p/.git",
      "--ro-bind", "/dev/null", "/home/u/p/.gitmodules",
      "--tmpfs", "/home/u/p/.mca", "--remount-ro", "/home/u/p/.mca",
      "--ro-bind", "/home/u/p/vendor/lib", "/home/u/p/vendor/lib",
      "--tmpfs", "/home/u/.config/mca/oauth",
      "--chdir", "/home/u/p",
      "--", "bash", "-c", "ls",
    ]);
  });

  it("keeps the network namespace, and has no seccomp filter, when the network is allowed", () => {
    const args = bubblewrapArgs({ ...POLICY, network: true }, ["true"], 3);
    expect([args.includes("--unshare-net"), args.includes("--seccomp")]).toEqual([false, false]);
  });
});

describe("seatbeltProfile", () => {
  it("denies writes outside the writable places and to the read-only ones, any use of the hidden ones, other processes' information, Launch Services, Apple events and sockets", () => {
    expect(seatbeltProfile(POLICY)).toBe(
      [
        "(version 1)",
        "(allow default)",
        '(deny file-write* (require-not (require-any (subpath "/home/u/p") (subpath "/home/u/.cache") (subpath "/private/tmp") (subpath "/private/var/folders") (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper") (subpath "/dev/fd"))))',
        '(deny file-write* (subpath "/home/u/p/.git"))',
        '(deny file-write* (subpath "/home/u/p/.gitmodules"))',
        '(deny file-write* (subpath "/home/u/p/.mca"))',
        '(deny file-write* (subpath "/home/u/p/vendor/lib"))',
        '(deny file-read* file-write* (subpath "/home/u/.config/mca/oauth"))',
        "(deny process-info*)",
        "(allow process-info* (target same-sandbox))",
        "(deny lsopen)",
        "(deny appleevent-send)",
        "(deny network*)",
        "",
      ].join("\n"),
    );
  });

  it("allows sockets when the network is allowed", () => {
    expect(seatbeltProfile({ ...POLICY, network: true })).not.toContain("network");
  });

  it("escapes quotes and backslashes in paths and refuses a control character", () => {
    const policy = { ...POLICY, writable: [], readOnly: [], hidden: [] };
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

  it("probes with every call's isolation, so a bubblewrap that refuses part of it is found at start", async () => {
    const fake = join(bin(), "bwrap");
    writeFileSync(fake, '#!/bin/sh\nfor arg; do [ "$arg" = --cap-drop ] && { echo "bwrap: Unknown option --cap-drop" >&2; exit 1; }; done\nexit 0\n');
    chmodSync(fake, 0o755);
    expect(await detectSandbox("linux", { PATH: bin() })).toMatchObject({ kind: "none", why: "bubblewrap does not work here (bwrap: Unknown option --cap-drop)" });
  });

  it("gives the seccomp program to the probe on fd 3, and says once when the architecture has none", async () => {
    const fake = join(bin(), "bwrap");
    writeFileSync(fake, `#!/bin/sh\ncase "$*" in *"--seccomp 3"*) [ "$(head -c 8 <&3 | od -An -tx1 | tr -d ' ')" = 2000000004000000 ] || exit 2;; esac\nexit 0\n`);
    chmodSync(fake, 0o755);
    const env = { PATH: `${bin()}:${process.env.PATH ?? ""}` };
    expect(await detectSandbox("linux", env, "x64")).toEqual({ kind: "bubblewrap", program: fake, socketFilter: unixSocketFilter("x64"), notice: null, works: expect.any(Function) });
    expect(await detectSandbox("linux", env, "riscv64")).toEqual({
      kind: "bubblewrap",
      program: fake,
      socketFilter: null,
      works: expect.any(Function),
      notice: "mca: the sandbox has no seccomp filter for the riscv64 architecture: without the network, sandboxed commands can still connect to unix sockets (ssh-agent, docker.sock)",
    });
  });

  it("runs nothing to find bubblewrap: the probe waits for the first use, and runs once", async () => {
    const fake = join(bin(), "bwrap");
    const ran = join(bin(), "probes");
    writeFileSync(fake, `#!/bin/sh\necho x >> ${ran}\nexit 0\n`);
    chmodSync(fake, 0o755);
    const found = findSandbox("linux", { PATH: `${bin()}:${process.env.PATH ?? ""}` });
    const probedAtStart = existsSync(ran);
    if (found.kind !== "bubblewrap") throw new Error("bubblewrap should be found");
    expect([probedAtStart, await found.works(), await found.works(), readFileSync(ran, "utf8")]).toEqual([false, null, null, "x\n"]);
  });

  it("has none on Windows, without a notice", async () => {
    expect(await detectSandbox("win32", {})).toEqual({ kind: "none", why: "mca has no sandbox on win32", notice: null });
  });
});

describeWithBubblewrap("detectSandbox with the real bubblewrap", () => {
  it("finds it on the PATH and checks that it runs a command", () => {
    expect(BUBBLEWRAP).toEqual({ kind: "bubblewrap", program: expect.stringMatching(/\/bwrap$/u), socketFilter: unixSocketFilter(process.arch), notice: null, works: expect.any(Function) });
  });
});

describe("homeInProjectNotice", () => {
  const root = tempProjectPerTest("mca-sandbox-home-");

  it("warns when the project folder is the home folder or holds it", () => {
    const home = join(realpathSync(root()), "home", "u");
    mkdirSync(home, { recursive: true });
    expect([homeInProjectNotice(home, home), homeInProjectNotice(join(root(), "home"), home)]).toEqual([
      `mca: the project folder ${home} holds your home folder: sandboxed commands may write anywhere in it (shell start-up files, other tools' settings) but for mca's own settings and state; start mca in a project's own folder`,
      `mca: the project folder ${join(realpathSync(root()), "home")} holds your home folder: sandboxed commands may write anywhere in it (shell start-up files, other tools' settings) but for mca's own settings and state; start mca in a project's own folder`,
    ]);
  });

  it("says nothing for a project inside the home folder", () => {
    mkdirSync(join(root(), "p"));
    expect(homeInProjectNotice(join(root(), "p"), root())).toBeNull();
  });
});
