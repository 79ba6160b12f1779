import { afterEach, describe, expect, it } from "vitest";
import type { McpClient } from "./client.js";
import { isJsonObject, McpError, type JsonObject, type JsonRpcMessage, type JsonRpcNotification, type JsonRpcRequest } from "./jsonrpc.js";
import { createHeaderTable } from "./http/headers.js";
import { createHttpTransport } from "./http/transport.js";
import { createLegacyClient, handshake, openLegacyClient } from "./legacy-client.js";
import { discover, openModernClient } from "./era.js";
import { createModernClient } from "./modern-client.js";
import { createStdioTransport } from "./stdio-transport.js";
import { createInMemoryTransport, type ScriptedReply } from "./test-support/in-memory-transport.js";
import { rejection, summary } from "./test-support/mcp-rejection.js";
import { receivedByServer } from "./test-support/received-by-server.js";
import { sseEvent, startScriptedHttpServer } from "./test-support/scripted-http-server.js";
import { scriptedStdioServer } from "./test-support/scripted-stdio-server.js";
import { buildRequestMeta, createWire, type WireOptions } from "./wire.js";

const META = buildRequestMeta({ protocolVersion: "2026-07-28", clientCapabilities: {}, clientVersion: "9.9.9" });

/** A started wire that no client hears yet. */
async function startWire(answer: (request: JsonRpcRequest) => ScriptedReply) {
  const transport = createInMemoryTransport({ label: "srv", answer });
  const warnings: string[] = [];
  const wire = createWire({ transport, clientVersion: "9.9.9", onWarning: (w) => warnings.push(w) });
  await wire.start();
  return { wire, transport, warnings };
}

async function startClient(answer: (request: JsonRpcRequest) => ScriptedReply) {
  const started = await startWire(answer);
  return { client: createModernClient(started.wire), ...started };
}

const broken = (): ScriptedReply => ({ sendFails: new McpError("broken", "the event stream ended before the response", { server: "srv" }) });
const metaOf = (request: JsonRpcRequest): JsonObject => (isJsonObject(request.params._meta) ? request.params._meta : {});
const toolsPage = (tools: unknown[]): ScriptedReply => ({ result: { resultType: "complete", tools } });
const versionError = (supported: string[]): ScriptedReply => ({
  error: { code: -32022, message: "Unsupported protocol version", data: { supported, requested: "2026-07-28" } },
});

describe("buildRequestMeta", () => {
  it("carries the protocol version, the client capabilities and the client info, frozen all the way down", () => {
    const capabilities = { elicitation: { form: {} } };
    const meta = buildRequestMeta({ protocolVersion: "2026-07-28", clientCapabilities: capabilities, clientVersion: "0.15.0" });
    expect(meta).toEqual({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
      "io.modelcontextprotocol/clientInfo": { name: "mca", version: "0.15.0" },
    });
    expect(meta["io.modelcontextprotocol/clientCapabilities"]).not.toBe(capabilities);
    expect([Object.isFrozen(meta), Object.isFrozen(capabilities), Object.isFrozen(meta["io.modelcontextprotocol/clientCapabilities"])]).toEqual([true, false, true]);
  });
});

