import { spawnSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { unusedLoopbackUrl } from "./test-support/scripted-http-server.js";
import { afterEach, describe, expect, it } from "vitest";
import type { McpServerConfig } from "../config/index.js";
import type { ToolContext } from "../kernel/index.js";
import { createLineFramer } from "./line-framer.js";
import { mountServers, type MountedServers } from "./mount-servers.js";
import { ServerConnection } from "./server-connection.js";
import { scriptedStdioServer } from "./test-support/scripted-stdio-server.js";

const deps = { clientVersion: "0.0.0-test", baseEnv: { PATH: process.env.PATH }, onWarning: () => undefined };
const context: ToolContext = { signal: new AbortController().signal };
const opened: Array<{ close(): Promise<void> }> = [];

function stdio(alias: string, command: { command: string; args: string[] }, extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return { alias, transport: "stdio", env: {}, enabled: true, ...command, ...extra } as McpServerConfig;
}

async function mount(servers: McpServerConfig[]): Promise<MountedServers> {
  const mounted = await mountServers({ file: "/tmp/mcp.config.json", servers }, deps);
  opened.push(mounted);
  return mounted;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((item) => item.close()));
});

describe("mountServers", () => {
  it("discovers servers in parallel and records each failure with its reason without stopping the others", async () => {
    const hanging = { command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"] };
    const mounted = await mount([
      stdio("good", scriptedStdioServer()),
      stdio("hangs", hanging, { timeoutMs: 300 }),
      stdio("missing", { command: "/nonexistent/mcp-server", args: [] }),
    ]);
    const statuses = mounted.statuses().map(({ alias, state, tools, error }) => ({ alias, state, tools, error: error && error.slice(0, 40) }));
    expect(statuses).toEqual([
      { alias: "good", state: "connected", tools: 3, error: null },
      { alias: "hangs", state: "failed", tools: 0, error: expect.stringContaining("timed out") },
      { alias: "missing", state: "failed", tools: 0, error: expect.stringContaining("cannot start") },
    ]);
    expect(mounted.tools.map((tool) => [tool.name, tool.originalName, tool.kind, tool.source])).toEqual([
      ["mcp__good__alpha", "alpha", "remote", "good"],
      ["mcp__good__beta", "beta", "remote", "good"],
      ["mcp__good__gamma", "gamma", "remote", "good"],
    ]);
  });

  it("sends the original name to the server and says in the description where the tool comes from", async () => {
    const mounted = await mount([stdio("my.server", scriptedStdioServer())]);
    const beta = mounted.tools.find((tool) => tool.originalName === "beta");
    expect(beta?.name).toBe("mcp__my_server__beta");
    expect(beta?.description).toBe('[MCP server "my.server" (stdio), tool "beta"] Second tool');
    expect(beta?.annotations).toEqual({ readOnlyHint: true });
  });

  it("loads neither transport when no server is enabled", () => {
    // A fresh process, because this one has long loaded node:http: what the start of a session loads.
    const script = [
      `const { mountServers } = await import(${JSON.stringify(new URL("./mount-servers.ts", import.meta.url).href)});`,
      'await mountServers({ file: "/tmp/mcp.config.json", servers: [] }, { clientVersion: "t", baseEnv: {}, onWarning() {} });',
      'console.log(JSON.stringify(process.moduleLoadList.filter((name) => /^NativeModule https?$/.test(name))));',
    ].join("\n");
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
      encoding: "utf8",
      timeout: 15_000,
    });
    expect({ status: child.status, loaded: child.stdout.trim() }).toEqual({ status: 0, loaded: "[]" });
  });

  it("gives a call to a tool of a server that never came up a failed result naming the server and its reason", async () => {
    const mounted = await mount([stdio("broken", { command: "/nonexistent/mcp-server", args: [] })]);
    const tool = mounted.findTool("mcp__broken__search");
    const result = await tool?.run({}, context);
    expect(result?.isError).toBe(true);
    expect(result?.text).toMatch(/^MCP server "broken" is not available: it failed at start-up: cannot start/);
    expect(mounted.findTool("mcp__other__search")).toBeUndefined();
  });

  it("never shows a configured header value in a status or a result", async () => {
    const secret = "sekrit-token-4f9a1c";
    const url = await unusedLoopbackUrl();
    const mounted = await mount([{ alias: "api", transport: "http", url, headers: { Authorization: `Bearer ${secret}` }, enabled: true }]);
    const result = await mounted.findTool("mcp__api__x")?.run({}, context);
    expect(mounted.statuses()[0]?.state).toBe("failed");
    expect(JSON.stringify(mounted.statuses()) + (result?.text ?? "")).not.toContain(secret);
  });
});

