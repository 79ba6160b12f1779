import { afterEach, describe, expect, it } from "vitest";
import { parseDiscoverResult } from "./discover.js";
import { judgeDiscoverResult, judgeProbeFailure, negotiateEra } from "./era.js";
import { HttpFailure } from "./http/failure.js";
import type { InputResponder } from "./input.js";
import { isJsonObject, McpError, type JsonObject } from "./jsonrpc.js";
import { answerLegacyServerRequest, parseInitializeResult } from "./legacy-lifecycle.js";
import { createStdioTransport } from "./stdio-transport.js";
import { legacyStdioServer } from "./test-support/legacy-stdio-server.js";
import { rejection } from "./test-support/mcp-rejection.js";
import { receivedByServer } from "./test-support/received-by-server.js";
import { scriptedStdioServer } from "./test-support/scripted-stdio-server.js";
import { createWire, type Wire } from "./wire.js";

const opened: Wire[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((wire) => wire.close()));
});

/** Opens a fresh wire on a fresh child each time it is called, and counts the calls. */
function stdioOpener(server: { command: string; args: string[] }) {
  const opener = {
    opens: 0,
    open: async (): Promise<Wire> => {
      opener.opens += 1;
      const wire = createWire({ transport: createStdioTransport({ label: "srv", ...server }), clientVersion: "0.15.0" });
      opened.push(wire);
      await wire.start();
      return wire;
    },
  };
  return opener;
}

const methods = (messages: JsonObject[]): unknown[] => messages.map((message) => message.method);

describe("negotiateEra over stdio", () => {
  it("stays modern when server/discover answers with a DiscoverResult in a mutual version", async () => {
    const opener = stdioOpener(scriptedStdioServer());
    const { client, era } = await negotiateEra(opener.open, { transport: "stdio" });
    expect({ era, protocolVersion: client.protocolVersion(), opens: opener.opens }).toEqual({ era: "modern", protocolVersion: "2026-07-28", opens: 1 });
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
    const { client, era } = await negotiateEra(opener.open, { transport: "stdio" });
    expect({ era, protocolVersion: client.protocolVersion(), opens: opener.opens }).toEqual({ era: "legacy", protocolVersion: "2025-11-25", opens: 1 });
    expect(methods(await receivedByServer(client))).toEqual(["server/discover", "initialize", "notifications/initialized", "tools/call"]);
  });

  it("sends initialize with the legacy version, no capabilities and mca's client info, then no 2026 keys in _meta", async () => {
    const opener = stdioOpener(legacyStdioServer("--agree=2025-06-18"));
    const { client } = await negotiateEra(opener.open, { transport: "stdio" });
    const [, initialize, initialized, call] = await receivedByServer(client);
    expect(client.protocolVersion()).toBe("2025-06-18");
    expect(initialize).toEqual({
      jsonrpc: "2.0",
      id: 2,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "mca", version: "0.15.0" } },
    });
    expect(initialized).toEqual({ jsonrpc: "2.0", method: "notifications/initialized" });
    // A two-era server routes any request carrying the 2026 keys to its modern handler, which refuses it.
    expect(isJsonObject(call?.params) ? call.params._meta : "no params").toBeUndefined();
  });

  it("works with a two-era server that routes any request carrying the 2026 keys to a modern handler", async () => {
    const opener = stdioOpener(legacyStdioServer("--two-era"));
    const { client, era } = await negotiateEra(opener.open, { transport: "stdio" });
    expect(era).toBe("legacy");
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(["echo", "ask"]);
    const outcome = await client.callTool("echo", { word: "hi" }, { wantProgress: true });
    expect(JSON.stringify(outcome)).toContain("hi");
  });

  it("keeps listening for a late server/discover answer after falling back: a modern one makes the server modern", async () => {
    const opener = stdioOpener(scriptedStdioServer("--discover-delay=600"));
    const { client, era } = await negotiateEra(opener.open, { transport: "stdio", probeTimeoutMs: 200 });
    expect(era).toBe("modern");
    expect(client.protocolVersion()).toBe("2026-07-28");
    // The connection speaks 2026 from here on: a call carries the full _meta and succeeds.
    const listed = await client.listTools();
    expect(listed.map((tool) => tool.name)).toEqual(["alpha", "beta", "gamma"]);
  });

  it("falls back when the server stays silent past the probe timeout, and cancels the probe once the handshake is done", async () => {
    const opener = stdioOpener(legacyStdioServer("--probe=silent"));
    const { client, era } = await negotiateEra(opener.open, { transport: "stdio", probeTimeoutMs: 300 });
    expect(era).toBe("legacy");
    expect(methods(await receivedByServer(client))).toEqual([
      "server/discover",
      "initialize",
      "notifications/initialized",
      "notifications/cancelled",
      "tools/call",
    ]);
  });

  it("restarts a child that exits on the probe once and goes straight to initialize", async () => {
    const opener = stdioOpener(legacyStdioServer("--probe=exit"));
    const { client, era } = await negotiateEra(opener.open, { transport: "stdio" });
    expect({ era, protocolVersion: client.protocolVersion(), opens: opener.opens }).toEqual({ era: "legacy", protocolVersion: "2025-11-25", opens: 2 });
    expect(methods(await receivedByServer(client))).toEqual(["initialize", "notifications/initialized", "tools/call"]);
  });

  it("fails when the restarted child exits too, closing what it opened", async () => {
    const opener = stdioOpener(scriptedStdioServer("--exit-at-start=5"));
    const error = await rejection(negotiateEra(opener.open, { transport: "stdio" }));
    expect({ kind: error.kind, opens: opener.opens }).toEqual({ kind: "closed", opens: 2 });
    expect(error.message).toContain("exited with code 5");
  });
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

