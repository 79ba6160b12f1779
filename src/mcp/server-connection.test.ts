import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { isJsonObject } from "./jsonrpc.js";
import { createLineFramer } from "./line-framer.js";
import { ServerConnection, type ConnectionDeps } from "./server-connection.js";
import type { McpServerConfig } from "./server-spec.js";
import { legacyStdioServer } from "./test-support/legacy-stdio-server.js";
import { recordingTransport } from "./test-support/received-by-server.js";
import { summary } from "./test-support/mcp-rejection.js";
import { startScriptedHttpServer } from "./test-support/scripted-http-server.js";
import { processesNaming, scriptedStdioServer, waitUntilGone } from "./test-support/scripted-stdio-server.js";

const deps: ConnectionDeps = { clientVersion: "0.15.0", configFile: "/tmp/mcp.config.json", baseEnv: { PATH: process.env.PATH }, onWarning: () => undefined };
const opened: ServerConnection[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((connection) => connection.close()));
});

function stdio(
  alias: string,
  command: { command: string; args: string[] },
  extra: { maxLineBytes?: number; env?: Record<string, string>; inheritEnv?: boolean; cwd?: string; startupTimeoutMs?: number } = {},
): McpServerConfig {
  return { alias, transport: "stdio", env: {}, enabled: true, ...command, ...extra };
}

function open(spec: McpServerConfig, extraDeps: Partial<ConnectionDeps> = {}): ServerConnection {
  const connection = new ServerConnection(spec, { ...deps, ...extraDeps });
  opened.push(connection);
  return connection;
}

