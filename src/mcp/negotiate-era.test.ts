import { afterEach, describe, expect, it } from "vitest";
import { createMcpClient, type McpClient } from "./client.js";
import { isJsonObject, type JsonObject } from "./jsonrpc.js";
import { negotiateEra } from "./negotiate-era.js";
import { createStdioTransport } from "./stdio-transport.js";
import { legacyStdioServer } from "./test-support/legacy-stdio-server.js";
import { rejection } from "./test-support/mcp-rejection.js";
import { receivedByServer } from "./test-support/received-by-server.js";
import { scriptedStdioServer } from "./test-support/scripted-stdio-server.js";

const opened: McpClient[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((client) => client.close()));
});

/** Opens a fresh client on a fresh child each time it is called, and counts the calls. */
function stdioOpener(server: { command: string; args: string[] }) {
  const opener = {
    opens: 0,
    open: async (): Promise<McpClient> => {
      opener.opens += 1;
      const client = createMcpClient({ transport: createStdioTransport({ label: "srv", ...server }), clientVersion: "0.15.0" });
      opened.push(client);
      await client.start();
      return client;
    },
  };
  return opener;
}

const methods = (messages: JsonObject[]): unknown[] => messages.map((message) => message.method);

describe("negotiateEra over stdio", () => {
  it("stays modern when server/discover answers with a DiscoverResult in a mutual version", async () => {
    const opener = stdioOpener(scriptedStdioServer());
    const { client, era, protocolVersion } = await negotiateEra(opener.open, { transport: "stdio" });
    expect({ era, protocolVersion, opens: opener.opens }).toEqual({ era: "modern", protocolVersion: "2026-07-28", opens: 1 });
    expect(methods(await receivedByServer(client))).toEqual(["server/discover", "tools/call"]);
  });

  it("answers a corrective -32022 by retrying with the mutual version and never falls back", async () => {
    const opener = stdioOpener(scriptedStdioServer("--reject-first-version"));
    const { client, era } = await negotiateEra(opener.open, { transport: "stdio" });
    expect(era).toBe("modern");
    expect(methods(await receivedByServer(client))).toEqual(["server/discover", "server/discover", "tools/call"]);
  });

  it("fails without falling back when -32022 offers only modern versions mca does not speak", async () => {
    const opener = stdioOpener(scriptedStdioServer("--versions=2027-01-01"));
    const error = await rejection(negotiateEra(opener.open, { transport: "stdio" }));
    expect({ kind: error.kind, code: error.code, opens: opener.opens }).toEqual({ kind: "server", code: -32022, opens: 1 });
    expect(error.message).toContain("the server supports 2027-01-01, mca supports 2026-07-28");
  });

  it.each([
    ["-32601 method not found", "method-not-found"],
    ["-32602 invalid params", "invalid-params"],
    ["another code (-32002)", "server-not-initialized"],
    ["a garbage line and a result that is no DiscoverResult", "garbage"],
    ["a result without resultType", "no-result-type"],
    ["-32022 offering only legacy versions", "legacy-versions-only"],
  ])("falls back to the 2025-11-25 handshake on %s", async (_answer, probe) => {
    const opener = stdioOpener(legacyStdioServer(`--probe=${probe}`));
    const { client, era, protocolVersion } = await negotiateEra(opener.open, { transport: "stdio" });
    expect({ era, protocolVersion, opens: opener.opens }).toEqual({ era: "legacy", protocolVersion: "2025-11-25", opens: 1 });
    expect(methods(await receivedByServer(client))).toEqual(["server/discover", "initialize", "notifications/initialized", "tools/call"]);
  });

  it("sends initialize with the legacy version, no capabilities and mca's client info, then names the agreed version in _meta", async () => {
    const opener = stdioOpener(legacyStdioServer("--agree=2025-06-18"));
    const { client, protocolVersion } = await negotiateEra(opener.open, { transport: "stdio" });
    const [, initialize, initialized, call] = await receivedByServer(client);
    expect(protocolVersion).toBe("2025-06-18");
    expect(client.protocolVersion()).toBe("2025-06-18");
    expect(initialize).toEqual({
      jsonrpc: "2.0",
      id: 2,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "mca", version: "0.15.0" } },
    });
    expect(initialized).toEqual({ jsonrpc: "2.0", method: "notifications/initialized" });
    const meta = isJsonObject(call?.params) ? call.params._meta : undefined;
    expect(isJsonObject(meta) ? meta["io.modelcontextprotocol/protocolVersion"] : undefined).toBe("2025-06-18");
  });

  it("falls back when the server stays silent past the probe timeout, cancelling the probe first", async () => {
    const opener = stdioOpener(legacyStdioServer("--probe=silent"));
    const { client, era } = await negotiateEra(opener.open, { transport: "stdio", probeTimeoutMs: 300 });
    expect(era).toBe("legacy");
    expect(methods(await receivedByServer(client))).toEqual([
      "server/discover",
      "notifications/cancelled",
      "initialize",
      "notifications/initialized",
      "tools/call",
    ]);
  });

  it("restarts a child that exits on the probe once and goes straight to initialize", async () => {
    const opener = stdioOpener(legacyStdioServer("--probe=exit"));
    const { client, era, protocolVersion } = await negotiateEra(opener.open, { transport: "stdio" });
    expect({ era, protocolVersion, opens: opener.opens }).toEqual({ era: "legacy", protocolVersion: "2025-11-25", opens: 2 });
    expect(methods(await receivedByServer(client))).toEqual(["initialize", "notifications/initialized", "tools/call"]);
  });

  it("fails when the restarted child exits too, closing what it opened", async () => {
    const opener = stdioOpener(scriptedStdioServer("--exit-at-start=5"));
    const error = await rejection(negotiateEra(opener.open, { transport: "stdio" }));
    expect({ kind: error.kind, opens: opener.opens }).toEqual({ kind: "closed", opens: 2 });
    expect(error.message).toContain("exited with code 5");
  });
});
