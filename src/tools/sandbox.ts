// The operating-system sandbox bash commands run in: the policy as data (what is writable, what stays
// read-only inside the project, whether there is a network) and its two renderings, bubblewrap's argument
// list on Linux and a Seatbelt profile for macOS's sandbox-exec; and which of them works here, found once per run.
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { onlyVariables, printable } from "../kernel/index.js";
import { isInside, readOnlyLayout, type GuardedPlace, type ReadOnlyMount } from "./read-only-places.js";
import { runCommand } from "./command-process.js";
import { hasUnixSocketFilter, unixSocketFilter } from "./seccomp-filter.js";

export interface SandboxPolicy {
  /** The project's real path: writable. */
  readonly project: string;
  /** Further writable folders (real paths, each present), from the user's settings. */
  readonly writable: readonly string[];
  /** Folders on the way to a read-only place, bound over themselves (still writable) before it, so that none can be renamed. */
  readonly pinned: readonly string[];
  /**
   * Places inside the writable folders that stay read-only, bound after them, present or not: what git obeys
   * later (its folders whole, so nothing in them can make the user's own git run a program: a config, a
   * `commondir`, a submodule's or worktree's folder, attributes, a gitlink in the index), `.mca/`, `.husky/`,
   * mca's own settings and state, and the files mca runs outside the sandbox. A mount point cannot be renamed
   * or removed, so none can be swapped. See read-only-places.ts.
   */
  readonly readOnly: readonly ReadOnlyMount[];
  /** Symbolic links on the way to a read-only place that no mount can hold: no command runs while there is one. */
  readonly unguarded: readonly string[];
  /** Folders (real paths, each present) whose contents a command may not even read: mca's own credentials. */
  readonly hidden: readonly string[];
  readonly network: boolean;
}

export interface SandboxOptions {
  readonly network: boolean;
  /** Absolute paths of further writable folders; a missing one is left out. */
  readonly writable: readonly string[];
  /** Absolute paths of folders to hide (an empty one in their place); a missing one is left out. */
  readonly hidden: readonly string[];
  /** What stays read-only where the project or a writable folder holds it. */
  readonly places: readonly GuardedPlace[];
}

