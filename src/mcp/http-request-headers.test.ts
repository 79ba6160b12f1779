import { describe, expect, it } from "vitest";
import { buildRequestHeaders, messageProtocolVersion, userHeaders } from "./http-request-headers.js";
import type { JsonRpcMessage } from "./jsonrpc.js";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };

function headersFor(message: JsonRpcMessage): Record<string, string> {
  return buildRequestHeaders({
    message,
    protocolVersion: messageProtocolVersion(message),
    paramHeaders: [],
    sessionId: undefined,
    userHeaders: {},
    contentLength: 10,
  });
}

describe("messageProtocolVersion", () => {
  it("reads the version from params._meta", () => {
    expect(messageProtocolVersion({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } })).toBe(
      "2026-07-28",
    );
  });

  it("reads the requested version of a legacy initialize", () => {
    const initialize: JsonRpcMessage = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25" } };
    expect(messageProtocolVersion(initialize)).toBe("2025-11-25");
  });

  it("is undefined for a message that names no version", () => {
    expect(messageProtocolVersion({ jsonrpc: "2.0", method: "notifications/initialized" })).toBeUndefined();
    expect(messageProtocolVersion({ jsonrpc: "2.0", id: 1, result: {} })).toBeUndefined();
  });
});

describe("buildRequestHeaders", () => {
  it("sends Mcp-Name with params.name for tools/call, sentinel-encoded when not plain ASCII", () => {
    const message: JsonRpcMessage = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "grüße", _meta: META } };
    expect(headersFor(message)).toEqual({
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "Content-Length": "10",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "tools/call",
      "Mcp-Name": "=?base64?Z3LDvMOfZQ==?=",
    });
  });

  it("sends Mcp-Name with params.uri for resources/read and params.name for prompts/get", () => {
    const read: JsonRpcMessage = { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "file:///a%20b.txt" } };
    const prompt: JsonRpcMessage = { jsonrpc: "2.0", id: 2, method: "prompts/get", params: { name: "review" } };
    expect(headersFor(read)["Mcp-Name"]).toBe("file:///a%20b.txt");
    expect(headersFor(prompt)["Mcp-Name"]).toBe("review");
  });

  it("sends no Mcp-Name for other methods, even when params has a name", () => {
    const message: JsonRpcMessage = { jsonrpc: "2.0", id: 1, method: "tools/list", params: { name: "x", _meta: META } };
    expect(Object.keys(headersFor(message))).not.toContain("Mcp-Name");
  });

  it("adds Mcp-Param-* values, the session id and the user's headers", () => {
    const message: JsonRpcMessage = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "t" } };
    const headers = buildRequestHeaders({
      message,
      protocolVersion: "2026-07-28",
      paramHeaders: [
        { name: "Region", value: " padded " },
        { name: "Priority", value: "42" },
      ],
      sessionId: "abc",
      userHeaders: userHeaders({ Authorization: "Bearer t", "mcp-method": "forged", "MCP-PARAM-Region": "x" }),
      contentLength: 5,
    });
    expect(headers).toEqual({
      Authorization: "Bearer t",
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "Content-Length": "5",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "tools/call",
      "Mcp-Name": "t",
      "Mcp-Param-Region": "=?base64?IHBhZGRlZCA=?=",
      "Mcp-Param-Priority": "42",
      "Mcp-Session-Id": "abc",
    });
  });
});
