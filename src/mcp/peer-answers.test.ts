import { describe, expect, it } from "vitest";
import { McpError } from "./errors.js";
import { createPeer, type PeerOptions } from "./peer.js";
import { createInMemoryTransport } from "./test-support/in-memory-stdio-transport.js";

async function startedPeer(onRequest?: PeerOptions["onRequest"]) {
  const transport = createInMemoryTransport({ label: "srv" });
  const warnings: string[] = [];
  const peer = createPeer({ transport, requestTimeoutMs: 60_000, onNotification: () => undefined, onRequest, onWarning: (w) => warnings.push(w) });
  await peer.start();
  return { transport, peer, warnings };
}

describe("createPeer answering the server", () => {
  it("sends onRequest's result or error back under the server's own id", async () => {
    const { transport, warnings } = await startedPeer((request) =>
      request.method === "ping" ? { result: {} } : { error: { code: -32601, message: "no" } },
    );
    transport.deliver({ jsonrpc: "2.0", id: "s-1", method: "ping", params: {} });
    transport.deliver({ jsonrpc: "2.0", id: 7, method: "roots/list", params: {} });
    await new Promise((resolve) => setImmediate(resolve));
    expect(transport.sent.map(({ message }) => message)).toEqual([
      { jsonrpc: "2.0", id: "s-1", result: {} },
      { jsonrpc: "2.0", id: 7, error: { code: -32601, message: "no" } },
    ]);
    expect(warnings).toEqual([]);
  });

  it("leaves a request unanswered, with a warning, when onRequest gives no answer", async () => {
    const { transport, warnings } = await startedPeer(() => undefined);
    transport.deliver({ jsonrpc: "2.0", id: 1, method: "sampling/createMessage", params: {} });
    await new Promise((resolve) => setImmediate(resolve));
    expect({ sent: transport.sent, warnings }).toEqual({ sent: [], warnings: ["srv: ignoring a request from the server (sampling/createMessage)"] });
  });
});

describe("createPeer.notify", () => {
  it("sends a notification without an id, with params only when given", async () => {
    const { transport, peer } = await startedPeer();
    await peer.notify("notifications/initialized");
    await peer.notify("notifications/cancelled", { requestId: 3 });
    expect(transport.sent.map(({ message }) => message)).toEqual([
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3 } },
    ]);
  });

  it("fails with the connection's reason once it is dead", async () => {
    const { transport, peer } = await startedPeer();
    transport.die(new McpError("closed", "srv exited with code 2"));
    const error: unknown = await peer.notify("notifications/initialized").catch((e: unknown) => e);
    expect(error).toEqual(new McpError("closed", "srv exited with code 2"));
    expect(transport.sent).toEqual([]);
  });
});
