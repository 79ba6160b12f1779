// The operating-system sandbox bash commands run in: the policy as data (what is writable, what stays
// read-only inside the project, whether there is a network) and its two renderings, bubblewrap's argument
// list on Linux and a Seatbelt profile for macOS's sandbox-exec; and which of them works here, found once per run.
import { spawn } from "node:child_process";
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ALWAYS_PROTECTED, type ProtectedFolder } from "../kernel/index.js";

export interface SandboxPolicy {
  /** The project's real path: writable. */
  readonly project: string;
  /** Further writable folders (real paths, each present), from the user's settings. */
  readonly writable: readonly string[];
  /**
   * Git folders inside the project: git writes its index, objects and refs there, so they stay writable,
   * but each is held in place (a mount point cannot be renamed or removed), so a command cannot swap in
   * another one with a config of its own.
   */
  readonly pinned: readonly string[];
  /** Places inside the writable folders that stay read-only, bound after them. */
  readonly readOnly: readonly ReadOnlyPlace[];
  /** Folders (real paths, each present) whose contents a command may not even read: mca's own credentials. */
  readonly hidden: readonly string[];
  readonly network: boolean;
}

/**
 * `present: false`: not there now. bubblewrap can only bind what exists, so a missing hooks folder (where
 * git would run what a command put there) becomes an empty read-only folder, and any other missing place
 * is left alone: what it would hold acts only through a file that is read-only (a hooks path set in git's
 * config) or through a trust that is kept by content hash (`.mca/`). Seatbelt denies by path, present or not.
 */
export interface ReadOnlyPlace {
  readonly path: string;
  readonly present: boolean;
  readonly hooks: boolean;
}

/** What a git folder keeps read-only: what makes git run programs (config, hooks) and the submodules' own git folders. */
const GIT_FOLDER_READ_ONLY = ["config", "config.worktree", "hooks", "modules"];

export interface SandboxOptions {
  readonly network: boolean;
  /** Absolute paths of further writable folders; a missing one is left out. */
  readonly writable: readonly string[];
  /** Absolute paths of folders to hide (an empty one in their place); a missing one is left out. */
  readonly hidden: readonly string[];
}

/** The policy for one call, read from the disk as it is now (a hooks folder made since the last call is bound too). */
export function sandboxPolicy(projectDir: string, folders: readonly ProtectedFolder[], options: SandboxOptions): SandboxPolicy {
  const project = realPath(projectDir) ?? resolve(projectDir);
  const writable = presentOnly(options.writable);
  const pinned: string[] = [];
  const readOnly: ReadOnlyPlace[] = [];
  const add = (path: string, hooks: boolean): void => {
    const real = realPath(path);
    const place = { path: real ?? path, present: real !== undefined, hooks };
    if (isInside(project, place.path) && !readOnly.some((known) => known.path === place.path)) readOnly.push(place);
  };
  for (const folder of folders) {
    const path = resolve(project, folder.path);
    const real = realPath(path);
    if (real !== undefined && isInside(project, real) && isGitFolder(real)) {
      if (!pinned.includes(real)) pinned.push(real);
      for (const name of GIT_FOLDER_READ_ONLY) add(join(real, name), name === "hooks");
    } else {
      // Folders every project protects may be absent; any other (a hooks folder, a git folder a `.git` file names) is where git looks.
      add(path, !ALWAYS_PROTECTED.some((always) => always.path === folder.path));
    }
  }
  return { project, writable, pinned, readOnly, hidden: presentOnly(options.hidden), network: options.network };
}

function presentOnly(paths: readonly string[]): string[] {
  return paths.map(realPath).filter((path): path is string => path !== undefined);
}

/**
 * bubblewrap's arguments for running `command` under the policy: the whole file system read-only, a
 * fresh /dev, a private /tmp and /run (the sockets of Docker, D-Bus and the session bus live there), a new
 * PID namespace with its own /proc (no other process's environment in sight), the writable places bound
 * over them, then the read-only places inside, then an empty folder over each hidden one. `--die-with-parent`: the sandbox ends when mca's child
 * (bubblewrap itself) is killed, and with its PID namespace everything the command started.
 * No `--new-session`: the command already runs in a session of its own without a terminal (stdin is
 * ignored, stdout and stderr are pipes), so there is no terminal to push input into (TIOCSTI).
 */
