import { afterEach, describe, expect, it } from "vitest";
import { createMcpClient, type McpClient } from "./client.js";
import { answerLegacyServerRequest } from "./legacy-server-requests.js";
import { negotiateEra } from "./negotiate-era.js";
import { createStdioTransport } from "./stdio-transport.js";
import { legacyStdioServer } from "./test-support/legacy-stdio-server.js";

const opened: McpClient[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((client) => client.close()));
});

describe("answerLegacyServerRequest", () => {
  it("answers ping with an empty result", () => {
    expect(answerLegacyServerRequest({ jsonrpc: "2.0", id: 4, method: "ping", params: {} })).toEqual({ result: {} });
  });

  it("refuses every other request at once with -32601", () => {
    const methods = ["roots/list", "sampling/createMessage", "elicitation/create", "tasks/get"];
    expect(methods.map((method) => answerLegacyServerRequest({ jsonrpc: "2.0", id: 5, method, params: {} }))).toEqual(
      methods.map((method) => ({ error: { code: -32601, message: `mca does not offer ${method}` } })),
    );
  });
});

describe("a legacy stdio server's own requests", () => {
  it("are answered on the wire, so the call that sent them completes", async () => {
    const open = async (): Promise<McpClient> => {
      const client = createMcpClient({ transport: createStdioTransport({ label: "srv", ...legacyStdioServer() }), clientVersion: "0.15.0" });
      opened.push(client);
      await client.start();
      return client;
    };
    const { client } = await negotiateEra(open, { transport: "stdio" });
    const outcome = await client.callTool("ask", {});
    expect(outcome).toEqual({
      kind: "complete",
      content: [{ type: "text", text: "asked" }],
      isError: false,
      structuredContent: {
        answers: [
          { jsonrpc: "2.0", id: "server-1", result: {} },
          { jsonrpc: "2.0", id: "server-2", error: { code: -32601, message: "mca does not offer roots/list" } },
        ],
      },
    });
  });
});