/** The policy for one call, read from the disk as it is now (a place made since the last call is bound too). */
export function sandboxPolicy(projectDir: string, options: SandboxOptions): SandboxPolicy {
  const project = realPath(projectDir) ?? resolve(projectDir);
  const writable = presentOnly(options.writable);
  const layout = readOnlyLayout([project, ...writable], options.places);
  return { project, writable, ...layout, hidden: presentOnly(options.hidden), network: options.network };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function presentOnly(paths: readonly string[]): string[] {
  return paths.map(realPath).filter((path): path is string => path !== undefined);
}

/**
 * What every sandbox of bubblewrap's has, the start-up probe's included: the whole file system read-only, a
 * fresh /dev, a private /tmp and /run (the sockets of Docker, D-Bus and the session bus live there), a new
 * PID namespace with its own /proc (no other process's environment in sight), no capabilities (run as
 * root, bubblewrap would keep them all, and with them `mount -o remount,rw /`), and without the network
 * its own network namespace and, with `seccompFd`, the filter that refuses unix sockets (seccomp-filter.ts).
 * `--die-with-parent`: the sandbox ends when mca's child (bubblewrap itself) is killed, and with its PID
 * namespace everything the command started. No `--new-session`: the command already runs in a session of
 * its own without a terminal (stdin is ignored, stdout and stderr are pipes), so there is no terminal to
 * push input into (TIOCSTI).
 */
function isolationArgs(network: boolean, seccompFd: number | null): string[] {
  return [
    "--ro-bind", "/", "/",
    "--dev", "/dev",
    "--unshare-pid", "--proc", "/proc",
    "--tmpfs", "/tmp",
    "--tmpfs", "/run",
    // The resolver's configuration may live under /run (systemd-resolved); a network call needs it.
    "--ro-bind-try", "/run/systemd/resolve", "/run/systemd/resolve",
    "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
    "--cap-drop", "ALL",
    ...(network ? [] : ["--unshare-net", ...(seccompFd === null ? [] : ["--seccomp", String(seccompFd)])]),
    "--die-with-parent",
  ];
}

/**
 * bubblewrap's arguments for running `command` under the policy: the isolation above, the writable places
 * bound over it and the pinned folders over themselves, then the read-only places inside them (an absent one
 * as an empty placeholder, which bubblewrap makes on the disk to mount on: removePlaceholders takes it away
 * after the command), then an empty folder over each hidden one.
 * `seccompFd`: the descriptor the command's spawn gives bubblewrap the seccomp program on.
 */
export function bubblewrapArgs(policy: SandboxPolicy, command: readonly string[], seccompFd: number | null = null, forwarder: ProxyForwarder | null = null): string[] {
  return [
    ...isolationArgs(policy.network, seccompFd),
    ...[...policy.writable, policy.project, ...policy.pinned].flatMap((path) => ["--bind", path, path]),
    ...policy.readOnly.flatMap((mount) => {
      if (mount.kind === "bind") return ["--ro-bind", mount.path, mount.path];
      // An empty read-only file reads as nothing; an empty read-only folder holds nothing and takes nothing.
      return mount.shape === "file" ? ["--ro-bind", "/dev/null", mount.path] : ["--tmpfs", mount.path, "--remount-ro", mount.path];
    }),
    ...policy.hidden.flatMap((path) => ["--tmpfs", path]),
    // In the sandbox's own /run, so that it is there wherever mca is installed (a copy under /tmp would be hidden).
    ...(forwarder === null ? [] : ["--ro-bind", forwarder.script, FORWARDER_INSIDE]),
    "--chdir", policy.project,
    "--",
    ...(forwarder === null ? command : [forwarder.node, FORWARDER_INSIDE, String(forwarder.channelFd), "--", ...command]),
  ];
}

/**
 * The program that runs before the command in a sandbox without the network and carries its HTTP(S) to mca's
 * proxy over descriptor `channelFd` (network-forwarder.cjs): Node (mca's own) and the script's path outside.
 */
export interface ProxyForwarder {
  readonly node: string;
  readonly script: string;
  readonly channelFd: number;
}

/** Where the forwarder's script is bound inside the sandbox. */
const FORWARDER_INSIDE = "/run/mca/network-forwarder.cjs";
/** The descriptor the forwarder reaches mca's proxy on: the spawn's fifth stdio entry. */
const CHANNEL_FD = 4;

/**
 * The forwarder shipped with mca: beside this module in the source tree, beside the bundle in dist/
 * (scripts/bundle.mjs copies it there); undefined when it is not found, and commands then have no network.
 */
export function findForwarder(moduleUrl: string = import.meta.url): ProxyForwarder | undefined {
  const script = fileURLToPath(new URL("./network-forwarder.cjs", moduleUrl));
  return isFile(script) ? { node: process.execPath, script, channelFd: CHANNEL_FD } : undefined;
}

/**
 * The same policy for macOS's sandbox-exec (Seatbelt; the last matching rule wins): everything allowed
 * but writes outside the writable places and the temporary folders, writes to the read-only places (a
 * git folder's own entry included, so it cannot be swapped), any use of the hidden folders, other
 * processes' information (their environment is in it), opening files or apps through Launch Services and
 * sending Apple events (both make another program, outside the sandbox, act), and without the network
 * every socket (the local ones of daemons too, as /run is hidden on Linux). Written for macOS; it cannot
 * run on this Linux.
 */
export function seatbeltProfile(policy: SandboxPolicy): string {
  const writable = [policy.project, ...policy.writable].map((path) => `(subpath ${sbplString(path)})`);
  const lines = [
    "(version 1)",
    "(allow default)",
    `(deny file-write* (require-not (require-any ${[...writable, ...SEATBELT_ALWAYS_WRITABLE].join(" ")})))`,
    ...policy.readOnly.map(({ path }) => `(deny file-write* (subpath ${sbplString(path)}))`),
    ...policy.hidden.map((path) => `(deny file-read* file-write* (subpath ${sbplString(path)}))`),
    // Only forms known from working profiles (Chrome's, Codex's): a profile that does not parse runs nothing.
    "(deny process-info*)",
    "(allow process-info* (target same-sandbox))",
    "(deny lsopen)",
    "(deny appleevent-send)",
  ];
  if (!policy.network) lines.push("(deny network*)");
  return `${lines.join("\n")}\n`;
}

/** Where any process writes on macOS: the temporary folders (`/tmp` is `/private/tmp`) and the harmless devices. */
const SEATBELT_ALWAYS_WRITABLE = [
  '(subpath "/private/tmp")',
  '(subpath "/private/var/folders")',
  '(literal "/dev/null")',
  '(literal "/dev/zero")',
  '(literal "/dev/dtracehelper")',
  '(subpath "/dev/fd")',
];

/** A string in the profile's language: quoted, with `\` and `"` escaped; a path with a control character is refused. */
function sbplString(path: string): string {
  if (/[\u0000-\u001f\u007f]/u.test(path)) throw new Error(`a sandbox path has a control character: ${JSON.stringify(path)}`);
  return `"${path.replace(/[\\"]/gu, (char) => `\\${char}`)}"`;
}

/**
 * Which sandbox this run has; `none` says why, and `notice` is the one line to show at start, if any.
 * `socketFilter`: the seccomp program for commands without the network; null on an architecture it has none for.
 */
export type SandboxAvailability =
  | {
      readonly kind: "bubblewrap";
      readonly program: string;
      readonly socketFilter: Buffer | null;
      readonly notice: string | null;
      /** null when a sandbox isolated as every call's runs `true`, else why not; probed once, on first use. */
      readonly works: () => Promise<string | null>;
    }
  | { readonly kind: "seatbelt"; readonly program: string }
  | { readonly kind: "none"; readonly why: string; readonly notice: string | null };

export const SEATBELT_PROGRAM = "/usr/bin/sandbox-exec";
/** The descriptor bubblewrap reads the seccomp program from: the spawn's fourth stdio entry. */
export const SECCOMP_FD = 3;
const PROBE_TIMEOUT_MS = 5_000;
const WITHOUT_SANDBOX = "bash commands run without a sandbox, and allow rules cover only read-only commands";

/**
 * Finds the sandbox of this platform without running anything: start-up pays no process for it. Whether
 * bubblewrap really works (user namespaces can be turned off) is probed on first use, by `works`.
 */
export function findSandbox(platform: NodeJS.Platform, env: Readonly<Record<string, string | undefined>>, arch: string = process.arch): SandboxAvailability {
  if (platform === "darwin") {
    return isExecutable(SEATBELT_PROGRAM)
      ? { kind: "seatbelt", program: SEATBELT_PROGRAM }
      : { kind: "none", why: `${SEATBELT_PROGRAM} is missing`, notice: `mca: ${SEATBELT_PROGRAM} is missing: ${WITHOUT_SANDBOX}` };
  }
  if (platform !== "linux") return { kind: "none", why: `mca has no sandbox on ${platform}`, notice: null };
  const program = findProgram("bwrap", env.PATH ?? "");
  if (program === undefined) {
    return {
      kind: "none",
      why: "bubblewrap is not installed",
      notice: `mca: bubblewrap is not installed: ${WITHOUT_SANDBOX}; install the package bubblewrap (e.g. \`sudo apt-get install bubblewrap\`)`,
    };
  }
  let probed: Promise<string | null> | undefined;
  const notice = hasUnixSocketFilter(arch)
    ? null
    : `mca: the sandbox has no seccomp filter for the ${printable(arch)} architecture: without the network, sandboxed commands can still connect to unix sockets (ssh-agent, docker.sock)`;
  // Built on first use: a run that never runs a command does not pay for it at start.
  let socketFilter: Buffer | null | undefined;
  const filter = (): Buffer | null => (socketFilter === undefined ? (socketFilter = unixSocketFilter(arch)) : socketFilter);
  return {
    kind: "bubblewrap",
    program,
    get socketFilter() {
      return filter();
    },
    notice,
    works: () => (probed ??= probe(program, filter(), env)),
  };
}

/** The sandbox found, and checked at once that it works (tests and benchmarks, which want the answer before they start). */
export async function detectSandbox(platform: NodeJS.Platform, env: Readonly<Record<string, string | undefined>>, arch: string = process.arch): Promise<SandboxAvailability> {
  const found = findSandbox(platform, env, arch);
  if (found.kind !== "bubblewrap") return found;
  const failure = await found.works();
  return failure === null ? found : notWorking(found.program, failure);
}

/** What a bubblewrap that cannot make a sandbox here leaves: no sandbox, said once. */
export function notWorking(program: string, failure: string): SandboxAvailability {
  return { kind: "none", why: `bubblewrap does not work here (${failure})`, notice: `mca: bubblewrap (${program}) does not work here (${failure}): ${WITHOUT_SANDBOX}` };
}

/**
 * null when a sandbox isolated as every call's is (no network, the seccomp filter) ran `true`; else what
 * went wrong, on one printable line. bubblewrap can be installed and still not work (user namespaces
 * turned off, a namespace or seccomp refused), and that is found here, once, rather than on every call.
 */
async function probe(program: string, socketFilter: Buffer | null, env: Readonly<Record<string, string | undefined>>): Promise<string | null> {
  const outcome = await runCommand({
    program,
    args: [...isolationArgs(false, socketFilter === null ? null : SECCOMP_FD), "--", "true"],
    env: onlyVariables(env, ["PATH"]),
    cwd: "/",
    timeoutMs: PROBE_TIMEOUT_MS,
    killGraceMs: 0,
    signal: new AbortController().signal,
    ...(socketFilter === null ? {} : { fd3: socketFilter }),
  });
  switch (outcome.kind) {
    case "exited":
      if (outcome.exitCode === 0) return null;
      return printable(outcome.output.split("\n").find((line) => line.trim() !== "") ?? (outcome.signal === null ? `exit code ${outcome.exitCode ?? "?"}` : `killed by ${outcome.signal}`));
    case "timed_out":
    case "aborted":
      return `no answer within ${PROBE_TIMEOUT_MS} ms`;
    case "spawn_failed":
      return printable(outcome.message);
    default: {
      const unexpected: never = outcome;
      return unexpected;
    }
  }
}

/**
 * One line for the start when the project folder is the home folder or holds it: everything in the home
 * is then writable to sandboxed commands, but for mca's own settings and state and the git folder.
 */
export function homeInProjectNotice(projectDir: string, home: string): string | null {
  const project = realPath(projectDir) ?? resolve(projectDir);
  if (!isInside(project, realPath(home) ?? resolve(home))) return null;
  return (
    `mca: the project folder ${printable(project)} holds your home folder: sandboxed commands may write anywhere in it ` +
    "(shell start-up files, other tools' settings) but for mca's own settings and state; start mca in a project's own folder"
  );
}

function findProgram(name: string, path: string): string | undefined {
  return path
    .split(delimiter)
    .filter((dir) => isAbsolute(dir))
    .map((dir) => join(dir, name))
    .find(isExecutable);
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return isFile(file);
  } catch {
    return false;
  }
}

function realPath(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}
