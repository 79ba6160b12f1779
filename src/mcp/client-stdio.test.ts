import { afterEach, describe, expect, it } from "vitest";
import { createMcpClient, type McpClient, type McpClientOptions } from "./client.js";
import { isJsonObject, type JsonObject, type JsonRpcNotification } from "./jsonrpc.js";
import { createStdioTransport } from "./stdio-transport.js";
import { rejection } from "./test-support/mcp-rejection.js";
import { receivedByServer } from "./test-support/received-by-server.js";
import { scriptedStdioServer } from "./test-support/scripted-stdio-server.js";

const opened: McpClient[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((client) => client.close()));
});

async function startClient(flags: string[] = [], options: Partial<McpClientOptions> = {}) {
  const warnings: string[] = [];
  const notifications: JsonRpcNotification[] = [];
  const transport = createStdioTransport({ label: "scripted", ...scriptedStdioServer(...flags) });
  const client = createMcpClient({
    transport,
    clientVersion: "0.15.0",
    onWarning: (w) => warnings.push(w),
    onNotification: (n) => notifications.push(n),
    ...options,
  });
  opened.push(client);
  await client.start();
  return { client, warnings, notifications };
}

const requestsOf = (messages: JsonObject[], method: string) => messages.filter((m) => m.method === method && "id" in m);

describe("createMcpClient over stdio", () => {
  it("discovers the server's versions, capabilities, instructions and identity", async () => {
    const { client } = await startClient();
    expect(await client.discover()).toEqual({
      protocolVersion: "2026-07-28",
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: {} },
      instructions: "Be kind.",
      serverInfo: { name: "scripted", version: "1.2.3" },
    });
  });

  it("puts _meta with version, capabilities and client info on the params of every request", async () => {
    const { client } = await startClient([], { capabilities: { elicitation: {} } });
    await client.discover();
    await client.listTools();
    await client.callTool("echo", { a: 1 });
    const requests = (await receivedByServer(client)).filter((m) => "id" in m);
    expect(requests.map((r) => r.method)).toEqual(["server/discover", "tools/list", "tools/list", "tools/call", "tools/call"]);
    for (const request of requests) {
      expect("_meta" in request).toBe(false);
      expect(isJsonObject(request.params) ? request.params._meta : undefined).toEqual({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
        "io.modelcontextprotocol/clientInfo": { name: "mca", version: "0.15.0" },
      });
    }
  });

  it("follows the cursor over three tools at two per page and keeps each tool verbatim", async () => {
    const { client } = await startClient();
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
    const { client } = await startClient(["--pages=empty-cursor"]);
    expect((await client.listTools()).map((t) => t.name)).toEqual(["alpha", "beta", "gamma"]);
    const lists = requestsOf(await receivedByServer(client), "tools/list");
    expect(lists.map((r) => (isJsonObject(r.params) ? r.params.cursor : "?"))).toEqual([undefined, ""]);
  });

  it("stops with an error when the server repeats a cursor", async () => {
    const { client } = await startClient(["--pages=repeat"]);
    const error = await rejection(client.listTools());
    expect([error.kind, error.message]).toEqual([
      "protocol",
      'scripted: tools/list page 2: the cursor "again" was already used; the list would never end',
    ]);
  });

  it("retries once under a new id with a mutual version after -32022", async () => {
    const { client } = await startClient(["--reject-first-version", "--versions=2099-01-01,2026-07-28"]);
    expect((await client.discover()).protocolVersion).toBe("2026-07-28");
    const discovers = requestsOf(await receivedByServer(client), "server/discover");
    expect(discovers.map((r) => r.id)).toEqual([1, 2]);
  });

  it("surfaces -32022 without retrying when no version is mutual", async () => {
    const { client } = await startClient(["--versions=2099-01-01"]);
    const error = await rejection(client.discover());
    expect([error.kind, error.code, error.message]).toEqual([
      "server",
      -32022,
      "scripted: Unsupported protocol version (code -32022); the server supports 2099-01-01, mca supports 2026-07-28",
    ]);
    expect(error.data).toEqual({ supported: ["2099-01-01"], requested: "2026-07-28" });
  });

  it("returns input_required as its own outcome", async () => {
    const { client } = await startClient();
    expect(await client.callTool("input-required", {})).toEqual({
      kind: "input_required",
      inputRequests: { who: { method: "elicitation/create", params: { mode: "form", message: "Login?" } } },
      requestState: "opaque-state",
    });
  });

  it("treats a missing resultType as complete", async () => {
    const { client } = await startClient();
    expect(await client.callTool("no-result-type", {})).toEqual({
      kind: "complete",
      content: [{ type: "text", text: "legacy" }],
      isError: true,
    });
  });

  it("rejects an unknown resultType as a protocol error", async () => {
    const { client } = await startClient();
    const error = await rejection(client.callTool("unknown-result-type", {}));
    expect([error.kind, error.message]).toEqual(["protocol", 'scripted: tools/call unknown-result-type: unknown resultType "later"']);
  });

  it("gives a call its own progress and log notifications and the rest to the client-wide listener", async () => {
    const { client, notifications } = await startClient();
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
    const { client } = await startClient();
    const error = await rejection(client.callTool("late", { delayMs: 400, tag: "first" }, { timeoutMs: 20 }));
    expect([error.kind, error.message]).toEqual(["timeout", "scripted: tools/call timed out after 20 ms"]);
    // Asked later with the same delay, this one is answered after the dropped one has arrived.
    expect(await client.callTool("late", { delayMs: 400, tag: "second" })).toEqual({
      kind: "complete",
      content: [{ type: "text", text: "second" }],
      isError: false,
    });
  });

  it("settles an aborted call at once and tells the server with notifications/cancelled", async () => {
    const { client } = await startClient();
    const controller = new AbortController();
    const call = rejection(client.callTool("never", {}, { signal: controller.signal }));
    controller.abort();
    expect((await call).kind).toBe("aborted");
    const cancelled = (await receivedByServer(client)).filter((m) => m.method === "notifications/cancelled");
    expect(cancelled).toEqual([
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "aborted by the client" } },
    ]);
  });

  it("fails every pending call at once when the client closes", async () => {
    const { client } = await startClient();
    const pending = [1, 2, 3].map(() => rejection(client.callTool("never", {})));
    await client.close();
    const errors = await Promise.all(pending);
    expect(errors.map((e) => [e.kind, e.message])).toEqual(Array(3).fill(["closed", "scripted: connection closed"]));
    expect(client.close()).toBe(client.close());
  });

  it("fails start at once when the server cannot be spawned", async () => {
    const transport = createStdioTransport({ label: "ghost", command: "/nonexistent/mca-server" });
    const client = createMcpClient({ transport, clientVersion: "0.15.0" });
    opened.push(client);
    const error = await rejection(client.start());
    expect([error.kind, error.message]).toEqual(["unreachable", "ghost: cannot start `/nonexistent/mca-server`: command not found (ENOENT)"]);
    expect((await rejection(client.listTools())).message).toBe(error.message);
  });
});
