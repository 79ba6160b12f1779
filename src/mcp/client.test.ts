import { describe, expect, it } from "vitest";
import { createMcpClient } from "./client.js";
import { McpError } from "./errors.js";
import { isJsonObject, type JsonObject, type JsonRpcRequest } from "./jsonrpc.js";
import { createInMemoryTransport, type ScriptedReply } from "./test-support/in-memory-stdio-transport.js";
import { rejection } from "./test-support/mcp-rejection.js";

async function startClient(answer: (request: JsonRpcRequest) => ScriptedReply, kind: "stdio" | "http" = "stdio") {
  const transport = createInMemoryTransport({ label: "srv", kind, answer });
  const warnings: string[] = [];
  const client = createMcpClient({ transport, clientVersion: "9.9.9", onWarning: (w) => warnings.push(w) });
  await client.start();
  return { client, transport, warnings };
}

const broken = (): ScriptedReply => ({ sendFails: new McpError("broken", "srv: the event stream ended before the response") });
const metaOf = (request: JsonRpcRequest): JsonObject => (isJsonObject(request.params._meta) ? request.params._meta : {});
const toolsPage = (tools: unknown[]): ScriptedReply => ({ result: { resultType: "complete", tools } });
const versionError = (supported: string[]): ScriptedReply => ({
  error: { code: -32022, message: "Unsupported protocol version", data: { supported, requested: "2026-07-28" } },
});

describe("createMcpClient", () => {
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
    const error = await rejection(client.callTool("deploy", {}));
    expect([error.kind, error.message]).toEqual(["broken", "srv: the event stream ended before the response"]);
    expect(transport.requests()).toHaveLength(1);
  });

  it("retries a -32022 only once, then surfaces it", async () => {
    const { client, transport } = await startClient(() => versionError(["2026-07-28"]));
    expect((await rejection(client.callTool("t", {}))).code).toBe(-32022);
    expect(transport.requests().map((r) => r.id)).toEqual([1, 2]);
  });

  it("sends the generic request with the same _meta and returns the raw result", async () => {
    const { client, transport } = await startClient(() => ({ result: { resources: [], resultType: "complete" } }));
    expect(await client.request("resources/list", { cursor: "x" })).toEqual({ resources: [], resultType: "complete" });
    const [request] = transport.requests();
    expect(request?.params).toEqual({
      cursor: "x",
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { name: "mca", version: "9.9.9" },
      },
    });
  });

  it("gives each call that wants progress a fresh token", async () => {
    const { client, transport } = await startClient(() => ({ result: { content: [] } }));
    await client.callTool("a", {}, { wantProgress: true });
    await client.callTool("b", {});
    await client.callTool("c", {}, { wantProgress: true, logLevel: "debug" });
    expect(transport.requests().map((r) => [metaOf(r).progressToken, metaOf(r)["io.modelcontextprotocol/logLevel"]])).toEqual([
      ["mca-1", undefined],
      [undefined, undefined],
      ["mca-2", "debug"],
    ]);
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
      'srv: dropping a tool from tools/list: tool "bad": `inputSchema` is not an object',
      'srv: dropping a second tool named "ok": tool names must be unique per server',
    ]);
  });

  it("on HTTP drops a tool with an invalid x-mcp-header and sends the valid ones as param headers", async () => {
    const region = { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } };
    const invalid = { type: "object", properties: { where: { type: "string", "x-mcp-header": "Bad Name" } } };
    const { client, transport, warnings } = await startClient(
      (request) =>
        request.method === "tools/list"
          ? toolsPage([
              { name: "deploy", inputSchema: region },
              { name: "broken", inputSchema: invalid },
            ])
          : { result: { content: [] } },
      "http",
    );
    expect((await client.listTools()).map((t) => t.name)).toEqual(["deploy"]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^srv: dropping tool "broken": property "where": x-mcp-header "Bad Name"/);
    await client.callTool("deploy", { region: "eu-west" });
    expect(transport.sent.at(-1)?.options).toEqual({ paramHeaders: [{ name: "Region", value: "eu-west" }] });
  });

  it("sends no param headers over stdio", async () => {
    const { client, transport } = await startClient(() => ({ result: { content: [] } }));
    await client.callTool("deploy", { region: "eu-west" });
    expect(transport.sent[0]?.options).toBeUndefined();
  });

  it("survives a notification listener that throws, with a warning", async () => {
    const transport = createInMemoryTransport({ label: "srv" });
    const warnings: string[] = [];
    const client = createMcpClient({
      transport,
      clientVersion: "1",
      onWarning: (w) => warnings.push(w),
      onNotification: () => {
        throw new Error("listener bug");
      },
    });
    await client.start();
    transport.deliver({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    expect(warnings).toEqual(["srv: a notification listener failed: listener bug"]);
  });

  it("fails discover when the server speaks no version in common", async () => {
    const { client } = await startClient(() => ({ result: { supportedVersions: ["2025-11-25"], capabilities: {} } }));
    const error = await rejection(client.discover());
    expect([error.kind, error.message]).toEqual([
      "protocol",
      "srv: server/discover: no protocol version in common: the server supports 2025-11-25; mca supports 2026-07-28",
    ]);
  });
});
