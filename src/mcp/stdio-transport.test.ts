import { afterEach, describe, expect, it } from "vitest";
import { liveChildren } from "./child-processes.js";
import { isJsonObject, type JsonObject, type JsonRpcNotification } from "./jsonrpc.js";
import { createPeer, type Peer } from "./peer.js";
import { createStdioTransport, type StdioTransport, type StdioTransportOptions } from "./stdio-transport.js";
import type { Transport } from "./transport.js";
import { rejection } from "./test-support/mcp-rejection.js";
import { isProcessGone, scriptedStdioServer, waitUntilGone } from "./test-support/scripted-stdio-server.js";

const META = { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } };
const opened: StdioTransport[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((transport) => transport.close()));
});

type Harness = {
  transport: StdioTransport;
  peer: Peer;
  warnings: string[];
  closeReasons: Error[];
  notifications: JsonRpcNotification[];
  call(name: string, args?: JsonObject): Promise<JsonObject>;
};

async function startServer(flags: string[], options: Partial<StdioTransportOptions> = {}): Promise<Harness> {
  const warnings: string[] = [];
  const closeReasons: Error[] = [];
  const notifications: JsonRpcNotification[] = [];
  const transport = createStdioTransport({
    label: "scripted",
    ...scriptedStdioServer(...flags),
    onWarning: (warning) => warnings.push(warning),
    ...options,
  });
  opened.push(transport);
  // The peer sees the real transport, with its onClose also recorded here.
  const observed: Transport = {
    kind: transport.kind,
    label: transport.label,
    start: (handlers) =>
      transport.start({
        onMessage: handlers.onMessage,
        onClose: (reason) => {
          closeReasons.push(reason);
          handlers.onClose(reason);
        },
      }),
    send: transport.send.bind(transport),
    cancel: transport.cancel.bind(transport),
    close: transport.close.bind(transport),
  };
  const peer = createPeer({ transport: observed, requestTimeoutMs: 10_000, onNotification: (n) => notifications.push(n) });
  await peer.start();
  const call = (name: string, args: JsonObject = {}) => peer.request("tools/call", { name, arguments: args, ...META });
  return { transport, peer, warnings, closeReasons, notifications, call };
}

function firstText(result: JsonObject): unknown {
  const content = result.content;
  return Array.isArray(content) && isJsonObject(content[0]) ? content[0].text : undefined;
}

async function serverPids(harness: Harness): Promise<{ server: number; grandchild: number }> {
  const { structuredContent } = await harness.call("pids");
  if (!isJsonObject(structuredContent)) throw new Error("no pids");
  const { server, grandchild } = structuredContent;
  if (typeof server !== "number" || typeof grandchild !== "number") throw new Error("pids are not numbers");
  return { server, grandchild };
}

