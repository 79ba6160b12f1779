import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolContext } from "../kernel/index.js";
import type { InputAskContext, InputRequest, InputResponder } from "./input.js";
import type { JsonRpcMessage } from "./jsonrpc.js";
import { mountServers, NEEDS_TASKS_MARK, type MountDeps, type MountedServers } from "./mount-servers.js";
import type { LogLevel, ServerLogEntry } from "./server-log.js";
import { recordingTransport } from "./test-support/received-by-server.js";
import { startStatefulSdkServer } from "./test-support/sdk-v1-http-server.js";

// mca against a server built with the official TypeScript SDK v1 (a 2025-11-25 server, as most are today).
const SDK_V1_SERVER = fileURLToPath(new URL("./test-support/sdk-v1-stdio-server.mjs", import.meta.url));
const context: ToolContext = { signal: new AbortController().signal };
const opened: MountedServers[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((mounted) => mounted.close()));
});

/** Records every message mca sends, to show what was (not) sent. */
function recordingSeams(sent: JsonRpcMessage[]): MountDeps["seams"] {
  return { wrapTransport: (transport) => recordingTransport(transport, (message) => sent.push(message)) };
}

async function mountSdkV1(extra: Partial<MountDeps> = {}, logLevel?: LogLevel): Promise<MountedServers> {
  const deps: MountDeps = { clientVersion: "0.0.0-test", baseEnv: { PATH: process.env.PATH }, onWarning: () => undefined, ...extra };
  const spec = {
    alias: "v1",
    transport: "stdio" as const,
    command: process.execPath,
    args: [SDK_V1_SERVER],
    env: {},
    enabled: true,
    ...(logLevel === undefined ? {} : { logLevel }),
  };
  const mounted = await mountServers({ file: "/tmp/mcp.config.json", servers: [spec] }, deps);
  opened.push(mounted);
  return mounted;
}

