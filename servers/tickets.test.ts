import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { encodeHeaderValue } from "../src/mcp/header-value.js";
import { startTicketsServer, type TicketsServer } from "./tickets.js";
import { meta, request, SERVER_INFO_KEY, VERSION } from "./test-support/meta.js";
import { mcpHeaders, rawRequest, type RawResponse } from "./test-support/raw-http.js";
import type { OutgoingHttpHeaders } from "node:http";

const SERVER_INFO = { name: "tickets", title: "Ticket system (mca demo server)", version: "1.0.0" };
const MISSING_KEYS = ["io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities"];

describe("tickets server (Streamable HTTP): protocol and headers", () => {
  let server: TicketsServer;

  beforeEach(async () => {
    server = await startTicketsServer({ port: 0 });
  });
  afterEach(async () => {
    await server.close();
  });

  async function post(body: unknown, headers: OutgoingHttpHeaders): Promise<{ status: number; body: unknown }> {
    const response: RawResponse = await rawRequest(server.url, { headers, body: JSON.stringify(body) });
    expect(response.headers["content-type"]).toBe("application/json");
    return { status: response.status, body: JSON.parse(response.text) };
  }

  it("listens on 127.0.0.1 at /mcp", () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/mcp`);
  });

  it("answers server/discover with versions, capabilities, identity and cache hints", async () => {
    expect(await post(request(1, "server/discover"), mcpHeaders("server/discover"))).toEqual({
      status: 200,
      body: {
        jsonrpc: "2.0",
        id: 1,
        result: {
          supportedVersions: [VERSION],
          capabilities: { tools: {}, prompts: {}, resources: {} },
          resultType: "complete",
          ttlMs: 60_000,
          cacheScope: "public",
          _meta: { [SERVER_INFO_KEY]: SERVER_INFO },
        },
      },
    });
  });

  it("lists its tools on one page, list_open first, every one described", async () => {
    const { status, body } = await post(request(2, "tools/list"), mcpHeaders("tools/list"));
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: 2, result: { resultType: "complete", ttlMs: 60_000, cacheScope: "public" } });
    const tools = toolsOf(body);
    expect(tools.map((tool) => tool.name)).toEqual(["list_open", "search", "tickets_überblick", "assign", "close_ticket"]);
    expect(tools.every((tool) => typeof tool.description === "string" && tool.description.length > 0)).toBe(true);
    expect(tools.find((tool) => tool.name === "search")?.annotations).toEqual({ readOnlyHint: true });
    expect(body).not.toHaveProperty("result.nextCursor");
  });

  it("answers the empty prompt and resource lists with cache hints", async () => {
    const lists = [
      ["prompts/list", { prompts: [] }],
      ["resources/list", { resources: [] }],
      ["resources/templates/list", { resourceTemplates: [] }],
    ] as const;
    for (const [method, empty] of lists) {
      expect(await post(request(3, method), mcpHeaders(method))).toEqual({
        status: 200,
        body: {
          jsonrpc: "2.0",
          id: 3,
          result: { ...empty, resultType: "complete", ttlMs: 60_000, cacheScope: "public", _meta: { [SERVER_INFO_KEY]: SERVER_INFO } },
        },
      });
    }
  });

  it("answers resources/read of an unknown uri with -32602 carrying the uri", async () => {
    const uri = "test://nonexistent-resource-for-conformance-testing";
    expect(await post(request(4, "resources/read", { uri }), mcpHeaders("resources/read", { "Mcp-Name": uri }))).toEqual({
      status: 400,
      body: { jsonrpc: "2.0", id: 4, error: { code: -32602, message: `Resource not found: ${uri}`, data: { uri } } },
    });
  });

  it("rejects an Mcp-Method that differs from the body method with 400 and -32020", async () => {
    expect(await post(request(5, "tools/list"), mcpHeaders("prompts/list"))).toEqual({
      status: 400,
      body: {
        jsonrpc: "2.0",
        id: 5,
        error: { code: -32020, message: 'Header mismatch: Mcp-Method "prompts/list" differs from the body method "tools/list"' },
      },
    });
  });

  it("treats header values as case-sensitive and header names as case-insensitive", async () => {
    expect(await post(request(6, "tools/list"), mcpHeaders("TOOLS/LIST"))).toMatchObject({ status: 400, body: { error: { code: -32020 } } });
    const lowerCase = { ...mcpHeaders("tools/list"), "Mcp-Method": undefined, "mcp-method": "tools/list" };
    expect(await post(request(7, "tools/list"), lowerCase)).toMatchObject({ status: 200, body: { id: 7 } });
    const upperCase = { ...mcpHeaders("tools/list"), "Mcp-Method": undefined, "MCP-METHOD": "tools/list" };
    expect(await post(request(7, "tools/list"), upperCase)).toMatchObject({ status: 200, body: { id: 7 } });
  });

  it("rejects a missing MCP-Protocol-Version header with 400 and -32020", async () => {
    const headers = { ...mcpHeaders("tools/list"), "MCP-Protocol-Version": undefined };
    expect(await post(request(8, "tools/list"), headers)).toEqual({
      status: 400,
      body: { jsonrpc: "2.0", id: 8, error: { code: -32020, message: "Header mismatch: the MCP-Protocol-Version header is missing" } },
    });
  });

  it("rejects an unsupported version in both header and _meta with 400 and -32022 listing the supported ones", async () => {
    const body = { jsonrpc: "2.0", id: 9, method: "server/discover", params: { _meta: meta({ "io.modelcontextprotocol/protocolVersion": "v999.0.0" }) } };
    expect(await post(body, mcpHeaders("server/discover", { "MCP-Protocol-Version": "v999.0.0" }))).toEqual({
      status: 400,
      body: {
        jsonrpc: "2.0",
        id: 9,
        error: { code: -32022, message: "Unsupported protocol version: v999.0.0", data: { supported: [VERSION], requested: "v999.0.0" } },
      },
    });
  });

  it("rejects a header version that differs from the _meta version with -32020", async () => {
    const body = { jsonrpc: "2.0", id: 10, method: "server/discover", params: { _meta: meta({ "io.modelcontextprotocol/protocolVersion": "v999.0.0" }) } };
    expect(await post(body, mcpHeaders("server/discover"))).toMatchObject({ status: 400, body: { id: 10, error: { code: -32020 } } });
  });

  it("rejects _meta sent on the top level of the message with 400 and -32602 naming the missing keys", async () => {
    const body = { jsonrpc: "2.0", id: 11, method: "tools/list", _meta: meta() };
    expect(await post(body, mcpHeaders("tools/list"))).toEqual({
      status: 400,
      body: {
        jsonrpc: "2.0",
        id: 11,
        error: { code: -32602, message: `Invalid params: params._meta is missing ${MISSING_KEYS.join(", ")}`, data: { missing: MISSING_KEYS } },
      },
    });
  });

  it("accepts the non-ASCII tool name as a base64 sentinel in Mcp-Name", async () => {
    const name = "tickets_überblick";
    const response = await post(request(12, "tools/call", { name, arguments: {} }), mcpHeaders("tools/call", { "Mcp-Name": encodeHeaderValue(name) }));
    expect(response).toMatchObject({
      status: 200,
      body: { id: 12, result: { resultType: "complete", content: [{ type: "text", text: "3 open, 1 closed. Open by queue: data 1, i18n 1, web 1." }] } },
    });
  });

  it("rejects the non-ASCII tool name sent as plain UTF-8 header text", async () => {
    const name = "tickets_überblick";
    const rawUtf8 = Buffer.from(name, "utf8").toString("latin1");
    expect(await post(request(13, "tools/call", { name, arguments: {} }), mcpHeaders("tools/call", { "Mcp-Name": rawUtf8 }))).toEqual({
      status: 400,
      body: {
        jsonrpc: "2.0",
        id: 13,
        error: { code: -32020, message: "Header mismatch: Mcp-Name holds characters that cannot travel as plain header text; use the =?base64?...?= form" },
      },
    });
  });

  it("rejects a missing or different Mcp-Name and trims whitespace around it", async () => {
    const call = request(14, "tools/call", { name: "list_open", arguments: {} });
    expect(await post(call, mcpHeaders("tools/call"))).toMatchObject({ status: 400, body: { id: 14, error: { code: -32020 } } });
    expect(await post(call, mcpHeaders("tools/call", { "Mcp-Name": "wrong_tool_name" }))).toMatchObject({ status: 400, body: { error: { code: -32020 } } });
    expect(await post(call, mcpHeaders("tools/call", { "Mcp-Name": "  list_open  " }))).toMatchObject({ status: 200, body: { id: 14 } });
  });

  it("answers an unknown method, and the removed initialize, with 404 and -32601", async () => {
    expect(await post(request(15, "unknown/method"), mcpHeaders("unknown/method"))).toEqual({
      status: 404,
      body: { jsonrpc: "2.0", id: 15, error: { code: -32601, message: "Method not found: unknown/method" } },
    });
    for (const method of ["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "subscriptions/listen"]) {
      expect(await post(request(16, method), mcpHeaders(method))).toMatchObject({ status: 404, body: { id: 16, error: { code: -32601 } } });
    }
  });

  it("answers an unknown tool with -32602", async () => {
    expect(await post(request(17, "tools/call", { name: "nope", arguments: {} }), mcpHeaders("tools/call", { "Mcp-Name": "nope" }))).toEqual({
      status: 400,
      body: { jsonrpc: "2.0", id: 17, error: { code: -32602, message: "Unknown tool: nope", data: { name: "nope" } } },
    });
  });

  it("answers a body that is not JSON with 400 and -32700, id null", async () => {
    const response = await rawRequest(server.url, { headers: mcpHeaders("tools/list"), body: "{not json" });
    expect({ status: response.status, body: JSON.parse(response.text) }).toEqual({
      status: 400,
      body: { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the message is not valid JSON" } },
    });
  });

  it("accepts a notification with 202 and no body", async () => {
    const response = await rawRequest(server.url, {
      headers: mcpHeaders("notifications/cancelled"),
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }),
    });
    expect({ status: response.status, text: response.text }).toEqual({ status: 202, text: "" });
  });

  it("answers GET with 405 and Allow: POST", async () => {
    const response = await rawRequest(server.url, { method: "GET", headers: { Accept: "text/event-stream" } });
    expect({ status: response.status, allow: response.headers["allow"] }).toEqual({ status: 405, allow: "POST" });
  });

  it("refuses a foreign Origin or Host with 403 and accepts localhost ones", async () => {
    const discover = request(18, "server/discover");
    expect(await post(discover, mcpHeaders("server/discover", { Origin: "http://evil.example.com" }))).toMatchObject({ status: 403 });
    expect(await post(discover, mcpHeaders("server/discover", { Host: "evil.example.com", Origin: "http://evil.example.com" }))).toMatchObject({ status: 403 });
    expect(await post(discover, mcpHeaders("server/discover", { Host: "evil.example.com" }))).toMatchObject({ status: 403 });
    const local = { Host: `localhost:${server.port}`, Origin: `http://localhost:${server.port}` };
    expect(await post(discover, mcpHeaders("server/discover", local))).toMatchObject({ status: 200, body: { id: 18 } });
    expect(await post(discover, mcpHeaders("server/discover", { Origin: "http://[::1]:8080" }))).toMatchObject({ status: 200 });
  });
});

type ListedTool = { name: string; description?: unknown; annotations?: unknown };

function toolsOf(body: unknown): ListedTool[] {
  const result = typeof body === "object" && body !== null && "result" in body ? body.result : undefined;
  const tools = typeof result === "object" && result !== null && "tools" in result ? result.tools : undefined;
  if (!Array.isArray(tools)) throw new Error(`not a tools/list result: ${JSON.stringify(body)}`);
  return tools.map((tool: { name?: unknown; description?: unknown; annotations?: unknown }) => ({
    name: String(tool.name),
    description: tool.description,
    annotations: tool.annotations,
  }));
}