describe("ServerConnection", () => {
  it("says when a server that was up goes down, at once and once", async () => {
    const warnings: string[] = [];
    const connection = open(stdio("flaky", scriptedStdioServer()), { onWarning: (message) => warnings.push(message) });
    await connection.connect();
    await connection.callTool("exit", { code: 3, stderr: "going down" }, {});
    expect(warnings.filter((warning) => warning.includes("disconnected"))).toEqual([
      "flaky: disconnected: the server exited with code 3 (signal none); stderr: going down",
    ]);
  });

  it("restarts a stdio server that died once, on the next call, and stays disconnected after a second death", async () => {
    const connection = open(stdio("flaky", scriptedStdioServer()));
    await connection.connect();
    const die = await connection.callTool("exit", { code: 3, stderr: "going down" }, {});
    expect(die).toBeInstanceOf(Error);
    expect(connection.status()).toMatchObject({ state: "disconnected", error: "the server exited with code 3 (signal none); stderr: going down" });

    const afterRestart = await connection.callTool("echo", { n: 1 }, {});
    expect(afterRestart).toMatchObject({ kind: "complete", isError: false });
    expect(connection.state).toBe("connected");
    // The new child was asked what it declares, as the first was: its lists and their changes are known again.
    expect(connection.capabilities).toHaveProperty("tools");

    await connection.callTool("exit", { code: 4 }, {});
    const refused = await connection.callTool("echo", {}, {});
    expect(refused instanceof Error && summary(refused)).toEqual({
      kind: "unavailable",
      message: "disconnected: the server exited with code 4 (signal none); stderr: (empty)",
      server: "flaky",
    });
    expect(connection.state).toBe("disconnected");
  });

  it("shares one restart between calls that arrive together after a death", async () => {
    const connection = open(stdio("shared", scriptedStdioServer()));
    await connection.connect();
    await connection.callTool("exit", { code: 1 }, {});
    const [first, second] = await Promise.all([connection.callTool("pids", {}, {}), connection.callTool("pids", {}, {})]);
    const pidOf = (outcome: unknown): unknown =>
      outcome !== null && typeof outcome === "object" && "structuredContent" in outcome ? outcome.structuredContent : outcome;
    expect(pidOf(first)).toEqual(pidOf(second));
    expect(connection.state).toBe("connected");
  });

  it("reconnect ends the old process, starts a new one and gives back the one restart a call may trigger", async () => {
    const connection = open(stdio("again", scriptedStdioServer()));
    await connection.connect();
    const first = await serverPid(connection);
    await connection.callTool("exit", { code: 1 }, {});
    const restarted = await serverPid(connection);
    await connection.callTool("exit", { code: 1 }, {});
    expect(connection.state).toBe("disconnected");

    await connection.reconnect();
    expect(connection.status()).toMatchObject({ state: "connected", error: null, tools: 3 });
    const reconnected = await serverPid(connection);
    await connection.reconnect();
    expect(await waitUntilGone(reconnected, 5000)).toBe(true);
    expect(new Set([first, restarted, reconnected, await serverPid(connection)]).size).toBe(4);
    // The restart is there again: a death after the reconnect is followed by a fresh process on the next call.
    await connection.callTool("exit", { code: 1 }, {});
    expect(await serverPid(connection)).toBeGreaterThan(0);
    expect(connection.state).toBe("connected");
  });

  it("gives up a reconnect when its signal is aborted, long before the start-up budget, and leaves no process", async () => {
    const silent = { command: process.execPath, args: ["-e", "setInterval(() => {}, 1000) // mca-test-silent-server"] };
    const connection = open(stdio("silent", silent, { startupTimeoutMs: 20_000 }));
    const stop = new AbortController();
    const reconnecting = connection.reconnect(stop.signal);
    // Stopped once the server is up and silent, that is while the connection waits for its answer. The start-up
    // budget (20 s) is the test's own limit: the reconnect ends in time only by the abort, and the error says so.
    await expect.poll(() => processesNaming("mca-test-silent-server", process.pid), { timeout: 5000 }).toHaveLength(1);
    stop.abort();
    await reconnecting;
    expect(connection.status()).toMatchObject({ state: "failed", error: "stopped while it came up" });
    await expect.poll(() => processesNaming("mca-test-silent-server", process.pid)).toEqual([]);
  });

  it("keeps what the server wrote on stderr when a reconnect is stopped while the era probe waits", async () => {
    const slow = scriptedStdioServer("--stderr=booting slowly", "--discover-delay=20000");
    const connection = open(stdio("slow", slow, { startupTimeoutMs: 20_000 }));
    const stop = new AbortController();
    const reconnecting = connection.reconnect(stop.signal);
    await expect.poll(() => connection.status().stderrTail, { timeout: 5000 }).toBe("booting slowly");
    // The probe fails as the wire closes, which reads as a legacy server that died of it: no fresh child is started.
    stop.abort();
    await reconnecting;
    expect(connection.status()).toMatchObject({ state: "failed", stderrTail: "booting slowly", error: "stopped while it came up; its stderr said: booting slowly" });
  });

  it("lets a call made during a reconnect wait for it, and a reconnect already stopped leaves the server as it was", async () => {
    const connection = open(stdio("waited", scriptedStdioServer()));
    await connection.connect();
    const reconnecting = connection.reconnect();
    const echoed = await connection.callTool("echo", { word: "after" }, {});
    await reconnecting;
    expect(echoed instanceof Error ? echoed.message : echoed.kind).toBe("complete");
    const stopped = new AbortController();
    stopped.abort();
    await connection.reconnect(stopped.signal);
    expect(connection.status()).toMatchObject({ state: "connected", error: null });
  });

  it("shares one reconnect between two asked for at once, leaving one server process", async () => {
    const connection = open(stdio("twice", scriptedStdioServer()));
    await connection.connect();
    await Promise.all([connection.reconnect(), connection.reconnect()]);
    expect(processesNaming(scriptedStdioServer().args[0] ?? "", process.pid)).toEqual([await serverPid(connection)]);
  });

  it("closes what a first start opened once a reconnect asked for meanwhile supersedes it, leaving one server process", async () => {
    const connection = open(stdio("raced", scriptedStdioServer()));
    await Promise.all([connection.connect(), connection.reconnect()]);
    expect(connection.status()).toMatchObject({ state: "connected", error: null });
    await expect.poll(() => processesNaming(scriptedStdioServer().args[0] ?? "", process.pid)).toEqual([await serverPid(connection)]);
  });

  it("fails a stdio server whose message outgrows the configured maxLineBytes, with an error naming the cap", async () => {
    const connection = open(stdio("capped", scriptedStdioServer(), { maxLineBytes: 4096 }));
    await connection.connect();
    const outcome = await connection.callTool("big", { bytes: 10_000 }, {});
    expect(outcome instanceof Error && summary(outcome)).toEqual({
      kind: "closed",
      message: "a line is longer than 4096 bytes (the cap on one message, maxLineBytes); the connection is closed",
      server: "capped",
    });
    expect(connection.status()).toMatchObject({ state: "disconnected" });
  });

  it("names its server once in each warning", async () => {
    const warnings: string[] = [];
    const connection = open(stdio("noisy", scriptedStdioServer("--log-at-start")), { onWarning: (warning) => warnings.push(warning) });
    await connection.connect();
    expect(warnings).toEqual([expect.stringMatching(/^noisy: ignoring a line on stdout that is not JSON-RPC \(not JSON .*\): "Server listening on stdio"$/)]);
  });

  it("marks an HTTP server disconnected when a call is refused and connected again after a success", async () => {
    let up = true;
    const server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        const message = JSON.parse(body) as { id: number; method: string };
        const results: Record<string, object> = {
          "server/discover": { supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, ttlMs: 0, cacheScope: "public" },
          "tools/list": { tools: [{ name: "ping", description: "Ping", inputSchema: { type: "object" } }], ttlMs: 0, cacheScope: "public" },
          "tools/call": { content: [{ type: "text", text: "pong" }] },
        };
        // No keep-alive: once the server is gone, the next call is refused, never written to a dying socket.
        response.setHeader("connection", "close");
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { resultType: "complete", ...results[message.method] } }));
      });
    });
    const listen = (port: number): Promise<number> =>
      new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
    const port = await listen(0);
    const close = (): Promise<void> => {
      up = false;
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    };
    try {
      const connection = open({ alias: "web", transport: "http", url: `http://127.0.0.1:${port}/mcp`, headers: {}, enabled: true });
      await connection.connect();
      expect(connection.state).toBe("connected");
      await close();
      const refused = await connection.callTool("ping", {}, {});
      expect(refused instanceof Error && summary(refused)).toEqual({
        kind: "unreachable",
        message: `cannot reach http://127.0.0.1:${port}/mcp: connection refused`,
        server: "web",
      });
      expect(connection.status()).toMatchObject({ state: "disconnected", tools: 1 });
      await listen(port);
      up = true;
      expect(await connection.callTool("ping", {}, {})).toMatchObject({ kind: "complete" });
      expect(connection.status()).toMatchObject({ state: "connected", error: null });
    } finally {
      if (up) await close();
    }
  });
});

