import { describe, expect, it } from "vitest";
import { request, SERVER_INFO_KEY, VERSION } from "./test-support/meta.js";
import { mcpHeaders, rawRequest } from "./test-support/raw-http.js";
import { ticketsPerTest } from "./test-support/tickets-per-test.js";

const SERVER_INFO = { name: "tickets", title: "Ticket system (mca demo server)", version: "1.0.0" };

describe("tickets server (Streamable HTTP): methods and the endpoint", () => {
  const { server, post } = ticketsPerTest();

  it("listens on 127.0.0.1 at /mcp", () => {
    expect(server().url).toBe(`http://127.0.0.1:${server().port}/mcp`);
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

  it("answers an unknown method, and the removed initialize, with 404 and -32601", async () => {
    expect(await post(request(15, "unknown/method"), mcpHeaders("unknown/method"))).toEqual({
      status: 404,
      body: { jsonrpc: "2.0", id: 15, error: { code: -32601, message: "Method not found: unknown/method" } },
    });
    for (const method of ["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "subscriptions/listen"]) {
      expect(await post(request(16, method), mcpHeaders(method))).toMatchObject({ status: 404, body: { id: 16, error: { code: -32601 } } });
    }
  });

  it("answers a legacy initialize (no version header, no _meta) with 400 and -32022 naming 2026-07-28", async () => {
    const legacyInitialize = {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "inspector", version: "0.17.0" } },
    };
    expect(await post(legacyInitialize, { "Content-Type": "application/json", Accept: "application/json, text/event-stream" })).toEqual({
      status: 400,
      body: {
        jsonrpc: "2.0",
        id: 0,
        error: {
          code: -32022,
          message: "Unsupported protocol version: 2025-06-18 (this server speaks 2026-07-28 only: no initialize handshake; every request carries _meta)",
          data: { supported: ["2026-07-28"], requested: "2025-06-18" },
        },
      },
    });
  });

  it("answers an unknown tool with -32602", async () => {
    expect(await post(request(17, "tools/call", { name: "nope", arguments: {} }), mcpHeaders("tools/call", { "Mcp-Name": "nope" }))).toEqual({
      status: 400,
      body: { jsonrpc: "2.0", id: 17, error: { code: -32602, message: "Unknown tool: nope", data: { name: "nope" } } },
    });
  });

  it("answers a body that is not JSON with 400 and -32700, id null", async () => {
    const response = await rawRequest(server().url, { headers: mcpHeaders("tools/list"), body: "{not json" });
    expect({ status: response.status, body: JSON.parse(response.text) }).toEqual({
      status: 400,
      body: { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the message is not valid JSON" } },
    });
  });

  it("accepts a notification with 202 and no body", async () => {
    const response = await rawRequest(server().url, {
      headers: mcpHeaders("notifications/cancelled"),
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }),
    });
    expect({ status: response.status, text: response.text }).toEqual({ status: 202, text: "" });
  });

  it("answers a body over 1 MiB with 413", async () => {
    const response = await rawRequest(server().url, { headers: mcpHeaders("tools/list"), body: "x".repeat(1024 * 1024 + 1) });
    expect({ status: response.status, body: JSON.parse(response.text) }).toEqual({
      status: 413,
      body: { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Request body exceeds 1048576 bytes" } },
    });
  });

  it("answers GET with 405 and Allow: POST", async () => {
    const response = await rawRequest(server().url, { method: "GET", headers: { Accept: "text/event-stream" } });
    expect({ status: response.status, allow: response.headers["allow"] }).toEqual({ status: 405, allow: "POST" });
  });

  it("refuses a foreign Origin or Host with 403 and accepts localhost ones", async () => {
    const discover = request(18, "server/discover");
    expect(await post(discover, mcpHeaders("server/discover", { Origin: "http://evil.example.com" }))).toMatchObject({ status: 403 });
    expect(await post(discover, mcpHeaders("server/discover", { Host: "evil.example.com", Origin: "http://evil.example.com" }))).toMatchObject({ status: 403 });
    expect(await post(discover, mcpHeaders("server/discover", { Host: "evil.example.com" }))).toMatchObject({ status: 403 });
    const local = { Host: `localhost:${server().port}`, Origin: `http://localhost:${server().port}` };
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