describe("answerLegacyServerRequest with an input responder", () => {
  const formOnly: InputResponder = {
    support: { elicitationForm: true },
    answer: async () => ({ abandon: "the user pressed Esc" }),
  };
  const ask = (method: string, params: JsonObject) => answerLegacyServerRequest({ jsonrpc: "2.0", id: 6, method, params }, formOnly, { server: "old", tool: "t" });

  it("refuses a kind mca did not declare without asking, naming the missing capability", async () => {
    expect(await ask("roots/list", {})).toEqual({ error: { code: -32601, message: "the server asked for the roots list, and mca did not declare roots" } });
  });

  it("answers a declined form elicitation with its decline, and a malformed one with -32602", async () => {
    expect(await ask("elicitation/create", { message: "Name?", requestedSchema: { type: "object" } })).toEqual({ result: { action: "decline" } });
    expect(await ask("elicitation/create", { requestedSchema: {} })).toEqual({
      error: { code: -32602, message: "elicitation/create: `message` is not a string" },
    });
  });
});

describe("a legacy stdio server's own requests", () => {
  it("are answered on the wire, so the call that sent them completes", async () => {
    const open = async (): Promise<Wire> => {
      const wire = createWire({ transport: createStdioTransport({ label: "srv", ...legacyStdioServer() }), clientVersion: "0.15.0" });
      opened.push(wire);
      await wire.start();
      return wire;
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

const DISCOVER = { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, ttlMs: 0, cacheScope: "public" };

describe("judgeDiscoverResult", () => {
  it("takes a DiscoverResult with a mutual version for a modern server", () => {
    expect(judgeDiscoverResult(DISCOVER, "2026-07-28", "srv")).toEqual({
      era: "modern",
      info: { protocolVersion: "2026-07-28", supportedVersions: ["2026-07-28"], capabilities: { tools: {} } },
    });
  });

  it("takes a result without resultType for a legacy server, whatever else it says", () => {
    const { resultType: _dropped, ...legacyShaped } = DISCOVER;
    expect(judgeDiscoverResult(legacyShaped, "2026-07-28", "srv")).toEqual({
      era: "legacy",
      evidence: "server/discover answered a result without resultType",
      connectionLost: false,
    });
  });

  it("takes a result that is no DiscoverResult for a legacy server", () => {
    expect(judgeDiscoverResult({ resultType: "complete", hello: "world" }, "2026-07-28", "srv")).toEqual({
      era: "legacy",
      evidence: "server/discover answered something that is not a DiscoverResult (`supportedVersions` is not a list of strings)",
      connectionLost: false,
    });
  });

  it("takes a DiscoverResult listing only legacy versions for a legacy server", () => {
    expect(judgeDiscoverResult({ ...DISCOVER, supportedVersions: ["2025-11-25"] }, "2026-07-28", "srv")).toMatchObject({
      era: "legacy",
      evidence: "server/discover offered only 2025-11-25",
    });
  });

  it("fails on a DiscoverResult listing only modern versions mca does not speak", () => {
    const verdict = judgeDiscoverResult({ ...DISCOVER, supportedVersions: ["2027-01-01"] }, "2026-07-28", "srv");
    expect(verdict.era === "unknown" && verdict.failure).toBeInstanceOf(McpError);
    expect(verdict).toEqual({
      era: "unknown",
      failure: new McpError("protocol", "server/discover: no protocol version in common: the server supports 2027-01-01; mca supports 2026-07-28", { server: "srv" }),
    });
  });
});

describe("judgeProbeFailure", () => {
  const legacy = (evidence: string, connectionLost = false) => ({ era: "legacy", evidence, connectionLost });
  const unknown = (failure: McpError) => ({ era: "unknown", failure });

  it("takes any JSON-RPC error code but -32022 for a legacy server", () => {
    for (const code of [-32601, -32602, -32600, -32000, -32002, -32020, -32021]) {
      expect(judgeProbeFailure(new McpError("server", "no", { code: code }), "http")).toEqual(legacy(`server/discover answered error ${code}`));
    }
  });

  it("keeps -32022 that offers a version mca speaks as an error: the server is modern", () => {
    const error = new McpError("server", "no", { code: -32022, data: { supported: ["2026-07-28", "2025-11-25"], requested: "2026-07-28" } });
    expect(judgeProbeFailure(error, "stdio")).toEqual(unknown(error));
  });

  it("takes -32022 offering only legacy versions, or no readable list, for a legacy server", () => {
    expect(judgeProbeFailure(new McpError("server", "no", { code: -32022, data: { supported: ["2025-06-18"], requested: "2026-07-28" } }), "http")).toEqual(
      legacy("server/discover answered -32022 offering only 2025-06-18"),
    );
    expect(judgeProbeFailure(new McpError("server", "no", { code: -32022, data: "?" }), "http")).toEqual(
      legacy("server/discover answered -32022 without a list of supported versions"),
    );
  });

  it("takes an unreadable reply for a legacy server", () => {
    expect(judgeProbeFailure(new HttpFailure("protocol", "answered HTTP 404 with an empty body", { status: 404 }), "http")).toEqual(
      legacy("server/discover got no modern answer: answered HTTP 404 with an empty body"),
    );
  });

  it("takes silence and an exit for a legacy server on stdio only", () => {
    expect(judgeProbeFailure(new McpError("timeout", "timed out"), "stdio")).toEqual(legacy("server/discover got no answer: timed out"));
    expect(judgeProbeFailure(new McpError("closed", "the server exited"), "stdio")).toEqual(legacy("the server exited on server/discover: the server exited", true));
    const timeout = new McpError("timeout", "timed out");
    const closed = new McpError("closed", "closed");
    expect([judgeProbeFailure(timeout, "http"), judgeProbeFailure(closed, "http")]).toEqual([unknown(timeout), unknown(closed)]);
  });

  it("keeps auth refusals, server failures and unreachable servers as failures that say nothing of the era", () => {
    const errors = [
      new HttpFailure("protocol", "401", { status: 401 }),
      new HttpFailure("server", "403", { code: -32000, status: 403 }),
      new HttpFailure("protocol", "502", { status: 502 }),
      new McpError("unreachable", "ECONNREFUSED"),
      new McpError("broken", "cut"),
      new McpError("aborted", "aborted"),
      new McpError("unavailable", "disconnected: gone"),
    ];
    expect(errors.map((error) => judgeProbeFailure(error, "http"))).toEqual(errors.map(unknown));
  });
});

describe("parseDiscoverResult", () => {
  it("reads versions, capabilities, instructions and the identity in _meta", () => {
    expect(
      parseDiscoverResult(
        {
          resultType: "complete",
          supportedVersions: ["2026-07-28"],
          capabilities: { tools: {} },
          instructions: "Be kind.",
          ttlMs: 0,
          cacheScope: "public",
          _meta: { "io.modelcontextprotocol/serverInfo": { name: "notes", version: "1.0.0", title: "Notes" } },
        },
        "2026-07-28",
      ),
    ).toEqual({
      protocolVersion: "2026-07-28",
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: {} },
      instructions: "Be kind.",
      serverInfo: { name: "notes", version: "1.0.0", title: "Notes" },
    });
  });

  it("tolerates the identity in the body, as the conformance mocks send it", () => {
    expect(
      parseDiscoverResult(
        { supportedVersions: ["2026-07-28"], capabilities: {}, serverInfo: { name: "mock", version: "0.1" } },
        "2026-07-28",
      ),
    ).toEqual({
      protocolVersion: "2026-07-28",
      supportedVersions: ["2026-07-28"],
      capabilities: {},
      serverInfo: { name: "mock", version: "0.1" },
    });
  });

  it("fails when no version is mutual", () => {
    expect(parseDiscoverResult({ supportedVersions: ["2025-11-25"], capabilities: {} }, "2026-07-28")).toEqual(
      new Error("no protocol version in common: the server supports 2025-11-25; mca supports 2026-07-28"),
    );
  });

  it("fails when supportedVersions is missing", () => {
    expect(parseDiscoverResult({ capabilities: {} }, "2026-07-28")).toEqual(
      new Error("`supportedVersions` is not a list of strings"),
    );
  });
});

describe("parseInitializeResult", () => {
  it("reads the agreed version, capabilities, instructions and server info", () => {
    const result = {
      protocolVersion: "2025-11-25",
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: "everything", title: "Everything", version: "2.0.0" },
      instructions: "Try echo.",
    };
    expect(parseInitializeResult(result)).toEqual({
      protocolVersion: "2025-11-25",
      capabilities: { tools: { listChanged: true } },
      instructions: "Try echo.",
      serverInfo: { name: "everything", title: "Everything", version: "2.0.0" },
    });
  });

  it("accepts an older legacy version the server chose", () => {
    expect(parseInitializeResult({ protocolVersion: "2024-11-05" })).toEqual({ protocolVersion: "2024-11-05", capabilities: {} });
  });

  it("refuses a version mca cannot speak with initialize", () => {
    expect(parseInitializeResult({ protocolVersion: "2026-07-28", capabilities: {} })).toEqual(
      new Error("the server chose protocol version 2026-07-28; with initialize mca speaks 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05"),
    );
  });

  it("refuses a result without a version or with capabilities that are no object", () => {
    expect(parseInitializeResult({ capabilities: {} })).toEqual(new Error("`protocolVersion` is not a string"));
    expect(parseInitializeResult({ protocolVersion: "2025-11-25", capabilities: [] })).toEqual(new Error("`capabilities` is not an object"));
  });
});
