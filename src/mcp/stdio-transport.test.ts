import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { buildRequestMeta } from "./wire.js";
import { isJsonObject, McpError, type JsonObject } from "./jsonrpc.js";
import { createPeer, type Peer } from "./peer.js";
import { createStdioTransport, killAllChildrenSync, type StdioTransport, type StdioTransportOptions } from "./stdio-transport.js";
import { rejection, summary } from "./test-support/mcp-rejection.js";
import { handClock, isProcessGone, recordedSteps, scriptedStdioServer, waitForSteps, waitUntilGone } from "./test-support/scripted-stdio-server.js";

const META = buildRequestMeta({ protocolVersion: "2026-07-28", clientCapabilities: {}, clientVersion: "0.15.0" });
const opened: StdioTransport[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((transport) => transport.close()));
});

type Harness = {
  transport: StdioTransport;
  peer: Peer;
  warnings: string[];
  closeReasons: McpError[];
  call(name: string, args?: JsonObject): Promise<JsonObject>;
};

/** The real transport under a peer, which reports the transport's warnings and the end of its connection. */
async function startServer(flags: string[], options: Partial<StdioTransportOptions> = {}): Promise<Harness> {
  const warnings: string[] = [];
  const closeReasons: McpError[] = [];
  const transport = createStdioTransport({ label: "scripted", ...scriptedStdioServer(...flags), ...options });
  opened.push(transport);
  const peer = createPeer({
    transport,
    requestTimeoutMs: 10_000,
    onNotification: () => undefined,
    onWarning: (warning) => warnings.push(warning),
    onClose: (reason) => closeReasons.push(reason),
  });
  await peer.start();
  const call = (name: string, args: JsonObject = {}) => peer.request("tools/call", { name, arguments: args, _meta: META });
  return { transport, peer, warnings, closeReasons, call };
}

function firstText(result: JsonObject): unknown {
  const content = result.content;
  return Array.isArray(content) && isJsonObject(content[0]) ? content[0].text : undefined;
}

/** The transport's wait after closing stdin, and again after SIGTERM. */
const TEARDOWN_GRACE_MS = 2000;

const recordFolder = mkdtempSync(join(tmpdir(), "mca-stdio-teardown-"));
let recordFiles = 0;
afterAll(() => rmSync(recordFolder, { recursive: true, force: true }));

function recordFile(): string {
  recordFiles += 1;
  return join(recordFolder, `steps-${recordFiles}.jsonl`);
}

/** The steps the server recorded, its heartbeats left out. */
function stepsOf(events: readonly string[]): string[] {
  return events.filter((event) => event !== "waiting" && event !== "alive");
}

