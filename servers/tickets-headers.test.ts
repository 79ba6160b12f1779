import { describe, expect, it } from "vitest";
import { encodeHeaderValue } from "../src/mcp/index.js";
import { meta, request, VERSION } from "./test-support/meta.js";
import { mcpHeaders } from "./test-support/raw-http.js";
import { ticketsPerTest } from "./test-support/tickets-per-test.js";

const MISSING_KEYS = ["io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities"];

describe("tickets server (Streamable HTTP): header, version and _meta checks", () => {
  const { post } = ticketsPerTest();

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
});