describe("a client", () => {
  it("puts the connection's _meta inside the params of a plain request, keeping the caller's own keys", async () => {
    const { client, transport } = await startClient(() => ({ result: { resources: [], resultType: "complete" } }));
    expect(await client.request("resources/list", { cursor: "x" })).toEqual({ resources: [], resultType: "complete" });
    await client.request("resources/read", { uri: "u", _meta: { traceparent: "00-ab", progressToken: 1 } });
    const [list, read] = transport.requests();
    expect(list?.params).toEqual({ cursor: "x", _meta: META });
    expect(read?.params).toEqual({ uri: "u", _meta: { traceparent: "00-ab", progressToken: 1, ...META } });
  });

  it("gives each call that wants progress a fresh token, and a log level only to the call that sets one", async () => {
    const { client, transport } = await startClient(() => ({ result: { content: [] } }));
    await client.callTool("a", {}, { wantProgress: true });
    await client.callTool("b", {});
    await client.callTool("c", {}, { wantProgress: true, logLevel: "debug" });
    expect(transport.requests().map((r) => [metaOf(r).progressToken, metaOf(r)["io.modelcontextprotocol/logLevel"]])).toEqual([
      ["mca-1", undefined],
      [undefined, undefined],
      ["mca-2", "debug"],
    ]);
    expect(transport.requests().map((r) => ({ ...metaOf(r), progressToken: undefined, "io.modelcontextprotocol/logLevel": undefined }))).toEqual(
      [1, 2, 3].map(() => ({ ...META, progressToken: undefined, "io.modelcontextprotocol/logLevel": undefined })),
    );
  });

  it("re-sends a list whose exchange broke once, under a new id", async () => {
    let attempts = 0;
    const { client, transport } = await startClient(() => ((attempts += 1) === 1 ? broken() : toolsPage([])));
    expect(await client.listTools()).toEqual([]);
    expect(transport.requests().map((r) => [r.id, r.method])).toEqual([
      [1, "tools/list"],
      [2, "tools/list"],
    ]);
  });

  it("surfaces a list that breaks twice", async () => {
    const { client, transport } = await startClient(broken);
    expect((await rejection(client.listTools())).kind).toBe("broken");
    expect(transport.requests()).toHaveLength(2);
  });

  it("never re-sends a tools/call whose exchange broke", async () => {
    const { client, transport } = await startClient(broken);
    expect(summary(await rejection(client.callTool("deploy", {})))).toEqual({
      kind: "broken",
      message: "the event stream ended before the response",
      server: "srv",
    });
    expect(transport.requests()).toHaveLength(1);
  });

  it("retries a -32022 only once, then surfaces it", async () => {
    const { client, transport } = await startClient(() => versionError(["2026-07-28"]));
    expect((await rejection(client.callTool("t", {}))).code).toBe(-32022);
    expect(transport.requests().map((r) => r.id)).toEqual([1, 2]);
  });

  it("drops tools that are malformed or whose name repeats, with a warning each", async () => {
    const { client, warnings } = await startClient(() =>
      toolsPage([
        { name: "ok", inputSchema: { type: "object" } },
        { name: "bad" },
        { name: "ok", inputSchema: { type: "object" } },
      ]),
    );
    expect(await client.listTools()).toEqual([{ name: "ok", inputSchema: { type: "object" } }]);
    expect(warnings).toEqual([
      'dropping a tool from tools/list: tool "bad": `inputSchema` is not an object',
      'dropping a second tool named "ok": tool names must be unique per server',
    ]);
  });

  it("drops a listed tool whose x-mcp-header declarations are invalid, with a warning, and keeps the others", async () => {
    const region = { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } };
    const invalid = { type: "object", properties: { where: { type: "string", "x-mcp-header": "Bad Name" } } };
    const { client, warnings } = await startClient(() => toolsPage([{ name: "deploy", inputSchema: region }, { name: "broken", inputSchema: invalid }]));
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(["deploy"]);
    expect(warnings).toEqual(['dropping tool "broken": property "where": x-mcp-header "Bad Name" is not a valid header token']);
  });

  it("tells its header table the x-mcp-header arguments of a call to a listed tool, and none for another tool or another method", async () => {
    const inputSchema = { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" }, n: { type: "integer", "x-mcp-header": "N" } } };
    const headerTable = createHeaderTable();
    const transport = createInMemoryTransport({ label: "srv", answer: () => toolsPage([{ name: "deploy", inputSchema }]) });
    const wire = createWire({ transport, headerTable, clientVersion: "9.9.9" });
    await wire.start();
    await createModernClient(wire).listTools();
    const call = (name: string, method = "tools/call"): JsonRpcRequest => ({ jsonrpc: "2.0", id: 9, method, params: { name, arguments: { region: "eu", n: 3 } } });
    expect([call("deploy"), call("other"), call("deploy", "prompts/get")].map((request) => headerTable.forMessage(request))).toEqual([
      {
        protocolVersion: "2026-07-28",
        legacy: false,
        paramHeaders: [
          { name: "Region", value: "eu" },
          { name: "N", value: "3" },
        ],
      },
      { protocolVersion: "2026-07-28", legacy: false, paramHeaders: [] },
      { protocolVersion: "2026-07-28", legacy: false, paramHeaders: [] },
    ]);
  });

  it("tells its header table the version it speaks: its first, then the one a -32022 switched to", async () => {
    let attempts = 0;
    const headerTable = createHeaderTable();
    const transport = createInMemoryTransport({ label: "srv", answer: () => ((attempts += 1) === 1 ? versionError(["2026-07-28", "2030-01-01"]) : toolsPage([])) });
    const wire = createWire({ transport, headerTable, clientVersion: "9.9.9", versions: ["2030-01-01", "2026-07-28"] });
    const first = headerTable.version();
    await wire.start();
    const client = createModernClient(wire);
    await client.listTools();
    expect([first, headerTable.version(), client.protocolVersion()]).toEqual(["2030-01-01", "2026-07-28", "2026-07-28"]);
  });

  it("survives a notification listener that throws, with a warning", async () => {
    const transport = createInMemoryTransport({ label: "srv" });
    const warnings: string[] = [];
    const wire = createWire({
      transport,
      clientVersion: "1",
      onWarning: (w) => warnings.push(w),
      onNotification: () => {
        throw new Error("listener bug");
      },
    });
    await wire.start();
    createModernClient(wire);
    transport.deliver({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    expect(warnings).toEqual(["a notification listener failed: listener bug"]);
  });

  it("fails discover when the server speaks no version in common", async () => {
    const { wire } = await startClient(() => ({ result: { resultType: "complete", supportedVersions: ["2027-01-01"], capabilities: {} } }));
    expect(summary(await rejection(discover(wire)))).toEqual({
      kind: "protocol",
      message: "server/discover: no protocol version in common: the server supports 2027-01-01; mca supports 2026-07-28",
      server: "srv",
    });
  });

  it("fails discover on an answer the era probe would take for a legacy server's", async () => {
    const answers = [{ supportedVersions: ["2026-07-28"], capabilities: {} }, { resultType: "complete", supportedVersions: ["2025-11-25"], capabilities: {} }];
    const { wire } = await startClient(() => ({ result: answers.shift() ?? {} }));
    expect([summary(await rejection(discover(wire))), summary(await rejection(discover(wire)))]).toEqual([
      { kind: "protocol", message: "server/discover answered a result without resultType: not a 2026-07-28 server", server: "srv" },
      { kind: "protocol", message: "server/discover offered only 2025-11-25: not a 2026-07-28 server", server: "srv" },
    ]);
  });

  it("reports the end of its connection, but not its own close", async () => {
    const transport = createInMemoryTransport({ label: "srv" });
    const ends: McpError[] = [];
    const wire = createWire({ transport, clientVersion: "1", onClose: (reason) => ends.push(reason) });
    await wire.start();
    const client = createModernClient(wire);
    transport.die(new Error("the child exited"));
    await client.close();
    expect(ends.map(summary)).toEqual([{ kind: "closed", message: "the child exited", server: "srv" }]);
  });
});

describe("the legacy handshake and its client", () => {
  const initializeResult = (protocolVersion: string): ScriptedReply => ({ result: { protocolVersion, capabilities: {}, serverInfo: { name: "old", version: "1" } } });

  it("sends initialize without _meta, then notifications/initialized, and from then on only what the agreed revision defines", async () => {
    const { wire, transport } = await startWire((request) => (request.method === "initialize" ? initializeResult("2025-06-18") : toolsPage([])));
    const handshaken = await handshake(wire);
    expect(handshaken.info).toEqual({ protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "old", version: "1" } });
    const client = createLegacyClient(wire, handshaken);
    await client.listTools();
    expect(transport.sent.map((message) => ("params" in message ? [message.method ?? "", message.params] : message))).toEqual([
      ["initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "mca", version: "9.9.9" } }],
      { jsonrpc: "2.0", method: "notifications/initialized" },
      // No 2026 keys: a two-era server would route a request carrying them to its modern handler.
      ["tools/list", {}],
    ]);
    expect(client.protocolVersion()).toBe("2025-06-18");
  });

  it("keeps what the server declared of itself: its capabilities and instructions", async () => {
    const declared = { protocolVersion: "2025-06-18", capabilities: { resources: { listChanged: true } }, instructions: "read me" };
    const { client: undescribed } = await startClient(() => ({ result: declared }));
    expect([undescribed.serverCapabilities(), undescribed.instructions()]).toEqual([{}, undefined]);
    const client = await openLegacyClient((await startWire(() => ({ result: declared }))).wire);
    expect([client.serverCapabilities(), client.instructions()]).toEqual([{ resources: { listChanged: true } }, "read me"]);
  });

  it("takes a server that declares no tools and refuses tools/list to have none, and one that declares tools to have failed", async () => {
    const refusing = (capabilities: JsonObject) => (request: JsonRpcRequest): ScriptedReply =>
      request.method === "initialize"
        ? { result: { protocolVersion: "2025-06-18", capabilities } }
        : { error: { code: -32601, message: "Method not found" } };
    const onlyResources = await openLegacyClient((await startWire(refusing({ resources: {} }))).wire);
    expect(await onlyResources.listTools()).toEqual([]);
    const withTools = await openLegacyClient((await startWire(refusing({ tools: {} }))).wire);
    expect(summary(await rejection(withTools.listTools()))).toMatchObject({ kind: "server", server: "srv" });
  });

  it("sends no logging/setLevel once stopped, even when initialize was answered before", async () => {
    const answered = { result: { protocolVersion: "2025-11-25", capabilities: { logging: {} } } };
    const inMemory = createInMemoryTransport({ label: "srv", answer: () => answered });
    const stop = new AbortController();
    // The stop lands while notifications/initialized is on its way, as a late modern answer to the probe may.
    const transport = {
      ...inMemory,
      send: (message: JsonRpcMessage, signal?: AbortSignal) => {
        if ("method" in message && message.method === "notifications/initialized") stop.abort();
        return inMemory.send(message, signal);
      },
    };
    const wire = createWire({ transport, clientVersion: "9.9.9", logLevel: "info" });
    await wire.start();
    await expect(handshake(wire, stop.signal)).rejects.toThrow();
    expect(inMemory.sent.map((message) => ("method" in message ? message.method : "?"))).toEqual(["initialize", "notifications/initialized"]);
  });

  it("does not send notifications/initialized after an answer it refuses", async () => {
    const { wire, transport } = await startWire(() => initializeResult("1999-01-01"));
    expect(summary(await rejection(handshake(wire)))).toEqual({
      kind: "protocol",
      message: "initialize: the server chose protocol version 1999-01-01; with initialize mca speaks 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05",
      server: "srv",
    });
    expect(transport.notifications()).toEqual([]);
    expect(wire.protocolVersion()).toBe("2026-07-28");
  });
});

describe("a modern client over stdio", () => {
  const opened: McpClient[] = [];

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((client) => client.close()));
  });

  async function startStdioClient(flags: string[] = [], options: Partial<WireOptions> = {}) {
    const warnings: string[] = [];
    const notifications: JsonRpcNotification[] = [];
    const transport = createStdioTransport({ label: "scripted", ...scriptedStdioServer(...flags) });
    const wire = createWire({
      transport,
      clientVersion: "0.15.0",
      onWarning: (w) => warnings.push(w),
      onNotification: (n) => notifications.push(n),
      ...options,
    });
    const client = createModernClient(wire);
    opened.push(client);
    await wire.start();
    return { client, wire, warnings, notifications };
  }

  const requestsOf = (messages: JsonObject[], method: string) => messages.filter((m) => m.method === method && "id" in m);

  it("discovers the server's versions, capabilities, instructions and identity", async () => {
    const { wire } = await startStdioClient();
    expect(await discover(wire)).toEqual({
      protocolVersion: "2026-07-28",
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: {} },
      instructions: "Be kind.",
      serverInfo: { name: "scripted", version: "1.2.3" },
    });
  });

  it("puts _meta with version, capabilities and client info on the params of every request", async () => {
    const { client, wire } = await startStdioClient([], { capabilities: { elicitation: {} } });
    await discover(wire);
    await client.listTools();
    await client.callTool("echo", { a: 1 });
    const requests = (await receivedByServer(client)).filter((m) => "id" in m);
    expect(requests.map((r) => r.method)).toEqual(["server/discover", "tools/list", "tools/list", "tools/call", "tools/call"]);
    const meta = buildRequestMeta({ protocolVersion: "2026-07-28", clientCapabilities: { elicitation: {} }, clientVersion: "0.15.0" });
    for (const request of requests) {
      expect("_meta" in request).toBe(false);
      expect(isJsonObject(request.params) ? request.params._meta : undefined).toEqual(meta);
    }
  });

  it("follows the cursor over three tools at two per page and keeps each tool verbatim", async () => {
    const { client } = await startStdioClient();
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["alpha", "beta", "gamma"]);
    expect(tools[1]).toEqual({
      name: "beta",
      title: "Beta",
      description: "Second tool",
      inputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        $defs: { id: { type: "string", $anchor: "ident" } },
        properties: { id: { $ref: "#/$defs/id" } },
        additionalProperties: false,
      },
      outputSchema: { type: "string" },
      annotations: { readOnlyHint: true },
      _meta: { "com.example/owner": "tests" },
    });
    const lists = requestsOf(await receivedByServer(client), "tools/list");
    expect(lists.map((r) => (isJsonObject(r.params) ? r.params.cursor : "?"))).toEqual([undefined, "b3BhcXVlLTI="]);
  });

  it("sends a further request for an empty-string cursor", async () => {
    const { client } = await startStdioClient(["--pages=empty-cursor"]);
    expect((await client.listTools()).map((t) => t.name)).toEqual(["alpha", "beta", "gamma"]);
    const lists = requestsOf(await receivedByServer(client), "tools/list");
    expect(lists.map((r) => (isJsonObject(r.params) ? r.params.cursor : "?"))).toEqual([undefined, ""]);
  });

  it("stops with an error when the server repeats a cursor", async () => {
    const { client } = await startStdioClient(["--pages=repeat"]);
    expect(summary(await rejection(client.listTools()))).toEqual({
      kind: "protocol",
      message: 'tools/list page 2: the cursor "again" was already used; the list would never end',
      server: "scripted",
    });
  });

  it("retries once under a new id with a mutual version after -32022", async () => {
    const { client, wire } = await startStdioClient(["--reject-first-version", "--versions=2099-01-01,2026-07-28"]);
    expect((await discover(wire)).protocolVersion).toBe("2026-07-28");
    const discovers = requestsOf(await receivedByServer(client), "server/discover");
    expect(discovers.map((r) => r.id)).toEqual([1, 2]);
  });

  it("surfaces -32022 without retrying when no version is mutual", async () => {
    const { wire } = await startStdioClient(["--versions=2099-01-01"]);
    const error = await rejection(discover(wire));
    expect({ ...summary(error), code: error.code, data: error.data }).toEqual({
      kind: "server",
      message: "Unsupported protocol version (code -32022); the server supports 2099-01-01, mca supports 2026-07-28",
      server: "scripted",
      code: -32022,
      data: { supported: ["2099-01-01"], requested: "2026-07-28" },
    });
  });

  it("returns input_required as its own outcome", async () => {
    const { client } = await startStdioClient();
    expect(await client.callTool("input-required", {})).toEqual({
      kind: "input_required",
      inputRequests: { who: { method: "elicitation/create", params: { mode: "form", message: "Login?" } } },
      requestState: "opaque-state",
    });
  });

  it("treats a missing resultType as complete", async () => {
    const { client } = await startStdioClient();
    expect(await client.callTool("no-result-type", {})).toEqual({ kind: "complete", content: [{ type: "text", text: "legacy" }], isError: true });
  });

  it("rejects an unknown resultType as a protocol error", async () => {
    const { client } = await startStdioClient();
    expect(summary(await rejection(client.callTool("unknown-result-type", {})))).toEqual({
      kind: "protocol",
      message: 'tools/call unknown-result-type: unknown resultType "later"',
      server: "scripted",
    });
  });

  it("gives a call its own progress and log notifications and the rest to the client-wide listener", async () => {
    const { client, notifications } = await startStdioClient();
    const own: JsonRpcNotification[] = [];
    const outcome = await client.callTool("notify-first", {}, { wantProgress: true, logLevel: "info", onNotification: (n) => own.push(n) });
    expect(outcome).toEqual({ kind: "complete", content: [{ type: "text", text: "done" }], isError: false });
    expect(own).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "mca-1", progress: 1, total: 2 } },
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } },
    ]);
    expect(notifications).toEqual([
      { jsonrpc: "2.0", method: "notifications/tools/list_changed", params: {} },
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "someone-else", progress: 1 } },
    ]);
  });

  it("names the method and the server when a call times out, and drops the late response", async () => {
    const { client } = await startStdioClient();
    expect(summary(await rejection(client.callTool("late", { delayMs: 400, tag: "first" }, { timeoutMs: 20 })))).toEqual({
      kind: "timeout",
      message: "tools/call timed out after 20 ms",
      server: "scripted",
    });
    // Asked later with the same delay, this one is answered after the dropped one has arrived.
    expect(await client.callTool("late", { delayMs: 400, tag: "second" })).toEqual({ kind: "complete", content: [{ type: "text", text: "second" }], isError: false });
  });

  it("settles an aborted call at once and tells the server with notifications/cancelled", async () => {
    const { client } = await startStdioClient();
    const controller = new AbortController();
    const call = rejection(client.callTool("never", {}, { signal: controller.signal }));
    controller.abort();
    expect((await call).kind).toBe("aborted");
    const cancelled = (await receivedByServer(client)).filter((m) => m.method === "notifications/cancelled");
    expect(cancelled).toEqual([{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "aborted by the client" } }]);
  });

  it("fails every pending call at once when the client closes", async () => {
    const { client } = await startStdioClient();
    const pending = [1, 2, 3].map(() => rejection(client.callTool("never", {})));
    await client.close();
    const errors = await Promise.all(pending);
    expect(errors.map(summary)).toEqual(Array(3).fill({ kind: "closed", message: "connection closed", server: "scripted" }));
    expect(client.close()).toBe(client.close());
  });

  it("fails start at once when the server cannot be spawned", async () => {
    const transport = createStdioTransport({ label: "ghost", command: "/nonexistent/mca-server" });
    const wire = createWire({ transport, clientVersion: "0.15.0" });
    const client = createModernClient(wire);
    opened.push(client);
    const error = await rejection(wire.start());
    expect(summary(error)).toEqual({ kind: "unreachable", message: "cannot start `/nonexistent/mca-server`: command not found (ENOENT)", server: "ghost" });
    expect(await rejection(client.listTools())).toBe(error);
  });
});

