import { afterEach, describe, expect, it } from "vitest";
import type { ToolContext } from "../kernel/index.js";
import type { InputResponder } from "./input.js";
import { isJsonObject, McpError, type JsonObject } from "./jsonrpc.js";
import { mountServers, type MountedServers } from "./mount-servers.js";
import { rootsPerServer, rootsResult } from "./roots.js";
import type { McpServerConfig, ServerRoots } from "./server-spec.js";
import { startInputRequiredServer } from "./test-support/input-required-server.js";
import { legacyStdioServer } from "./test-support/legacy-stdio-server.js";

const context: ToolContext = { signal: new AbortController().signal };
const opened: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((item) => item.close()));
});

/** A responder without a terminal: forms declined, roots the project folder, as the CLI's answers. */
const responder: InputResponder = {
  support: { elicitationForm: true, roots: true },
  answer: async (requests) =>
    Object.fromEntries(Object.entries(requests).map(([key, request]) => [key, request.kind === "roots" ? rootsResult(["/work/project"]) : { action: "decline" }])),
};

/** Mounted as the CLI mounts a config: every answer goes out with the roots of the server that asked. */
async function mount(servers: McpServerConfig[]): Promise<MountedServers> {
  const mounted = await mountServers(
    { file: "/tmp/mcp.config.json", servers },
    { clientVersion: "0.0.0-test", baseEnv: { PATH: process.env.PATH }, onWarning: () => undefined, inputResponder: rootsPerServer(responder, servers) },
  );
  opened.push(mounted);
  return mounted;
}

/** A modern loopback server whose one tool, `where`, asks for the client's roots and echoes what it was given. */
async function modernServer(alias: string, roots?: ServerRoots): Promise<{ spec: McpServerConfig; bodies: JsonObject[] }> {
  const server = await startInputRequiredServer({
    tool: { name: "where", inputSchema: { type: "object" } },
    ask: { resultType: "input_required", inputRequests: { dirs: { method: "roots/list" } } },
    finish: ({ inputResponses }) => ({ content: [{ type: "text", text: JSON.stringify(inputResponses) }] }),
  });
  opened.push(server);
  return { spec: { alias, transport: "http", url: server.url, headers: {}, enabled: true, ...(roots === undefined ? {} : { roots }) }, bodies: server.bodies };
}

function legacyServer(alias: string, roots?: ServerRoots): McpServerConfig {
  return { alias, transport: "stdio", env: {}, enabled: true, ...legacyStdioServer(), ...(roots === undefined ? {} : { roots }) };
}

const CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";

function declaredIn(body: JsonObject): unknown {
  return isJsonObject(body.params) && isJsonObject(body.params._meta) ? body.params._meta[CAPABILITIES_KEY] : undefined;
}

/** What the legacy server received: the client's `initialize`, and its answer to the server's own roots/list. */
async function legacyExchange(mounted: MountedServers): Promise<{ initialize: unknown; rootsAnswer: unknown }> {
  const connection = mounted.connections[0];
  if (connection === undefined) throw new Error("no server mounted");
  await mounted.tools.find((tool) => tool.name.endsWith("__ask"))?.run({}, context);
  const outcome = await connection.callTool("received", {}, {});
  const structured = outcome instanceof McpError || outcome.kind !== "complete" ? undefined : outcome.structuredContent;
  const messages = isJsonObject(structured) && Array.isArray(structured.messages) ? structured.messages.filter(isJsonObject) : [];
  const initialize = messages.find((message) => message.method === "initialize");
  const answer = messages.find((message) => message.id === "server-2");
  return { initialize: initialize?.params, rootsAnswer: answer === undefined ? undefined : (answer.result ?? answer.error) };
}

describe("roots per server", () => {
  it("answers each modern server's roots/list with the roots its config names, and the project folder where it names none", async () => {
    const servers = [await modernServer("a", ["/srv/a", "/srv/shared dir"]), await modernServer("b", ["/srv/b"]), await modernServer("c")];
    const mounted = await mount(servers.map((server) => server.spec));
    const results = await Promise.all(mounted.tools.map((tool) => tool.run({}, context)));
    expect(results).toEqual([
      { text: JSON.stringify({ dirs: { roots: [{ uri: "file:///srv/a", name: "a" }, { uri: "file:///srv/shared%20dir", name: "shared dir" }] } }), isError: false },
      { text: JSON.stringify({ dirs: { roots: [{ uri: "file:///srv/b", name: "b" }] } }), isError: false },
      { text: JSON.stringify({ dirs: { roots: [{ uri: "file:///work/project", name: "project" }] } }), isError: false },
    ]);
    expect(servers.map(({ bodies }) => [...new Set(bodies.map((body) => JSON.stringify(declaredIn(body))))])).toEqual([
      [JSON.stringify({ elicitation: { form: {} }, roots: {} })],
      [JSON.stringify({ elicitation: { form: {} }, roots: {} })],
      [JSON.stringify({ elicitation: { form: {} }, roots: {} })],
    ]);
  });

  it('declares no roots in any request to a modern server whose config says "roots": false, and refuses its roots/list', async () => {
    const { spec, bodies } = await modernServer("fs", false);
    const mounted = await mount([spec]);
    expect(await mounted.tools[0]?.run({}, context)).toEqual({
      text: 'MCP server "fs": tools/call where: the input the server asked for was not given: the server asked for the roots list, and mca declared no roots to it (its config says "roots": false)',
      isError: true,
    });
    expect(bodies.map((body) => [body.method, declaredIn(body)])).toEqual([
      ["server/discover", { elicitation: { form: {} } }],
      ["tools/list", { elicitation: { form: {} } }],
      ["tools/call", { elicitation: { form: {} } }],
    ]);
  });

  it('declares no roots in a legacy server\'s initialize when its config says "roots": false, and refuses its roots/list', async () => {
    const mounted = await mount([legacyServer("fs", false)]);
    expect(await legacyExchange(mounted)).toEqual({
      initialize: { protocolVersion: "2025-11-25", capabilities: { elicitation: { form: {} } }, clientInfo: { name: "mca", version: "0.0.0-test" } },
      rootsAnswer: { code: -32601, message: "the server asked for the roots list, and mca did not declare roots" },
    });
  });

  it("answers a legacy server's roots/list with the roots its config names", async () => {
    const mounted = await mount([legacyServer("fs", ["/srv/a"])]);
    expect(await legacyExchange(mounted)).toEqual({
      initialize: { protocolVersion: "2025-11-25", capabilities: { elicitation: { form: {} }, roots: {} }, clientInfo: { name: "mca", version: "0.0.0-test" } },
      rootsAnswer: { roots: [{ uri: "file:///srv/a", name: "a" }] },
    });
  });
});