export function bubblewrapArgs(policy: SandboxPolicy, command: readonly string[]): string[] {
  return [
    "--ro-bind", "/", "/",
    "--dev", "/dev",
    "--unshare-pid", "--proc", "/proc",
    "--tmpfs", "/tmp",
    "--tmpfs", "/run",
    // The resolver's configuration may live under /run (systemd-resolved); a network call needs it.
    "--ro-bind-try", "/run/systemd/resolve", "/run/systemd/resolve",
    "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
    ...(policy.network ? [] : ["--unshare-net"]),
    "--die-with-parent",
    ...[...policy.writable, policy.project, ...policy.pinned].flatMap((path) => ["--bind", path, path]),
    ...policy.readOnly.flatMap(({ path, present, hooks }) => {
      if (present) return ["--ro-bind", path, path];
      return hooks ? ["--tmpfs", path, "--remount-ro", path] : [];
    }),
    ...policy.hidden.flatMap((path) => ["--tmpfs", path]),
    "--chdir", policy.project,
    "--",
    ...command,
  ];
}

/**
 * The same policy for macOS's sandbox-exec (Seatbelt; the last matching rule wins): everything allowed
 * but writes outside the writable places and the temporary folders, writes to the read-only places (and
 * to a git folder's own entry, so it cannot be swapped), any use of the hidden folders, other processes'
 * information (their environment is in it), and without the network every socket (the local ones of
 * daemons too, as /run is hidden on Linux). Written for macOS; it cannot run on this Linux.
 */
export function seatbeltProfile(policy: SandboxPolicy): string {
  const writable = [policy.project, ...policy.writable].map((path) => `(subpath ${sbplString(path)})`);
  const lines = [
    "(version 1)",
    "(allow default)",
    `(deny file-write* (require-not (require-any ${[...writable, ...SEATBELT_ALWAYS_WRITABLE].join(" ")})))`,
    ...policy.pinned.map((path) => `(deny file-write* (literal ${sbplString(path)}))`),
    ...policy.readOnly.map(({ path }) => `(deny file-write* (subpath ${sbplString(path)}))`),
    ...policy.hidden.map((path) => `(deny file-read* file-write* (subpath ${sbplString(path)}))`),
    // Only forms known from working profiles (Chrome's, Codex's): a profile that does not parse runs nothing.
    "(deny process-info*)",
    "(allow process-info* (target same-sandbox))",
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

/** Which sandbox this run has; `none` says why, and `notice` is the one line to show at start, if any. */
export type SandboxAvailability =
  | { readonly kind: "bubblewrap"; readonly program: string }
  | { readonly kind: "seatbelt"; readonly program: string }
  | { readonly kind: "none"; readonly why: string; readonly notice: string | null };

export const SEATBELT_PROGRAM = "/usr/bin/sandbox-exec";
const PROBE_TIMEOUT_MS = 5_000;
const WITHOUT_SANDBOX = "bash commands run without a sandbox, and allow rules cover only read-only commands";

/** The smallest sandbox of the policy's kind, run once: bubblewrap can be installed and still not work (user namespaces turned off). */
const PROBE_ARGS = ["--ro-bind", "/", "/", "--dev", "/dev", "--unshare-pid", "--proc", "/proc", "--unshare-net", "--tmpfs", "/tmp", "true"];

/** Finds the sandbox of this platform and checks that it works; called once per run. */
export async function detectSandbox(platform: NodeJS.Platform, env: Readonly<Record<string, string | undefined>>): Promise<SandboxAvailability> {
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
  const failure = await probe(program);
  if (failure === null) return { kind: "bubblewrap", program };
  return { kind: "none", why: `bubblewrap does not work here (${failure})`, notice: `mca: bubblewrap (${program}) does not work here (${failure}): ${WITHOUT_SANDBOX}` };
}

/** null when the smallest sandbox ran `true`; else what went wrong, on one printable line. */
function probe(program: string): Promise<string | null> {
  return new Promise((settle) => {
    const child = spawn(program, PROBE_ARGS, { stdio: ["ignore", "ignore", "pipe"], timeout: PROBE_TIMEOUT_MS });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 1_000) stderr += chunk.toString("utf8");
    });
    child.on("error", (error) => settle(printable(error.message)));
    child.on("close", (code, signal) => {
      if (code === 0) settle(null);
      else settle(printable(stderr.split("\n").find((line) => line.trim() !== "") ?? (signal === null ? `exit code ${code ?? "?"}` : `killed by ${signal}`)));
    });
  });
}

function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/gu, "?").trim().slice(0, 200);
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
    return statSync(file).isFile();
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

/** A folder git uses as its own: it holds HEAD. */
function isGitFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory() && statSync(join(path, "HEAD")).isFile();
  } catch {
    return false;
  }
}

function isInside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
