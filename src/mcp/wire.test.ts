import { describe, expect, it } from "vitest";
import { createHeaderTable } from "./http/headers.js";
import { isJsonObject, type JsonRpcNotification, type JsonRpcRequest } from "./jsonrpc.js";
import { handshake } from "./legacy-client.js";
import { createModernClient, modernExchange } from "./modern-client.js";
import { createInMemoryTransport } from "./test-support/in-memory-transport.js";
import { createWire } from "./wire.js";

const ping = (id: number): JsonRpcRequest => ({ jsonrpc: "2.0", id, method: "ping", params: {} });
const INITIALIZE_RESULT = { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "old", version: "1" } };

async function startWire() {
  const transport = createInMemoryTransport({ label: "srv", answer: () => ({ result: INITIALIZE_RESULT }) });
  const warnings: string[] = [];
  const notifications: JsonRpcNotification[] = [];
  const wire = createWire({ transport, clientVersion: "9.9.9", onWarning: (w) => warnings.push(w), onNotification: (n) => notifications.push(n) });
  await wire.start();
  return { wire, transport, warnings, notifications };
}

describe("createWire", () => {
  it("routes the server's notifications and leaves its requests unanswered, with a warning, until someone hears it", async () => {
    const { transport, warnings, notifications } = await startWire();
    transport.deliver({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    transport.deliver(ping(1));
    expect({ notifications: notifications.map((n) => n.method), sent: transport.sent, warnings }).toEqual({
      notifications: ["notifications/tools/list_changed"],
      sent: [],
      warnings: ["ignoring a request from the server (ping)"],
    });
  });

  it("hands the server over: the legacy handshake answers its requests, and a modern client built after it does not", async () => {
    const { wire, transport, warnings } = await startWire();
    await handshake(wire);
    transport.deliver(ping(1));
    createModernClient(wire);
    transport.deliver(ping(2));
    expect({ answers: transport.sent.filter((message) => "result" in message), warnings }).toEqual({
      answers: [{ jsonrpc: "2.0", id: 1, result: {} }],
      warnings: ["ignoring a request from the server (ping)"],
    });
  });

  it("hands the server over one way: no second client, and no handshake once a client hears it", async () => {
    const { wire } = await startWire();
    await handshake(wire);
    createModernClient(wire);
    expect(() => createModernClient(wire)).toThrow("srv: the client hears this wire already, the client cannot take it");
    await expect(handshake(wire)).rejects.toThrow("srv: the client hears this wire already, the negotiation cannot take it");
  });

  it("declares frozen capabilities: a copy of what it was given", () => {
    const capabilities = { elicitation: { form: {} } };
    const wire = createWire({ transport: createInMemoryTransport(), clientVersion: "9.9.9", capabilities });
    expect([wire.capabilities, wire.capabilities === capabilities, Object.isFrozen(wire.capabilities.elicitation)]).toEqual([capabilities, false, true]);
  });

  it("gives each request that wants progress its own token, whichever exchange over the wire sends it", async () => {
    const { wire, transport } = await startWire();
    const client = createModernClient(wire);
    await client.request("tools/call", { name: "a" }, { wantProgress: true });
    await modernExchange(wire).request("tools/call", { name: "b" }, { wantProgress: true });
    await modernExchange(wire).request("tools/call", { name: "c" }, { wantProgress: true });
    const tokens = transport.requests().map((request) => (isJsonObject(request.params._meta) ? request.params._meta.progressToken : undefined));
    expect(tokens).toEqual(["mca-1", "mca-2", "mca-3"]);
  });

  it("speaks a new version in one frozen _meta, built once for it, and tells its header table", () => {
    const headerTable = createHeaderTable();
    const wire = createWire({ transport: createInMemoryTransport(), headerTable, clientVersion: "9.9.9", versions: ["2030-01-01", "2026-07-28"] });
    const first = wire.meta();
    wire.useVersion("2026-07-28");
    expect({
      first: first["io.modelcontextprotocol/protocolVersion"],
      now: wire.meta()["io.modelcontextprotocol/protocolVersion"],
      same: wire.meta() === wire.meta(),
      frozen: Object.isFrozen(wire.meta()),
      told: headerTable.version(),
    }).toEqual({ first: "2030-01-01", now: "2026-07-28", same: true, frozen: true, told: "2026-07-28" });
  });
});