describe("ServerConnection with a legacy HTTP server that loses its session", () => {
  it("is disconnected, saying so, when the new session cannot be started either", async () => {
    const accepted = { kind: "text", status: 202, body: "" } as const;
    const legacyResult = (id: number, result: object) => ({ kind: "json", body: { jsonrpc: "2.0", id, result } }) as const;
    const server = await startScriptedHttpServer([
      { method: "server/discover", reply: { kind: "json", status: 400, body: { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "no" } } } },
      {
        method: "initialize",
        reply: { ...legacyResult(2, { protocolVersion: "2025-11-25", capabilities: { tools: {} } }), headers: { "Mcp-Session-Id": "s-1" } },
      },
      { method: "notifications/initialized", reply: accepted },
      { method: "tools/list", reply: legacyResult(3, { tools: [{ name: "ping", inputSchema: { type: "object" } }] }) },
      { method: "tools/call", reply: { kind: "text", status: 404, contentType: "text/plain", body: "Session not found" } },
      { method: "initialize", reply: { kind: "text", status: 503, contentType: "text/plain", body: "restarting" } },
    ]);
    try {
      const connection = open({ alias: "web", transport: "http", url: server.url, headers: {}, enabled: true });
      await connection.connect();
      const failed = await connection.callTool("ping", {}, {});
      expect(failed instanceof Error && summary(failed)).toEqual({
        kind: "protocol",
        server: "web",
        message:
          "the server no longer knew mca's session (HTTP 404), and a new one could not be started: " +
          `${server.url} answered HTTP 503 Service Unavailable without a JSON-RPC body to request 5: "restarting"`,
      });
      expect(connection.status()).toMatchObject({ state: "disconnected", sessionRenewals: 0 });
      expect(server.received.map((request) => [request.method, request.headers["mcp-session-id"]])).toEqual([
        ["server/discover", undefined],
        ["initialize", undefined],
        ["notifications/initialized", "s-1"],
        ["tools/list", "s-1"],
        ["tools/call", "s-1"],
        ["initialize", undefined],
      ]);
    } finally {
      await server.close();
    }
  });
});

