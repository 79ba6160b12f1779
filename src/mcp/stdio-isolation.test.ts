import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, chmodSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "../kernel/test-support/wait-for.js";
import { isJsonObject, type JsonRpcMessage } from "./jsonrpc.js";
import { mountServers } from "./mount-servers.js";
import { commandProblem, pidNamespaceLauncher, type Bubblewrap } from "./stdio-isolation.js";
import { createStdioTransport, type StdioLauncher, type StdioTransport } from "./stdio-transport.js";

const require = createRequire(import.meta.url);
const READER = fileURLToPath(new URL("./test-support/environ-reader-server.mjs", import.meta.url));
const NOTES_SERVER = fileURLToPath(new URL("../../servers/notes.ts", import.meta.url));
const EVERYTHING_SCRIPT = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
const TSX_LOADER = pathToFileURL(require.resolve("tsx")).href;
const BWRAP = "/usr/bin/bwrap";
const hasBubblewrap = process.platform === "linux" && commandProblem({ command: BWRAP, args: [], env: {}, cwd: "/" }) === null;
/** bubblewrap's CAP_SYS_ADMIN and CAP_SYS_PTRACE bits in /proc's CapEff. */
const SYS_ADMIN_BIT = 1n << 21n;
const SYS_PTRACE_BIT = 1n << 19n;

const opened: Array<{ close(): Promise<void> }> = [];
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((item) => item.close()));
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function installed(program = BWRAP): () => Bubblewrap {
  return () => ({ kind: "installed", program });
}

function launcher(findBubblewrap: () => Bubblewrap, notices: string[] = []): StdioLauncher {
  return pidNamespaceLauncher({ findBubblewrap, notify: (text) => notices.push(text) });
}

/** A started transport on the environ reader, with each answer kept by its id. */
async function startReader(launch: StdioLauncher | undefined, ...flags: string[]): Promise<{ transport: StdioTransport; call(name: string): Promise<string> }> {
  const answers = new Map<string | number, JsonRpcMessage>();
  const transport = createStdioTransport({
    label: "reader",
    command: process.execPath,
    args: [READER, ...flags],
    env: { PATH: process.env.PATH ?? "" },
    ...(launch === undefined ? {} : { launcher: launch }),
  });
  opened.push(transport);
  await transport.start({ onMessage: (message) => "id" in message && message.id !== null && answers.set(message.id, message), onClose: () => undefined });
  let nextId = 0;
  return {
    transport,
    async call(name) {
      const id = (nextId += 1);
      await transport.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } });
      await waitFor(`the answer to ${name}`, () => answers.has(id));
      const answer = answers.get(id);
      const first = answer !== undefined && "result" in answer && Array.isArray(answer.result.content) ? answer.result.content[0] : undefined;
      if (!isJsonObject(first) || typeof first.text !== "string") throw new Error(`no text in ${JSON.stringify(answer)}`);
      return first.text;
    },
  };
}

/** The host's processes whose command line holds `marker`. */
function processesWith(marker: string): string[] {
  return readdirSync("/proc").filter((name) => {
    if (!/^\d+$/.test(name)) return false;
    try {
      return readFileSync(`/proc/${name}/cmdline`, "utf8").includes(marker);
    } catch {
      return false;
    }
  });
}

function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "mca-isolation-"));
  folders.push(folder);
  return folder;
}