describe("a client's watchLists", () => {
  const discovered = (capabilities: JsonObject): ScriptedReply => ({
    result: { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities, serverInfo: { name: "notes", version: "1" }, ttlMs: 0, cacheScope: "public" },
  });
  const ofSubscription = (method: string, id: unknown, params: JsonObject = {}): JsonRpcNotification => ({
    jsonrpc: "2.0",
    method,
    params: { ...params, _meta: { "io.modelcontextprotocol/subscriptionId": id } },
  });

  async function modernClient(capabilities: JsonObject) {
    const transport = createInMemoryTransport({ label: "notes", answer: (request) => (request.method === "server/discover" ? discovered(capabilities) : "silent") });
    const wire = createWire({ transport, clientVersion: "9.9.9", requestTimeoutMs: 5 });
    await wire.start();
    const client = await openModernClient(wire);
    const changes: string[] = [];
    client.watchLists((kind) => void changes.push(kind));
    return { client, transport, changes };
  }

  it("opens one subscriptions/listen for the kinds the server says change, without a deadline, and hears its notifications alone", async () => {
    const { client, transport, changes } = await modernClient({ tools: { listChanged: true }, prompts: {}, resources: { listChanged: true } });
    const listen = transport.requests().find((request) => request.method === "subscriptions/listen");
    transport.deliver(ofSubscription("notifications/subscriptions/acknowledged", listen?.id, { notifications: { toolsListChanged: true } }));
    transport.deliver(ofSubscription("notifications/tools/list_changed", listen?.id));
    transport.deliver(ofSubscription("notifications/resources/list_changed", 99));
    transport.deliver({ jsonrpc: "2.0", method: "notifications/prompts/list_changed" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect({ params: listen?.params, changes, cancelled: transport.notifications() }).toEqual({
      params: { notifications: { toolsListChanged: true, resourcesListChanged: true }, _meta: META },
      changes: ["tools"],
      cancelled: [],
    });
    await client.close();
  });

  it("ends the subscription with notifications/cancelled as it closes, before the transport closes", async () => {
    const { client, transport } = await modernClient({ tools: { listChanged: true } });
    const closesBefore = transport.closeCalls();
    await client.close();
    expect({ closesBefore, last: transport.sent.at(-1), closes: transport.closeCalls() }).toEqual({
      closesBefore: 0,
      last: { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "aborted by the client" } },
      closes: 1,
    });
  });

  it("opens nothing for a server that declares no list as changing", async () => {
    const { client, transport } = await modernClient({ tools: {} });
    expect(transport.requests().map((request) => request.method)).toEqual(["server/discover"]);
    await client.close();
  });

  it("hears a legacy server's list_changed notifications, which need no subscription", async () => {
    const transport = createInMemoryTransport({
      label: "old",
      answer: () => ({ result: { protocolVersion: "2025-11-25", capabilities: { tools: { listChanged: true } }, serverInfo: { name: "old", version: "1" } } }),
    });
    const wire = createWire({ transport, clientVersion: "9.9.9" });
    await wire.start();
    const client = await openLegacyClient(wire);
    const changes: string[] = [];
    client.watchLists((kind) => void changes.push(kind));
    transport.deliver({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    transport.deliver({ jsonrpc: "2.0", method: "notifications/prompts/list_changed" });
    expect({ changes, methods: transport.requests().map((request) => request.method) }).toEqual({ changes: ["tools", "prompts"], methods: ["initialize"] });
    await client.close();
  });
});

describe("a client's watchLists over Streamable HTTP", () => {
  it("hears the changes on the listen request's event stream as it stays open, and closes that stream as the client closes", async () => {
    const subscription = { _meta: { "io.modelcontextprotocol/subscriptionId": 2 } };
    const server = await startScriptedHttpServer([
      {
        method: "server/discover",
        reply: {
          kind: "json",
          body: { jsonrpc: "2.0", id: 1, result: { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: { listChanged: true } }, ttlMs: 0, cacheScope: "public" } },
        },
      },
      {
        method: "subscriptions/listen",
        reply: {
          kind: "sse",
          parts: [
            sseEvent({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { toolsListChanged: true }, ...subscription } }),
            sseEvent({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: subscription }),
          ],
          then: "hold",
        },
      },
    ]);
    // Long enough for server/discover on a loaded machine, short enough to wait past.
    const requestTimeoutMs = 400;
    const wire = createWire({ transport: createHttpTransport({ label: "notes", url: server.url }), clientVersion: "9.9.9", requestTimeoutMs });
    try {
      await wire.start();
      const client = await openModernClient(wire);
      const changed = new Promise<string>((resolve) => client.watchLists(resolve));
      const listen = await server.request(1);
      expect({ kind: await changed, accepted: client.subscribedLists(), body: listen.body }).toEqual({
        kind: "tools",
        accepted: ["tools"],
        body: { jsonrpc: "2.0", id: 2, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: META } },
      });
      // Past the client's request timeout, the stream is still open: a subscription has no deadline.
      const pastTheTimeout = new Promise<string>((resolve) => setTimeout(() => resolve("open"), 2 * requestTimeoutMs));
      expect(await Promise.race([listen.socketClosed.then(() => "closed"), pastTheTimeout])).toBe("open");
      await client.close();
      await listen.socketClosed;
      expect({ missing: server.missing(), unexpected: server.unexpected.length }).toEqual({ missing: [], unexpected: 0 });
    } finally {
      await wire.close();
      await server.close();
    }
  });
});