describe("mountServers against a server that refuses our token", () => {
  it("reports the refusal without the token even when the server echoes it, and never takes it for a legacy server", async () => {
    const secret = "sk-secret-7d1e9c";
    const methods: string[] = [];
    const server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        const message = JSON.parse(body) as { id: number; method: string };
        methods.push(message.method);
        response.writeHead(401, { "content-type": "application/json" });
        const error = { code: -32001, message: `invalid token: ${request.headers.authorization ?? ""}` };
        response.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, error }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const mounted = await mount([
        { alias: "api", transport: "http", url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: `Bearer ${secret}` }, enabled: true },
      ]);
      const [status] = mounted.statuses();
      expect(status?.state).toBe("failed");
      expect(status?.error).toContain("invalid token");
      expect(JSON.stringify(mounted.statuses())).not.toContain(secret);
      expect(methods).toEqual(["server/discover"]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("ServerConnection seams", () => {
  it("builds its transport with the framer and the wrapper it is given", async () => {
    const sent: string[] = [];
    let framerChunks = 0;
    const connection = new ServerConnection(stdio("seamed", scriptedStdioServer()), {
      ...deps,
      configFile: "/tmp/x.json",
      seams: {
        createFramer: (maxLineBytes) => {
          const framer = createLineFramer(maxLineBytes);
          return { push: (chunk) => ((framerChunks += 1), framer.push(chunk)), end: () => framer.end() };
        },
        wrapTransport: (transport) => ({
          ...transport,
          kind: transport.kind,
          label: transport.label,
          start: (handlers) => transport.start(handlers),
          send: (message, options) => {
            if ("method" in message) sent.push(message.method);
            return transport.send(message, options);
          },
          cancel: (id, reason) => transport.cancel(id, reason),
          close: () => transport.close(),
        }),
      },
    });
    opened.push(connection);
    await connection.connect();
    expect(sent).toEqual(["server/discover", "tools/list", "tools/list"]);
    expect(framerChunks).toBeGreaterThan(0);
  });
});

describe("ServerConnection", () => {
  it("restarts a stdio server that died once, on the next call, and stays disconnected after a second death", async () => {
    const connection = new ServerConnection(stdio("flaky", scriptedStdioServer()), { ...deps, configFile: "/tmp/x.json" });
    opened.push(connection);
    await connection.connect();
    const die = await connection.callTool("exit", { code: 3, stderr: "going down" }, {});
    expect(die).toBeInstanceOf(Error);
    expect(connection.status()).toMatchObject({ state: "disconnected", error: expect.stringContaining("exited with code 3") });

    const afterRestart = await connection.callTool("echo", { n: 1 }, {});
    expect(afterRestart).toMatchObject({ kind: "complete", isError: false });
    expect(connection.state).toBe("connected");

    await connection.callTool("exit", { code: 4 }, {});
    const refused = await connection.callTool("echo", {}, {});
    expect(refused).toBeInstanceOf(Error);
    expect(String(refused)).toMatch(/MCP server "flaky" is disconnected: .*exited with code 4/);
    expect(connection.state).toBe("disconnected");
  });

  it("shares one restart between calls that arrive together after a death", async () => {
    const connection = new ServerConnection(stdio("shared", scriptedStdioServer()), { ...deps, configFile: "/tmp/x.json" });
    opened.push(connection);
    await connection.connect();
    await connection.callTool("exit", { code: 1 }, {});
    const [first, second] = await Promise.all([connection.callTool("pids", {}, {}), connection.callTool("pids", {}, {})]);
    const pidOf = (outcome: unknown): unknown =>
      outcome !== null && typeof outcome === "object" && "structuredContent" in outcome ? outcome.structuredContent : outcome;
    expect(pidOf(first)).toEqual(pidOf(second));
    expect(connection.state).toBe("connected");
  });

  it("fails a stdio server whose message outgrows the configured maxLineBytes, with an error naming the cap", async () => {
    const connection = new ServerConnection(stdio("capped", scriptedStdioServer(), { maxLineBytes: 4096 }), { ...deps, configFile: "/tmp/x.json" });
    opened.push(connection);
    await connection.connect();
    const outcome = await connection.callTool("big", { bytes: 10_000 }, {});
    expect(String(outcome)).toMatch(/capped: a line is longer than 4096 bytes \(the cap on one message, maxLineBytes\)/);
    expect(connection.status()).toMatchObject({ state: "disconnected" });
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
      const connection = new ServerConnection(
        { alias: "web", transport: "http", url: `http://127.0.0.1:${port}/mcp`, headers: {}, enabled: true },
        { ...deps, configFile: "/tmp/x.json" },
      );
      opened.push(connection);
      await connection.connect();
      expect(connection.state).toBe("connected");
      await close();
      // Let the client's keep-alive agent see its idle socket closed, so the next call is refused, not reset.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const refused = await connection.callTool("ping", {}, {});
      expect(String(refused)).toContain("cannot reach");
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
