import { afterEach, describe, expect, it } from "vitest";
import type { McpClient } from "../client.js";
import { openLegacyClient } from "../legacy-client.js";
import { createWire } from "../wire.js";
import type { InputRequest, InputResponder } from "../input.js";
import { startScriptedHttpServer } from "../test-support/scripted-http-server.js";
import { startStatefulSdkServer } from "../test-support/sdk-v1-http-server.js";
import { createHeaderTable } from "./headers.js";
import { createHttpTransport } from "./transport.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The form an SDK v1 tool asks for outside its request (no related request: the SDK sends it on the GET stream). */
const FORM = {
  message: "Who are you?",
  requestedSchema: {
    type: "object" as const,
    properties: {
      name: { type: "string" as const, default: "John Doe" },
      age: { type: "integer" as const, default: 30 },
      status: { type: "string" as const, enum: ["active", "inactive"], default: "active" },
      verified: { type: "boolean" as const, default: true },
      note: { type: "string" as const },
    },
  },
};

async function legacyClient(url: string, responder: InputResponder): Promise<McpClient> {
  const headerTable = createHeaderTable();
  const transport = createHttpTransport({ label: "v1", url, headerTable });
  const wire = createWire({ transport, headerTable, clientVersion: "0.15.0", capabilities: { elicitation: { form: {} } }, inputResponder: responder });
  cleanups.push(() => wire.close());
  await wire.start();
  return openLegacyClient(wire);
}

describe("a legacy HTTP session's listening stream", () => {
  it("brings an SDK v1 server's elicitation/create asked outside any request, answered with the form's defaults where the person left fields out", async () => {
    const server = await startStatefulSdkServer((mcp) => {
      mcp.registerTool("ask", { description: "Asks who you are." }, async () => {
        const answer = await mcp.server.elicitInput(FORM);
        return { content: [{ type: "text", text: JSON.stringify(answer) }] };
      });
    });
    cleanups.push(() => server.close());
    const asked: InputRequest[] = [];
    const client = await legacyClient(server.url, {
      support: { elicitationForm: true },
      answer: async (requests) => {
        asked.push(...Object.values(requests));
        return { request: { action: "accept", content: { name: "Ada" } } };
      },
    });
    const outcome = await client.callTool("ask", {});
    expect(asked.map((request) => request.kind)).toEqual(["elicit-form"]);
    expect(outcome).toMatchObject({
      kind: "complete",
      content: [{ type: "text", text: JSON.stringify({ action: "accept", content: { age: 30, status: "active", verified: true, name: "Ada" } }) }],
    });
    expect(server.requests.filter((request) => request.method === "GET").length).toBeGreaterThan(0);
  });

  it("is asked for with the session, and a server that offers none (405) goes on serving the session", async () => {
    const server = await startScriptedHttpServer([
      { method: "initialize", reply: { kind: "json", body: { jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } } }, headers: { "Mcp-Session-Id": "sess-1" } } },
      { method: "notifications/initialized", reply: { kind: "text", status: 202, body: "" } },
      { method: "tools/list", reply: { kind: "json", body: { jsonrpc: "2.0", id: 2, result: { tools: [] } } } },
    ]);
    cleanups.push(() => server.close());
    const client = await legacyClient(server.url, { support: {}, answer: async () => ({ abandon: "unused" }) });
    const listen = await server.listen(0);
    expect({ tools: await client.listTools(), session: listen.headers["mcp-session-id"], accept: listen.headers.accept }).toEqual({
      tools: [],
      session: "sess-1",
      accept: "text/event-stream",
    });
    expect({ missing: server.missing(), unexpected: server.unexpected.length }).toEqual({ missing: [], unexpected: 0 });
  });
});
