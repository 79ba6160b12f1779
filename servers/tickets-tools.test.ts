import { describe, expect, it } from "vitest";
import { request, SERVER_INFO_KEY, valueAt } from "./test-support/meta.js";
import { mcpHeaders, postJson, rawRequest, sseMessages } from "./test-support/raw-http.js";
import { ticketsPerTest } from "./test-support/tickets-per-test.js";
import type { OutgoingHttpHeaders } from "node:http";
import type { JsonObject } from "../src/mcp/index.js";

const SERVER_META = { [SERVER_INFO_KEY]: { name: "tickets", title: "Ticket system (mca demo server)", version: "1.0.0" } };
const ELICITATION = { "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };

describe("tickets server (Streamable HTTP): tools", () => {
  const { server } = ticketsPerTest();

  async function callTool(id: number, name: string, args: JsonObject, extra: { meta?: JsonObject; params?: JsonObject; headers?: OutgoingHttpHeaders } = {}) {
    const body = request(id, "tools/call", { name, arguments: args, ...extra.params }, extra.meta);
    const response = await rawRequest(server().url, { headers: mcpHeaders("tools/call", { "Mcp-Name": name, ...extra.headers }), body: JSON.stringify(body) });
    const parsed: unknown = JSON.parse(response.text);
    return { status: response.status, body: parsed };
  }

  it("streams search: progress before the result, a log message after it", async () => {
    const body = request(1, "tools/call", { name: "search", arguments: { query: "csv" } }, { progressToken: "p-1", "io.modelcontextprotocol/logLevel": "info" });
    const response = await rawRequest(server().url, { headers: mcpHeaders("tools/call", { "Mcp-Name": "search" }), body: JSON.stringify(body) });
    expect({ status: response.status, type: response.headers["content-type"], buffering: response.headers["x-accel-buffering"] }).toEqual({
      status: 200,
      type: "text/event-stream",
      buffering: "no",
    });
    expect(response.text.startsWith("event: message\ndata: ")).toBe(true);
    expect(sseMessages(response.text)).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p-1", progress: 1, total: 2, message: "search: started" } },
      {
        jsonrpc: "2.0",
        id: 1,
        result: {
          content: [{ type: "text", text: "T-2 (open, data) CSV export drops the last row" }],
          structuredContent: { tickets: [{ id: "T-2", title: "CSV export drops the last row", state: "open", queue: "data" }] },
          resultType: "complete",
          _meta: SERVER_META,
        },
      },
      {
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "info", logger: "search", data: "search: finished; this message follows the response on purpose" },
      },
    ]);
  });

  it("streams search without notifications when the request asked for none", async () => {
    const body = request(2, "tools/call", { name: "search", arguments: { query: "nothing like this" } });
    const response = await rawRequest(server().url, { headers: mcpHeaders("tools/call", { "Mcp-Name": "search" }), body: JSON.stringify(body) });
    expect(sseMessages(response.text)).toEqual([
      { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: 'No ticket matches "nothing like this".' }], structuredContent: { tickets: [] }, resultType: "complete", _meta: SERVER_META } },
    ]);
  });

  it("answers search as plain JSON to a client that does not accept an event stream", async () => {
    const body = request(16, "tools/call", { name: "search", arguments: { query: "T-3" } }, { progressToken: 7 });
    const headers = mcpHeaders("tools/call", { "Mcp-Name": "search", Accept: "application/json" });
    expect(await postJson(server().url, body, headers)).toMatchObject({
      status: 200,
      body: { id: 16, result: { resultType: "complete", content: [{ text: "T-3 (closed, web) Dark mode: settings page is unreadable" }] } },
    });
  });

  it("lists the open tickets when called with {}", async () => {
    expect(await callTool(3, "list_open", {})).toMatchObject({
      status: 200,
      body: { id: 3, result: { content: [{ type: "text", text: expect.stringMatching(/^T-1 \(open, web\)/) }] } },
    });
  });

  it("accepts a matching Mcp-Param header, plain or base64-encoded", async () => {
    expect(await callTool(4, "assign", { id: "T-2", queue: "web" }, { headers: { "Mcp-Param-Queue": "web" } })).toMatchObject({
      status: 200,
      body: { result: { content: [{ text: "Ticket T-2 moved to queue web (was data)." }] } },
    });
    const encoded = `=?base64?${Buffer.from("Hello").toString("base64")}?=`;
    expect(await callTool(5, "assign", { id: "T-2", queue: "Hello" }, { headers: { "mcp-param-queue": encoded } })).toMatchObject({ status: 200 });
  });

  it("rejects a mismatching, missing or malformed Mcp-Param header with 400 and -32020", async () => {
    expect(await callTool(6, "assign", { id: "T-2", queue: "web" }, { headers: { "Mcp-Param-Queue": "data" } })).toEqual({
      status: 400,
      body: { jsonrpc: "2.0", id: 6, error: { code: -32020, message: 'Header mismatch: Mcp-Param-Queue "data" differs from arguments.queue "web"' } },
    });
    expect(await callTool(7, "assign", { id: "T-2", queue: "web" })).toEqual({
      status: 400,
      body: { jsonrpc: "2.0", id: 7, error: { code: -32020, message: "Header mismatch: the Mcp-Param-Queue header is missing while arguments.queue is set" } },
    });
    for (const malformed of ["=?base64?SGVsbG8?=", "=?base64?SGVs!!!bG8=?="]) {
      expect(await callTool(8, "assign", { id: "T-2", queue: "Hello" }, { headers: { "Mcp-Param-Queue": malformed } })).toMatchObject({
        status: 400,
        body: { id: 8, error: { code: -32020 } },
      });
    }
  });

  it("asks for confirmation before closing a ticket, then closes it on the retry", async () => {
    const first = await callTool(9, "close_ticket", { id: "T-1" }, { meta: ELICITATION });
    expect(first).toEqual({
      status: 200,
      body: {
        jsonrpc: "2.0",
        id: 9,
        result: {
          resultType: "input_required",
          inputRequests: {
            confirm: {
              method: "elicitation/create",
              params: {
                mode: "form",
                message: "Close ticket T-1?",
                requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
              },
            },
          },
          requestState: expect.any(String),
          _meta: SERVER_META,
        },
      },
    });
    const retry = {
      params: { inputResponses: { confirm: { action: "accept", content: { confirm: true } } }, requestState: valueAt(first.body, "result", "requestState") },
      meta: ELICITATION,
    };
    expect(await callTool(10, "close_ticket", { id: "T-1" }, retry)).toEqual({
      status: 200,
      body: { jsonrpc: "2.0", id: 10, result: { content: [{ type: "text", text: "Ticket T-1 closed" }], resultType: "complete", _meta: SERVER_META } },
    });
    const open = await callTool(11, "list_open", {});
    expect(valueAt(open.body, "result", "structuredContent", "tickets")).toEqual([
      { id: "T-2", title: "CSV export drops the last row", state: "open", queue: "data" },
      { id: "T-4", title: "Umlaute in Ticket-Titeln werden falsch angezeigt (ä, ö, ü)", state: "open", queue: "i18n" },
    ]);
  });

  it("leaves the ticket open when the user declines", async () => {
    const first = await callTool(12, "close_ticket", { id: "T-2" }, { meta: ELICITATION });
    const retry = { params: { inputResponses: { confirm: { action: "decline" } }, requestState: valueAt(first.body, "result", "requestState") }, meta: ELICITATION };
    expect(await callTool(13, "close_ticket", { id: "T-2" }, retry)).toMatchObject({
      status: 200,
      body: { result: { resultType: "complete", content: [{ text: "Ticket T-2 stays open: the user did not confirm (decline)." }] } },
    });
  });

  it("refuses a retry whose requestState was altered", async () => {
    const retry = { params: { inputResponses: { confirm: { action: "accept", content: { confirm: true } } }, requestState: "forged" }, meta: ELICITATION };
    expect(await callTool(14, "close_ticket", { id: "T-1" }, retry)).toMatchObject({ status: 400, body: { id: 14, error: { code: -32602 } } });
  });

  it("answers close_ticket with 400 and -32021 when the client did not declare elicitation", async () => {
    expect(await callTool(15, "close_ticket", { id: "T-1" })).toEqual({
      status: 400,
      body: {
        jsonrpc: "2.0",
        id: 15,
        error: {
          code: -32021,
          message: "Missing required client capability: elicitation (close_ticket asks the user to confirm)",
          data: { requiredCapabilities: { elicitation: {} } },
        },
      },
    });
  });
});
