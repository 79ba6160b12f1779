import { afterEach, describe, expect, it } from "vitest";
import { negotiateEra } from "./era.js";
import { HttpFailure } from "./http/failure.js";
import { createHeaderTable } from "./http/headers.js";
import { createHttpTransport } from "./http/transport.js";
import { rejection } from "./test-support/mcp-rejection.js";
import {
  sseEvent,
  startScriptedHttpServer,
  type ScriptedExchange,
  type ScriptedHttpServer,
  type ScriptedReply,
} from "./test-support/scripted-http-server.js";
import { createWire, type Wire } from "./wire.js";

const opened: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((item) => item.close()));
});

const DISCOVER_RESULT = { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, ttlMs: 0, cacheScope: "public" };
const INITIALIZE_RESULT = { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "legacy-http", version: "1.0.0" } };

/** What a sessionful 2025-11-25 server does after refusing the probe: initialize with a session, 202, then a list. */
const LEGACY_SESSION: readonly ScriptedExchange[] = [
  { method: "initialize", reply: { kind: "json", body: { jsonrpc: "2.0", id: 2, result: INITIALIZE_RESULT }, headers: { "Mcp-Session-Id": "sess-1" } } },
  { method: "notifications/initialized", reply: { kind: "text", status: 202, body: "" } },
  { method: "tools/list", reply: { kind: "json", body: { jsonrpc: "2.0", id: 3, result: { tools: [] } } } },
];

async function serve(script: readonly ScriptedExchange[]): Promise<{ server: ScriptedHttpServer; open: () => Promise<Wire> }> {
  const server = await startScriptedHttpServer(script);
  opened.push(server);
  // As the connection composes them: the wire and its transport share one header table.
  const open = async (): Promise<Wire> => {
    const headerTable = createHeaderTable();
    const transport = createHttpTransport({ label: "web", url: server.url, headerTable });
    const wire = createWire({ transport, headerTable, clientVersion: "0.15.0" });
    opened.push(wire);
    await wire.start();
    return wire;
  };
  return { server, open };
}

describe("negotiateEra over HTTP", () => {
  it("stays modern when a 400 carries a corrective -32022, and never sends initialize", async () => {
    const corrective = { jsonrpc: "2.0", id: 1, error: { code: -32022, message: "Unsupported", data: { supported: ["2026-07-28"], requested: "2026-07-28" } } };
    const { server, open } = await serve([
      { method: "server/discover", reply: { kind: "json", status: 400, body: corrective } },
      { method: "server/discover", reply: { kind: "json", body: { jsonrpc: "2.0", id: 2, result: DISCOVER_RESULT } } },
    ]);
    const { client, era } = await negotiateEra(open, { transport: "http" });
    expect({ era, protocolVersion: client.protocolVersion() }).toEqual({ era: "modern", protocolVersion: "2026-07-28" });
    expect({ missing: server.missing(), unexpected: server.unexpected.length }).toEqual({ missing: [], unexpected: 0 });
  });

  it.each<[string, ScriptedReply]>([
    ["HTTP 400 without a body", { kind: "text", status: 400, body: "" }],
    ["HTTP 404 with a plain-text body", { kind: "text", status: 404, contentType: "text/plain", body: "Cannot POST /mcp" }],
    [
      "HTTP 400 with an id-less -32000 (a sessionful SDK server before initialize)",
      { kind: "json", status: 400, body: { jsonrpc: "2.0", id: null, error: { code: -32000, message: "Bad Request: Server not initialized" } } },
    ],
    [
      "HTTP 200 with an event stream carrying -32601",
      { kind: "sse", parts: [sseEvent({ jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } })], then: "end" },
    ],
    ["HTTP 200 with a result lacking resultType", { kind: "json", body: { jsonrpc: "2.0", id: 1, result: { tools: [] } } }],
  ])("falls back to initialize on %s", async (_answer, reply) => {
    const { server, open } = await serve([{ method: "server/discover", reply }, ...LEGACY_SESSION]);
    const { client, era } = await negotiateEra(open, { transport: "http" });
    await client.listTools();
    expect({ era, protocolVersion: client.protocolVersion() }).toEqual({ era: "legacy", protocolVersion: "2025-11-25" });
    expect({ missing: server.missing(), unexpected: server.unexpected.length }).toEqual({ missing: [], unexpected: 0 });
  });

  it("sends the negotiated version header and echoes the server's session id after initialize", async () => {
    const { server, open } = await serve([{ method: "server/discover", reply: { kind: "text", status: 400, body: "" } }, ...LEGACY_SESSION]);
    const { client } = await negotiateEra(open, { transport: "http" });
    await client.listTools();
    const sent = server.received.map((request) => ({
      method: request.method,
      version: request.headers["mcp-protocol-version"],
      session: request.headers["mcp-session-id"],
    }));
    expect(sent).toEqual([
      { method: "server/discover", version: "2026-07-28", session: undefined },
      { method: "initialize", version: "2025-11-25", session: undefined },
      { method: "notifications/initialized", version: "2025-11-25", session: "sess-1" },
      { method: "tools/list", version: "2025-11-25", session: "sess-1" },
    ]);
  });

  it("skips the empty priming event a resumable 2025-11-25 server opens its event streams with", async () => {
    const priming = "id: evt-1\nretry: 1000\ndata: \n\n";
    const listed = sseEvent({ jsonrpc: "2.0", id: 3, result: { tools: [{ name: "echo", inputSchema: { type: "object" } }] } });
    const [initialize, initialized] = LEGACY_SESSION;
    if (initialize === undefined || initialized === undefined) throw new Error("the legacy script lost its exchanges");
    const { open } = await serve([
      { method: "server/discover", reply: { kind: "text", status: 400, body: "" } },
      initialize,
      initialized,
      { method: "tools/list", reply: { kind: "sse", parts: [priming, listed], then: "end" } },
    ]);
    const { client } = await negotiateEra(open, { transport: "http" });
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(["echo"]);
  });

  it.each<[string, ScriptedReply, number]>([
    ["401", { kind: "text", status: 401, body: "" }, 401],
    ["403 with an id-less JSON-RPC error", { kind: "json", status: 403, body: { jsonrpc: "2.0", id: null, error: { code: -32000, message: "Forbidden origin" } } }, 403],
    ["500", { kind: "text", status: 500, contentType: "text/plain", body: "boom" }, 500],
  ])("takes HTTP %s to the probe as an error, not as evidence of a legacy server", async (_status, reply, httpStatus) => {
    const { server, open } = await serve([{ method: "server/discover", reply }]);
    const error = await rejection(negotiateEra(open, { transport: "http" }));
    expect(error instanceof HttpFailure && error.status).toBe(httpStatus);
    expect({ received: server.received.length, unexpected: server.unexpected.length }).toEqual({ received: 1, unexpected: 0 });
  });
});