describe("StdioTransport", () => {
  it("rejects start at once when the command does not exist", async () => {
    const transport = createStdioTransport({ label: "ghost", command: "/nonexistent/mca-no-such-server" });
    opened.push(transport);
    const error = await rejection(transport.start({ onMessage: () => undefined, onClose: () => undefined }));
    expect([error.kind, error.message]).toEqual([
      "unreachable",
      "ghost: cannot start `/nonexistent/mca-no-such-server`: command not found (ENOENT)",
    ]);
  });

  it("delivers a message split across several writes whole", async () => {
    const harness = await startServer([]);
    expect(firstText(await harness.call("split"))).toBe("arrived whole");
  });

  it("delivers a multi-kilobyte result whole", async () => {
    const harness = await startServer([]);
    expect(firstText(await harness.call("big", { bytes: 300_000 }))).toBe("x".repeat(300_000));
  });

  it("decodes UTF-8 characters split across writes", async () => {
    const harness = await startServer([]);
    expect(firstText(await harness.call("utf8-split"))).toBe("héllo ✓ 😀");
  });

  it("tolerates lines that are not JSON-RPC, warns once naming the server, and keeps working", async () => {
    const harness = await startServer(["--log-at-start"]);
    expect(firstText(await harness.call("garbage"))).toBe("after garbage");
    expect(firstText(await harness.call("split"))).toBe("arrived whole");
    expect(harness.transport.ignoredLineCount()).toBe(2);
    expect(harness.warnings).toHaveLength(1);
    expect(harness.warnings[0]).toMatch(/^scripted: ignoring a line on stdout that is not JSON-RPC \(not JSON .*\): "Server listening on stdio"$/);
  });

  it("fails pending requests at once with the exit code and stderr tail when the server exits mid-call", async () => {
    const harness = await startServer([]);
    const waiting = rejection(harness.call("never"));
    const exiting = rejection(harness.call("exit", { code: 7, stderr: "panic: disk full\n" }));
    const expected = "scripted exited with code 7 (signal none); stderr: panic: disk full";
    expect([(await waiting).message, (await exiting).message]).toEqual([expected, expected]);
    expect(harness.closeReasons.map((r) => r.message)).toEqual([expected]);
    expect(harness.transport.stderrTail()).toBe("panic: disk full");
  });

  it("reports an early exit with its code and stderr, and later requests fail at once", async () => {
    const harness = await startServer(["--stderr=fatal: no config", "--exit-at-start=3"]);
    const error = await rejection(harness.call("echo"));
    expect([error.kind, error.message]).toEqual(["closed", "scripted exited with code 3 (signal none); stderr: fatal: no config"]);
    expect((await rejection(harness.call("echo"))).message).toBe(error.message);
  });

  it("sends notifications/cancelled for a cancelled request", async () => {
    const harness = await startServer([]);
    const error = await rejection(harness.peer.request("tools/call", { name: "never", ...META }, { timeoutMs: 50 }));
    expect(error.kind).toBe("timeout");
    const { structuredContent } = await harness.call("received");
    const messages = isJsonObject(structuredContent) ? structuredContent.messages : undefined;
    expect(Array.isArray(messages) ? messages[1] : undefined).toEqual({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 1, reason: "timed out after 50 ms" },
    });
  });

  it("fails the transport with a message naming the cap when a line is too long", async () => {
    const harness = await startServer([], { maxLineBytes: 4096 });
    const error = await rejection(harness.call("big", { bytes: 10_000 }));
    expect([error.kind, error.message]).toEqual([
      "closed",
      "scripted: a line is longer than 4096 bytes (the cap on one message, maxLineBytes); the connection is closed",
    ]);
    expect((await rejection(harness.call("echo"))).message).toBe(error.message);
  });

  it("closes the server's stdin and takes down its whole process group", async () => {
    const harness = await startServer(["--grandchild"]);
    const { server, grandchild } = await serverPids(harness);
    expect(liveChildren()).toContain(server);
    await harness.transport.close();
    expect(await waitUntilGone(server, 2000)).toBe(true);
    expect(await waitUntilGone(grandchild, 2000)).toBe(true);
    expect(liveChildren()).not.toContain(server);
  });

  it("sends SIGTERM to the group when the server ignores the end of stdin", async () => {
    const harness = await startServer(["--grandchild", "--ignore-stdin-eof"]);
    const { server, grandchild } = await serverPids(harness);
    await harness.transport.close();
    expect([isProcessGone(server), await waitUntilGone(grandchild, 2000)]).toEqual([true, true]);
  });

  it("sends SIGKILL to the group when the server also ignores SIGTERM", async () => {
    const harness = await startServer(["--grandchild", "--ignore-stdin-eof", "--ignore-sigterm"]);
    const { server, grandchild } = await serverPids(harness);
    await harness.transport.close();
    expect([isProcessGone(server), await waitUntilGone(grandchild, 2000)]).toEqual([true, true]);
  });

  it("closes only once: a second close returns the same promise and pending requests fail", async () => {
    const harness = await startServer([]);
    const waiting = rejection(harness.call("never"));
    const first = harness.transport.close();
    expect(harness.transport.close()).toBe(first);
    await first;
    expect((await waiting).kind).toBe("closed");
    expect(harness.closeReasons.map((r) => r.message)).toEqual(["scripted: connection closed"]);
  });
});
