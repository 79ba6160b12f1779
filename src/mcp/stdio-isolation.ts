// Stdio servers in a PID namespace of their own: bubblewrap starts each with a fresh /proc, so no server can
// see mca (or any other process of the user) to read its environment (the API key) or its memory; the file
// system, /dev and the network stay as the user has them. Where bubblewrap is missing or does not work,
// servers are spawned as they are, and that is said once.
import { spawn } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import { printable } from "../kernel/index.js";
import type { LaunchPlan, LaunchRequest, StdioLauncher } from "./stdio-transport.js";

/** Where bubblewrap is: its path; missing on Linux (said once); or unsupported, where mca has no PID namespace to offer (said nowhere). */
export type Bubblewrap = { readonly kind: "installed"; readonly program: string } | { readonly kind: "missing" } | { readonly kind: "unsupported" };

export interface PidNamespaceDeps {
  /** Asked once, when the first stdio server starts: a run without one pays nothing for it. */
  readonly findBubblewrap: () => Bubblewrap | Promise<Bubblewrap>;
  /** Told once, when the servers run without a PID namespace where one was wanted. */
  readonly notify: (text: string) => void;
}

const PROBE_TIMEOUT_MS = 5_000;
const UNPROTECTED = "stdio MCP servers run without a PID namespace of their own, so each can read mca's environment (the API key included) through /proc";

/**
 * Root keeps its capabilities in the namespace (its files stay as it has them), but for these: without
 * them it cannot unmount the fresh /proc (bubblewrap's own binding of the old one lies under it), mount
 * another view, enter a namespace, trace, read raw memory or devices, or load a kernel module or program.
 * As another user the server has no capabilities at all, and these change nothing.
 */
const DROPPED_CAPABILITIES = ["CAP_SYS_ADMIN", "CAP_SYS_PTRACE", "CAP_SYS_RAWIO", "CAP_SYS_MODULE", "CAP_BPF", "CAP_PERFMON"];

/**
 * bubblewrap's arguments for one server: the whole file system bound as it is, devices included (`--dev-bind`),
 * a new PID namespace with its own /proc, and `--die-with-parent`, so that the namespace, and everything the
 * server started in it, ends when bubblewrap or mca does (a process that left the server's process group
 * too). The working folder, the environment and the three pipes pass through as they are.
 */
function bubblewrapServerArgs(command: string, args: readonly string[]): string[] {
  return [
    "--dev-bind", "/", "/",
    "--unshare-pid", "--proc", "/proc",
    ...DROPPED_CAPABILITIES.flatMap((capability) => ["--cap-drop", capability]),
    "--die-with-parent",
    "--",
    command,
    ...args,
  ];
}

/**
 * Runs each server in a PID namespace of its own where bubblewrap works. Whether it does is found once, when
 * the first server starts, by running bubblewrap itself (`--version`) in the same namespace: a few
 * milliseconds, and no dependence on what else is installed.
 */
export function pidNamespaceLauncher(deps: PidNamespaceDeps): StdioLauncher {
  let settled: Promise<string | null> | undefined;
  const program = (): Promise<string | null> => (settled ??= settle(deps));
  return async (request: LaunchRequest): Promise<LaunchPlan> => {
    const bubblewrap = await program();
    if (bubblewrap === null) return { kind: "spawn", program: request.command, args: request.args };
    // bubblewrap looks the command up as a spawn would, but fails later and in its own words: looked up
    // first here, a missing command is reported as without bubblewrap.
    const missing = commandProblem(request);
    if (missing !== null) return { kind: "cannot start", code: missing };
    return { kind: "spawn", program: bubblewrap, args: bubblewrapServerArgs(request.command, request.args) };
  };
}

/** bubblewrap's path when it works here; null (said once) when servers run as they are. */
async function settle(deps: PidNamespaceDeps): Promise<string | null> {
  const found = await deps.findBubblewrap();
  switch (found.kind) {
    case "unsupported":
      return null;
    case "missing":
      deps.notify(`mca: bubblewrap is not installed: ${UNPROTECTED}; install the package bubblewrap`);
      return null;
    case "installed": {
      const failure = await probe(found.program);
      if (failure === null) return found.program;
      deps.notify(`mca: bubblewrap (${printable(found.program)}) does not work here (${failure}): ${UNPROTECTED}`);
      return null;
    }
    default: {
      const unknown: never = found;
      throw new Error(`unknown bubblewrap ${JSON.stringify(unknown)}`);
    }
  }
}

/** null when bubblewrap ran itself in a namespace as a server's; else why not, on one printable line. */
function probe(program: string): Promise<string | null> {
  return new Promise((done) => {
    let stderr = "";
    const child = spawn(program, bubblewrapServerArgs(program, ["--version"]), { cwd: "/", env: {}, stdio: ["ignore", "ignore", "pipe"] });
    const timer = setTimeout(() => child.kill("SIGKILL"), PROBE_TIMEOUT_MS);
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString("utf8");
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      done(printable(error.message));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return done(null);
      const said = stderr.split("\n").find((line) => line.trim() !== "");
      if (said !== undefined) return done(printable(said));
      done(signal === "SIGKILL" ? `no answer within ${PROBE_TIMEOUT_MS} ms` : signal === null ? `exit code ${code ?? "?"}` : `killed by ${signal}`);
    });
  });
}

/**
 * Whether the command can be started, found as execvp finds it: a path with a slash from the working folder,
 * a bare name in each folder of the server's PATH (an empty entry is the working folder).
 */
export function commandProblem({ command, env, cwd }: LaunchRequest): "ENOENT" | "EACCES" | null {
  const base = cwd ?? process.cwd();
  if (command.includes("/")) return fileProblem(resolve(base, command));
  let problem: "ENOENT" | "EACCES" = "ENOENT";
  for (const dir of (env.PATH ?? "/usr/bin:/bin").split(delimiter)) {
    const found = fileProblem(join(dir === "" ? base : isAbsolute(dir) ? dir : resolve(base, dir), command));
    if (found === null) return null;
    if (found === "EACCES") problem = found;
  }
  return problem;
}

function fileProblem(path: string): "ENOENT" | "EACCES" | null {
  try {
    if (!statSync(path).isFile()) return "EACCES";
  } catch {
    return "ENOENT";
  }
  try {
    accessSync(path, constants.X_OK);
    return null;
  } catch {
    return "EACCES";
  }
}