describe("ServerConnection seams", () => {
  it("builds its transport with the framer and the wrapper it is given", async () => {
    const sent: string[] = [];
    let framerChunks = 0;
    const connection = open(stdio("seamed", scriptedStdioServer()), {
      seams: {
        createFramer: (maxLineBytes) => {
          const framer = createLineFramer(maxLineBytes);
          return { push: (chunk) => ((framerChunks += 1), framer.push(chunk)), end: () => framer.end() };
        },
        wrapTransport: (transport) =>
          recordingTransport(transport, (message) => {
            if ("method" in message) sent.push(message.method);
          }),
      },
    });
    await connection.connect();
    expect(sent).toEqual(["server/discover", "tools/list", "tools/list"]);
    expect(framerChunks).toBeGreaterThan(0);
  });
});

/** The pid of the scripted server behind `connection`, from its `pids` tool. */
async function serverPid(connection: ServerConnection): Promise<number> {
  const outcome = await connection.callTool("pids", {}, {});
  const pids = !(outcome instanceof Error) && outcome.kind === "complete" ? outcome.structuredContent : undefined;
  if (!isJsonObject(pids) || typeof pids.server !== "number") throw new Error(`no pid in ${JSON.stringify(outcome)}`);
  return pids.server;
}

describe("ServerConnection with a legacy server", () => {
  const legacy = (...flags: string[]): McpServerConfig => stdio("old", legacyStdioServer(...flags));

  it("comes up connected and shows the version initialize agreed", async () => {
    const connection = open(legacy());
    await connection.connect();
    expect(connection.status()).toEqual({
      alias: "old",
      transport: "stdio",
      state: "connected",
      protocolVersion: "2025-11-25",
      tools: 2,
      endpoint: legacyStdioServer().args.reduce((line, word) => `${line} ${JSON.stringify(word)}`, JSON.stringify(process.execPath)),
      toolNames: ["echo", "ask"],
      error: null,
      stderrTail: null,
      recentLogs: [],
    });
  });

  it("reconnects a server that exits on the era probe without telling of a disconnect", async () => {
    const warnings: string[] = [];
    const connection = open(legacy("--probe=exit"), { onWarning: (warning) => warnings.push(warning) });
    await connection.connect();
    await connection.reconnect();
    expect(connection.status()).toMatchObject({ state: "connected", protocolVersion: "2025-11-25" });
    expect(warnings.filter((warning) => warning.includes("disconnected"))).toEqual([]);
  });

  it("runs the handshake again on a restarted child before calling it", async () => {
    const connection = open(legacy());
    await connection.connect();
    expect(await connection.callTool("exit", {}, {})).toBeInstanceOf(Error);
    expect(connection.state).toBe("disconnected");

    const received = await connection.callTool("received", {}, {});
    const structured = !(received instanceof Error) && received.kind === "complete" ? received.structuredContent : undefined;
    const messages = isJsonObject(structured) && Array.isArray(structured.messages) ? structured.messages.filter(isJsonObject) : [];
    expect(messages.map((message) => message.method)).toEqual(["initialize", "notifications/initialized", "tools/call"]);
    expect(connection.status()).toMatchObject({ state: "connected", protocolVersion: "2025-11-25" });
  });

  it("shows the version actually in use after a -32022 switch mid-session", async () => {
    const connection = open(legacy("--upgraded"));
    await connection.connect();
    expect(connection.status().protocolVersion).toBe("2025-11-25");
    expect(await connection.callTool("echo", { a: 1 }, {})).toMatchObject({ kind: "complete", content: [{ type: "text", text: '{"a":1}' }] });
    expect(connection.status()).toMatchObject({ state: "connected", protocolVersion: "2026-07-28" });
  });

  it("shows no version for a server that never came up", async () => {
    const connection = open(stdio("missing", { command: "/nonexistent/mcp-server", args: [] }));
    await connection.connect();
    expect(connection.status()).toMatchObject({ state: "failed", protocolVersion: null, error: "cannot start `/nonexistent/mcp-server`: command not found (ENOENT)" });
  });
});