describe.skipIf(!hasBubblewrap)("pidNamespaceLauncher, where bubblewrap works", () => {
  it("runs a server in a PID namespace of its own: it sees no process but bubblewrap's, and holds no capability to look further", async () => {
    const reader = await startReader(launcher(installed()));
    const seen = JSON.parse(await reader.call("read_environ"));
    expect({ parent: seen.parent.pid, processesSeen: seen.processesSeen, withKey: seen.withKey }).toEqual({ parent: 1, processesSeen: 1, withKey: [] });
    const capabilities = BigInt(`0x${seen.capabilities}`);
    expect({ sysAdmin: capabilities & SYS_ADMIN_BIT, sysPtrace: capabilities & SYS_PTRACE_BIT }).toEqual({ sysAdmin: 0n, sysPtrace: 0n });
  });

  it("ends the server and everything it started on close, a grandchild in a session of its own that ignores SIGTERM included", async () => {
    const reader = await startReader(launcher(installed()), "--ignore-term");
    const marker = await reader.call("grandchild");
    expect(processesWith(marker)).toHaveLength(1);
    await reader.transport.close();
    await waitFor("the grandchild to end", () => processesWith(marker).length === 0);
  });

  it("refuses a command it cannot find with the reason a plain spawn gives, naming the command and not bubblewrap", async () => {
    const transport = createStdioTransport({ label: "gone", command: "no-such-server-anywhere", env: { PATH: "/usr/bin:/bin" }, launcher: launcher(installed()) });
    opened.push(transport);
    await expect(transport.start({ onMessage: () => undefined, onClose: () => undefined })).rejects.toMatchObject({
      kind: "unreachable",
      message: "cannot start `no-such-server-anywhere`: command not found (ENOENT)",
    });
  });

  it("looks for bubblewrap and probes it once, however many servers start", async () => {
    let looked = 0;
    const launch = launcher(() => {
      looked += 1;
      return { kind: "installed", program: BWRAP };
    });
    await Promise.all([startReader(launch), startReader(launch), startReader(launch)]);
    expect(looked).toBe(1);
  });

  it("runs the notes demo server and server-everything as they run without it", async () => {
    const servers = [
      { alias: "notes", command: process.execPath, args: ["--import", TSX_LOADER, NOTES_SERVER] },
      { alias: "everything", command: process.execPath, args: [EVERYTHING_SCRIPT, "stdio"] },
    ].map((server) => ({ ...server, transport: "stdio" as const, env: {}, enabled: true }));
    const deps = { clientVersion: "0.0.0-test", baseEnv: { PATH: process.env.PATH }, onWarning: () => undefined, stdioLauncher: launcher(installed()) };
    const mounted = await mountServers({ file: join(tmpdir(), "mcp.config.json"), servers }, deps);
    opened.push(mounted);
    expect(mounted.statuses().map((status) => [status.alias, status.state])).toEqual([
      ["notes", "connected"],
      ["everything", "connected"],
    ]);
    const context = { signal: new AbortController().signal };
    const search = mounted.tools.find((tool) => tool.source === "notes" && tool.originalName === "search");
    const echo = mounted.tools.find((tool) => tool.source === "everything" && tool.originalName === "echo");
    expect((await search?.run({ query: "shopping" }, context))?.isError).toBe(false);
    expect(await echo?.run({ message: "through bubblewrap" }, context)).toMatchObject({ isError: false, text: expect.stringContaining("through bubblewrap") });
  });
});

describe("pidNamespaceLauncher, where bubblewrap is missing or does not work", () => {
  it("spawns servers as they are and says so once when bubblewrap is not installed", async () => {
    const notices: string[] = [];
    const launch = launcher(() => ({ kind: "missing" }), notices);
    const [first] = await Promise.all([startReader(launch), startReader(launch)]);
    expect(JSON.parse(await first.call("read_environ")).parent.pid).toBe(process.pid);
    expect(notices).toEqual([
      "mca: bubblewrap is not installed: stdio MCP servers run without a PID namespace of their own, so each can read mca's environment (the API key included) through /proc; install the package bubblewrap",
    ]);
  });

  it("spawns servers as they are and says why once when bubblewrap cannot make a namespace here", async () => {
    const bin = tempFolder();
    const fake = join(bin, "bwrap");
    writeFileSync(fake, "#!/bin/sh\necho 'bwrap: No permissions to create a new namespace' >&2\nexit 1\n");
    chmodSync(fake, 0o755);
    const notices: string[] = [];
    const reader = await startReader(launcher(installed(fake), notices));
    expect(JSON.parse(await reader.call("read_environ")).parent.pid).toBe(process.pid);
    expect(notices).toEqual([
      `mca: bubblewrap (${fake}) does not work here (bwrap: No permissions to create a new namespace): stdio MCP servers run without a PID namespace of their own, so each can read mca's environment (the API key included) through /proc`,
    ]);
  });

  it("says nothing where mca has no PID namespace to offer", async () => {
    const notices: string[] = [];
    const reader = await startReader(launcher(() => ({ kind: "unsupported" }), notices));
    expect(JSON.parse(await reader.call("read_environ")).parent.pid).toBe(process.pid);
    expect(notices).toEqual([]);
  });
});

describe("commandProblem", () => {
  it("finds a command as execvp does: a path from the working folder, a bare name on the PATH", () => {
    const folder = tempFolder();
    mkdirSync(join(folder, "bin"));
    writeFileSync(join(folder, "bin", "server"), "#!/bin/sh\n", { mode: 0o755 });
    writeFileSync(join(folder, "bin", "plain"), "not a program\n", { mode: 0o644 });
    writeFileSync(join(folder, "tool"), "#!/bin/sh\n", { mode: 0o755 });
    const problem = (command: string, PATH?: string): string | null => commandProblem({ command, args: [], env: PATH === undefined ? {} : { PATH }, cwd: folder });
    expect({
      relative: problem("./bin/server"),
      absolute: problem(join(folder, "bin", "server")),
      onPath: problem("server", `/nowhere:${join(folder, "bin")}`),
      relativePathEntry: problem("server", "bin"),
      emptyPathEntry: problem("tool", ":/nowhere"),
      missing: problem("server", "/nowhere"),
      notExecutable: problem("plain", join(folder, "bin")),
      aFolder: problem("./bin"),
      defaultPath: problem("sh"),
    }).toEqual({
      relative: null,
      absolute: null,
      onPath: null,
      relativePathEntry: null,
      emptyPathEntry: null,
      missing: "ENOENT",
      notExecutable: "EACCES",
      aFolder: "EACCES",
      defaultPath: null,
    });
  });
});