function tool(mounted: MountedServers, name: string) {
  const found = mounted.tools.find((candidate) => candidate.originalName === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
}

describe("a legacy SDK v1 server", () => {
  it("marks a tool that requires tasks and refuses a call to it locally, sending nothing", async () => {
    const sent: JsonRpcMessage[] = [];
    const mounted = await mountSdkV1({ seams: recordingSeams(sent) });
    expect(mounted.statuses()[0]).toMatchObject({ state: "connected", protocolVersion: "2025-11-25" });
    const longJob = tool(mounted, "long_job");
    expect(longJob.description).toBe(`${NEEDS_TASKS_MARK} [MCP server "v1" (stdio), tool "long_job"] Runs for a long time, as a task.`);
    expect(tool(mounted, "client_capabilities").description.startsWith(NEEDS_TASKS_MARK)).toBe(false);

    const before = sent.length;
    expect(await longJob.run({ seconds: 1 }, context)).toEqual({
      text: 'MCP server "v1": tool "long_job" runs only as a task (execution.taskSupport "required"), and mca does not run tasks; it was not called',
      isError: true,
    });
    expect(sent.slice(before)).toEqual([]);
  });
});

/** Answers a form with a name and the roots with one folder, and keeps what it was asked. */
function recordingResponder(asked: Array<{ kinds: string[]; context: InputAskContext & { server: string } }>): InputResponder {
  return {
    support: { elicitationForm: true, roots: true },
    answer: async (requests: Record<string, InputRequest>, context) => {
      asked.push({ kinds: Object.values(requests).map((request) => request.kind), context });
      const answers: Record<string, unknown> = {};
      for (const [key, request] of Object.entries(requests)) {
        answers[key] = request.kind === "roots" ? { roots: [{ uri: "file:///work/project", name: "project" }] } : { action: "accept", content: { name: "Ada" } };
      }
      return answers;
    },
  };
}

describe("a legacy SDK v1 server that asks the client for input", () => {
  it("sees in initialize the capabilities the responder supports, the same as a modern request's _meta", async () => {
    const mounted = await mountSdkV1({ inputResponder: recordingResponder([]) });
    expect(await tool(mounted, "client_capabilities").run({}, context)).toEqual({
      text: JSON.stringify({ elicitation: { form: {} }, roots: {} }),
      isError: false,
    });
  });

  it("gets its elicitation/create and roots/list answered by the responder, naming the server and the tool", async () => {
    const asked: Array<{ kinds: string[]; context: InputAskContext & { server: string } }> = [];
    const mounted = await mountSdkV1({ inputResponder: recordingResponder(asked) });
    expect(await tool(mounted, "ask_name").run({}, context)).toEqual({
      text: JSON.stringify({ action: "accept", content: { name: "Ada" } }),
      isError: false,
    });
    expect(await tool(mounted, "list_roots").run({}, context)).toEqual({
      text: JSON.stringify({ roots: [{ uri: "file:///work/project", name: "project" }] }),
      isError: false,
    });
    expect(asked.map(({ kinds, context: { server, tool: name } }) => ({ kinds, server, tool: name }))).toEqual([
      { kinds: ["elicit-form"], server: "v1", tool: "ask_name" },
      { kinds: ["roots"], server: "v1", tool: "list_roots" },
    ]);
  });

  it("without a responder declares nothing and has its request refused at once, so the call ends", async () => {
    const mounted = await mountSdkV1();
    expect(await tool(mounted, "client_capabilities").run({}, context)).toEqual({ text: "{}", isError: false });
    const refused = await tool(mounted, "ask_name").run({}, context);
    expect(refused).toEqual({ text: "Client does not support form elicitation.", isError: true });
  });
});

describe("a legacy SDK v1 server's log messages", () => {
  it("are asked for once with logging/setLevel at the configured level, handed to onLog and kept in the status", async () => {
    const sent: JsonRpcMessage[] = [];
    const logs: ServerLogEntry[] = [];
    const mounted = await mountSdkV1({ seams: recordingSeams(sent), onLog: (entry) => logs.push(entry) }, "warning");
    const setLevel = sent.filter((message) => "method" in message && message.method === "logging/setLevel");
    expect(setLevel.map((message) => ("params" in message ? message.params : undefined))).toEqual([{ level: "warning" }]);

    await tool(mounted, "log_each_level").run({}, context);
    expect(logs).toEqual([
      { alias: "v1", level: "warning", logger: "sdk-v1", text: "a warning message" },
      { alias: "v1", level: "error", logger: "sdk-v1", text: "a error message" },
    ]);
    expect(mounted.statuses()[0]?.recentLogs).toEqual(["warning sdk-v1: a warning message", "error sdk-v1: a error message"]);
  });

  it("are asked for at info by default", async () => {
    const logs: ServerLogEntry[] = [];
    const mounted = await mountSdkV1({ onLog: (entry) => logs.push(entry) });
    await tool(mounted, "log_each_level").run({}, context);
    expect(logs.map((entry) => entry.level)).toEqual(["info", "warning", "error"]);
  });
});

describe("a stateful legacy SDK v1 HTTP server", () => {
  it("that restarts and answers 404 to the old session gets a new initialize, and the call is resent once", async () => {
    const server = await startStatefulSdkServer();
    const warnings: string[] = [];
    const deps: MountDeps = { clientVersion: "0.0.0-test", baseEnv: {}, onWarning: (warning) => warnings.push(warning) };
    const mounted = await mountServers({ file: "/tmp/mcp.config.json", servers: [{ alias: "kept", transport: "http", url: server.url, headers: {}, enabled: true }] }, deps);
    try {
      const echo = tool(mounted, "echo");
      expect(await echo.run({}, context)).toEqual({ text: "echo", isError: false });
      await server.restart();
      expect(await echo.run({}, context)).toEqual({ text: "echo", isError: false });
      expect(mounted.statuses()[0]).toMatchObject({ state: "connected", protocolVersion: "2025-11-25", sessionRenewals: 1 });
      expect(warnings).toEqual(["kept: the server no longer knew mca's session (HTTP 404; it may have restarted): a new session was started"]);

      const [first, renewed] = [...new Set(server.requests.map((request) => request.sessionId).filter((id) => id !== undefined))];
      // The GETs that listen on each session come when they come; the POSTs are in order.
      expect(server.requests.filter((request) => request.method !== "GET").slice(-5)).toEqual([
        { method: "POST", rpc: "tools/call", sessionId: first },
        { method: "POST", rpc: "tools/call", sessionId: first },
        { method: "POST", rpc: "initialize", sessionId: undefined },
        { method: "POST", rpc: "notifications/initialized", sessionId: renewed },
        { method: "POST", rpc: "tools/call", sessionId: renewed },
      ]);
    } finally {
      await mounted.close();
      await server.close();
    }
  });

  it("gets a DELETE with its session id when mca closes the connection", async () => {
    const server = await startStatefulSdkServer();
    const deps: MountDeps = { clientVersion: "0.0.0-test", baseEnv: {}, onWarning: () => undefined };
    const mounted = await mountServers({ file: "/tmp/mcp.config.json", servers: [{ alias: "kept", transport: "http", url: server.url, headers: {}, enabled: true }] }, deps);
    const session = server.requests.find((request) => request.rpc === "tools/list")?.sessionId;
    await mounted.close();
    try {
      expect(session).toBeDefined();
      expect(server.requests.at(-1)).toEqual({ method: "DELETE", sessionId: session, rpc: undefined });
    } finally {
      await server.close();
    }
  });
});