/** How many heartbeats of `kind` the server recorded. */
function beats(events: readonly string[], kind: "waiting" | "alive"): number {
  return events.filter((event) => event === kind).length;
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
    expect(summary(error)).toEqual({ kind: "unreachable", message: "cannot start `/nonexistent/mca-no-such-server`: command not found (ENOENT)", server: "ghost" });
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

  it("hands up the last message at the end of the stream when it has no newline", async () => {
    const harness = await startServer([]);
    expect(firstText(await harness.call("unterminated-then-exit"))).toBe("last words");
  });

  it("tolerates lines that are not JSON-RPC, warns once, and keeps working", async () => {
    const harness = await startServer(["--log-at-start"]);
    expect(firstText(await harness.call("garbage"))).toBe("after garbage");
    expect(firstText(await harness.call("split"))).toBe("arrived whole");
    expect(harness.warnings).toHaveLength(1);
    expect(harness.warnings[0]).toMatch(/^ignoring a line on stdout that is not JSON-RPC \(not JSON .*\): "Server listening on stdio"$/);
  });

  it("quotes only the start of a long line it ignores", async () => {
    const harness = await startServer([]);
    await harness.call("garbage", { line: "y".repeat(200) });
    expect(harness.warnings[0]?.endsWith(`"${"y".repeat(80)}…"`)).toBe(true);
  });

  it("redacts a line it ignores before quoting only its start", async () => {
    const redact = (text: string): string => text.replace(/s3cret-value-123/gi, "[redacted]");
    const harness = await startServer([], { redact });
    // The line is 81 characters, the secret at its end: cut first, "S3cret-Value-12" would be quoted.
    await harness.call("garbage", { line: `${"y".repeat(60)}S3cret-Value-123${"z".repeat(5)}` });
    expect(harness.warnings[0]?.endsWith(`"${"y".repeat(60)}[redacted]${"z".repeat(5)}"`)).toBe(true);
  });

  it("fails pending requests at once with the exit code and stderr tail when the server exits mid-call", async () => {
    const harness = await startServer([]);
    const waiting = rejection(harness.call("never"));
    const exiting = rejection(harness.call("exit", { code: 7, stderr: "panic: disk full\n" }));
    const expected = { kind: "closed", message: "the server exited with code 7 (signal none); stderr: panic: disk full", server: "scripted" };
    expect([summary(await waiting), summary(await exiting)]).toEqual([expected, expected]);
    expect(harness.closeReasons.map(summary)).toEqual([expected]);
    expect(harness.transport.stderrTail()).toBe("panic: disk full");
  });

  it("reports an early exit with its code and stderr, and later requests fail at once", async () => {
    const harness = await startServer(["--stderr=fatal: no config", "--exit-at-start=3"]);
    const error = await rejection(harness.call("echo"));
    expect(summary(error)).toEqual({ kind: "closed", message: "the server exited with code 3 (signal none); stderr: fatal: no config", server: "scripted" });
    expect(await rejection(harness.call("echo"))).toBe(error);
  });

  it("sends notifications/cancelled for a request the peer gives up on", async () => {
    const harness = await startServer([]);
    const error = await rejection(harness.peer.request("tools/call", { name: "never", _meta: META }, { timeoutMs: 50 }));
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
    expect(summary(error)).toEqual({
      kind: "closed",
      message: "a line is longer than 4096 bytes (the cap on one message, maxLineBytes); the connection is closed",
      server: "scripted",
    });
    expect(await rejection(harness.call("echo"))).toBe(error);
  });

  it("closes the server's stdin, and a server that then exits sees no signal and takes its group along", async () => {
    const file = recordFile();
    const harness = await startServer(["--grandchild", `--record=${file}`]);
    const { server, grandchild } = await serverPids(harness);
    await harness.transport.close();
    expect(stepsOf(await waitForSteps(file, "stdin closed", (events) => events.length > 0))).toEqual(["stdin closed"]);
    expect([isProcessGone(server), await waitUntilGone(grandchild, 2000)]).toEqual([true, true]);
  });

  it("sends SIGTERM to the group only once the grace after closing stdin has passed, when the server ignores the end of stdin", async () => {
    const file = recordFile();
    const clock = handClock();
    const harness = await startServer(["--grandchild", "--ignore-stdin-eof", `--record=${file}`], { clock });
    const { server, grandchild } = await serverPids(harness);
    const closed = harness.transport.close();
    // While the grace has not passed, the server beats on and no signal comes, however long that takes.
    await waitForSteps(file, "three beats after stdin closed", (events) => beats(events, "waiting") >= 3);
    clock.advance(TEARDOWN_GRACE_MS - 1);
    const held = await waitForSteps(file, "three beats more", (events) => beats(events, "waiting") >= 6);
    expect(stepsOf(held)).toEqual(["stdin closed"]);
    clock.advance(1);
    await closed;
    expect(stepsOf(recordedSteps(file).map(({ event }) => event))).toEqual(["stdin closed", "SIGTERM"]);
    expect([isProcessGone(server), await waitUntilGone(grandchild, 2000)]).toEqual([true, true]);
  });

  it("sends SIGKILL to the group only once a grace after SIGTERM has passed, when the server also ignores SIGTERM", async () => {
    const file = recordFile();
    const clock = handClock();
    const harness = await startServer(["--grandchild", "--ignore-stdin-eof", "--ignore-sigterm", `--record=${file}`], { clock });
    const { server, grandchild } = await serverPids(harness);
    const closed = harness.transport.close();
    await waitForSteps(file, "stdin closed", (events) => events.includes("stdin closed"));
    clock.advance(TEARDOWN_GRACE_MS);
    await waitForSteps(file, "three beats after SIGTERM", (events) => beats(events, "alive") >= 3);
    clock.advance(TEARDOWN_GRACE_MS - 1);
    const held = await waitForSteps(file, "three beats more", (events) => beats(events, "alive") >= 6);
    expect([stepsOf(held), isProcessGone(server)]).toEqual([["stdin closed", "SIGTERM"], false]);
    clock.advance(1);
    await closed;
    expect([isProcessGone(server), await waitUntilGone(grandchild, 2000)]).toEqual([true, true]);
  });

  it("closes only once: a second close returns the same promise and pending requests fail", async () => {
    const harness = await startServer([]);
    const waiting = rejection(harness.call("never"));
    const first = harness.transport.close();
    expect(harness.transport.close()).toBe(first);
    await first;
    const closed = { kind: "closed", message: "connection closed", server: "scripted" };
    expect(summary(await waiting)).toEqual(closed);
    expect(harness.closeReasons.map(summary)).toEqual([closed]);
  });
});

describe("StdioTransport's stderr tail", () => {
  it("keeps the last 40 lines the server wrote, without the trailing newline", async () => {
    const harness = await startServer([]);
    const lines = Array.from({ length: 50 }, (_, index) => `line ${index + 1}`);
    await harness.call("stderr", { text: `${lines.join("\n")}\n` });
    expect(harness.transport.stderrTail()).toBe(lines.slice(10).join("\n"));
  });

  it("keeps only the last 8 KiB of a long line", async () => {
    const harness = await startServer([]);
    await harness.call("stderr", { text: `${"a".repeat(5000)}${"b".repeat(8192)}` });
    expect(harness.transport.stderrTail()).toBe("b".repeat(8192));
  });

  it("redacts secrets in any case before cutting the tail, so no fragment of one is shown", async () => {
    const secret = "S3cret-Value-123";
    const redact = (text: string): string => text.replace(/s3cret-value-123/gi, "[redacted]");
    const harness = await startServer([], { redact });
    // The secret starts 4 characters before the 8 KiB cut: cut first, its tail "et-Value-123" would remain.
    await harness.call("stderr", { text: `${secret.toLowerCase()}${"b".repeat(8192 - 12)}` });
    expect(harness.transport.stderrTail()).toBe(`[redacted]${"b".repeat(8180)}`);
    expect(harness.transport.stderrTail()).not.toMatch(/value-123/i);
  });

  it("decodes a character split across chunks", async () => {
    const harness = await startServer([]);
    await harness.call("stderr", { text: "ü!", cuts: [1] });
    expect(harness.transport.stderrTail()).toBe("ü!");
  });
});

describe("killAllChildrenSync", () => {
  it("kills every live server's whole process group at once", async () => {
    const harness = await startServer(["--grandchild", "--ignore-stdin-eof", "--ignore-sigterm"]);
    const { server, grandchild } = await serverPids(harness);
    const pending = rejection(harness.call("never"));
    killAllChildrenSync();
    expect(summary(await pending)).toEqual({ kind: "closed", message: "the server exited with code none (signal SIGKILL); stderr: (empty)", server: "scripted" });
    expect([await waitUntilGone(server, 2000), await waitUntilGone(grandchild, 2000)]).toEqual([true, true]);
  });
});