/** A server stuck at start, as `npx -y` is when the registry cannot be reached: it says why on stderr, nothing on stdout. */
const STUCK_AT_START = {
  command: process.execPath,
  args: ["-e", "process.stderr.write('npm error code EAI_AGAIN\\nnpm error request to registry.npmjs.org failed\\n'); process.stdin.resume()"],
};

describe("ServerConnection start-up", () => {
  it("gives up after startupTimeoutMs, saying nothing came on stdout and what stderr said", async () => {
    const connection = open(stdio("slow", STUCK_AT_START, { startupTimeoutMs: 300 }));
    await connection.connect();
    expect(connection.status()).toMatchObject({
      state: "failed",
      error: "no answer on stdout after 300 ms (startupTimeoutMs); its stderr said: npm error code EAI_AGAIN\nnpm error request to registry.npmjs.org failed",
      // The budget ran out while the era probe waited: no fresh child took the place of this one.
      stderrTail: "npm error code EAI_AGAIN\nnpm error request to registry.npmjs.org failed",
    });
  });

  it("gives up on a silent HTTP server after startupTimeoutMs, naming its URL", async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", () => resolve()));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`;
    try {
      const connection = open({ alias: "quiet", transport: "http", url, headers: {}, enabled: true, startupTimeoutMs: 300 });
      await connection.connect();
      expect(connection.status()).toMatchObject({ state: "failed", error: `no answer from ${url} after 300 ms (startupTimeoutMs)` });
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it("names a missing working folder as such, not as a missing command", async () => {
    const connection = open(stdio("lost", { command: process.execPath, args: [] }, { cwd: "no-such-folder-for-mca" }));
    await connection.connect();
    expect(connection.status()).toMatchObject({
      state: "failed",
      error: `cannot start \`${process.execPath}\`: its working folder /tmp/no-such-folder-for-mca does not exist (cwd)`,
    });
  });

  it("shows the stderr tail with a failure whose text does not already carry it", async () => {
    const child = { command: process.execPath, args: ["-e", "process.stderr.write('bad flag --x\\n'); process.stdout.write('{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\",\"supportedVersions\":[]}}\\n'); process.stdin.resume()"] };
    const connection = open(stdio("odd", child));
    await connection.connect();
    expect(connection.status().error).toMatch(/; its stderr said: bad flag --x$/);
  });
});

/** A real child that prints its whole environment to stderr and exits: the connection fails, its stderr tail shows what it got. */
const PRINT_ENV = {
  command: process.execPath,
  args: ["-e", "for (const k of Object.keys(process.env).sort()) process.stderr.write(`${k}=${process.env[k]}\\n`); process.exit(1)"],
};
const PARENT_ENV = {
  PATH: process.env.PATH,
  HOME: "/home/someone",
  USER: "someone",
  LANG: "C.UTF-8",
  GITHUB_TOKEN: "ghp_not-for-servers",
  ANTHROPIC_API_KEY: "sk-ant-model-key",
  ANTHROPIC_AUTH_TOKEN: "model-auth-token",
};

async function environmentSeenBy(spec: McpServerConfig): Promise<string[]> {
  const connection = open(spec, { baseEnv: PARENT_ENV });
  await connection.connect();
  return (connection.status().stderrTail ?? "").split("\n");
}

describe("a stdio server's environment", () => {
  it("is the minimal inherited set plus the server's configured env, whose values its status shows redacted", async () => {
    const seen = await environmentSeenBy(stdio("minimal", PRINT_ENV, { env: { SERVICE_TOKEN: "svc-secret-42", MODE: "ro" } }));
    expect(seen).toEqual(["HOME=/home/someone", "MODE=ro", `PATH=${process.env.PATH}`, "SERVICE_TOKEN=[redacted]", "USER=someone"]);
  });

  it("is all of mca's environment with inheritEnv, except the model's credentials", async () => {
    const seen = await environmentSeenBy(stdio("everything", PRINT_ENV, { inheritEnv: true }));
    expect(seen).toEqual(["GITHUB_TOKEN=ghp_not-for-servers", "HOME=/home/someone", "LANG=C.UTF-8", `PATH=${process.env.PATH}`, "USER=someone"]);
  });
});
