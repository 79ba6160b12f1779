import { describe, expect, it } from "vitest";
import { startTicketsServer, type TicketsServer } from "./tickets.js";
import { spawnTsServer } from "./test-support/child-lines.js";
import { request, valueAt } from "./test-support/meta.js";
import { mcpHeaders, rawRequest } from "./test-support/raw-http.js";

describe("tickets server conformance fixtures", () => {
  async function listNames(server: TicketsServer): Promise<unknown> {
    const response = await rawRequest(server.url, { headers: mcpHeaders("tools/list"), body: JSON.stringify(request(1, "tools/list")) });
    const tools = valueAt(JSON.parse(response.text), "result", "tools");
    return Array.isArray(tools) ? tools.map((tool: unknown) => valueAt(tool, "name")) : tools;
  }

  it("lists the diagnostic tools only when asked to, after the demo's own", async () => {
    const plain = await startTicketsServer({ port: 0 });
    const withFixtures = await startTicketsServer({ port: 0, conformanceFixtures: true });
    try {
      const demo = ["list_open", "search", "tickets_überblick", "assign", "close_ticket"];
      expect(await listNames(plain)).toEqual(demo);
      expect(await listNames(withFixtures)).toEqual([...demo, "test_missing_capability", "test_streaming_elicitation", "test_logging_tool"]);
    } finally {
      await plain.close();
      await withFixtures.close();
    }
  });

  it("answers test_missing_capability with 400 and -32021 naming sampling", async () => {
    const server = await startTicketsServer({ port: 0, conformanceFixtures: true });
    try {
      const body = request(2, "tools/call", { name: "test_missing_capability", arguments: {} });
      const response = await rawRequest(server.url, { headers: mcpHeaders("tools/call", { "Mcp-Name": "test_missing_capability" }), body: JSON.stringify(body) });
      expect({ status: response.status, body: JSON.parse(response.text) }).toMatchObject({
        status: 400,
        body: { id: 2, error: { code: -32021, data: { requiredCapabilities: { sampling: {} } } } },
      });
    } finally {
      await server.close();
    }
  });
});

describe("tickets CLI", () => {
  it("says the port is taken in one line and exits with status 1", async () => {
    const taken = await startTicketsServer({ port: 0 });
    const cli = spawnTsServer("servers/tickets.ts", ["--port", String(taken.port)]);
    try {
      expect(await cli.exited()).toBe(1);
      expect(cli.stderr()).toBe(`tickets: port ${taken.port} is already in use\n`);
    } finally {
      await cli.stop();
      await taken.close();
    }
  });
});
