import { afterEach, describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "../jsonrpc.js";
import { createMessageInbox } from "../test-support/http-message-inbox.js";
import { CHALLENGE, legacyEvent, startLegacySseServer, type LegacySseScript } from "../test-support/legacy-sse-server.js";
import { rejection, summary } from "../test-support/mcp-rejection.js";
import { createHeaderTable, type HeaderTable } from "./headers.js";
import { createLegacySseTransport, type LegacySseTransportOptions } from "./legacy-sse-transport.js";

const ENDPOINT = legacyEvent("endpoint", "/message?sessionId=abc");
/** A header table a client has told that it speaks `version`. */
function spoken(version: string): HeaderTable {
  const table = createHeaderTable();
  table.speak(version);
  return table;
}
const PING: JsonRpcMessage = { jsonrpc: "2.0", id: 1, method: "ping", params: {} };

/** Answers every request with an empty result on the stream, as a 2024-11-05 server does. */
function answerRequests(message: JsonRpcMessage): readonly string[] {
  return "method" in message && "id" in message ? [legacyEvent("message", JSON.stringify({ jsonrpc: "2.0", id: message.id, result: {} }))] : [];
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(script: LegacySseScript, options: Partial<LegacySseTransportOptions> = {}) {
  const server = await startLegacySseServer(script);
  cleanups.push(() => server.close());
  const inbox = createMessageInbox();
  const transport = createLegacySseTransport({ label: "hosted", url: server.url, ...options });
  cleanups.push(() => transport.close());
  return { server, inbox, transport, starting: transport.start(inbox.handlers) };
}

describe("createLegacySseTransport", () => {
  it("opens the stream, POSTs each message to the endpoint it names, and hands up what the stream carries", async () => {
    const { server, inbox, transport, starting } = await setup(
      { opening: [": hello\n\n", ENDPOINT], answer: answerRequests },
      { headers: { "X-Team": "blue" }, headerTable: spoken("2024-11-05") },
    );
    await starting;
    await transport.send(PING);
    expect(await inbox.next()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(server.getHeaders.map((headers) => ({ accept: headers.accept, team: headers["x-team"] }))).toEqual([{ accept: "text/event-stream", team: "blue" }]);
    expect(server.posts.map((post) => ({ path: post.path, message: post.message, type: post.headers["content-type"], version: post.headers["mcp-protocol-version"] }))).toEqual([
      { path: "/message?sessionId=abc", message: PING, type: "application/json", version: "2024-11-05" },
    ]);
  });

  it("takes an absolute endpoint on the stream's own origin", async () => {
    const { server, transport, starting } = await setup({ opening: [legacyEvent("endpoint", "{origin}/message?sessionId=x")] });
    await starting;
    await transport.send(PING);
    expect(server.posts.map((post) => post.path)).toEqual(["/message?sessionId=x"]);
  });

  it("refuses an endpoint on another origin: start fails and nothing is sent there", async () => {
    const { server, starting } = await setup({ opening: [legacyEvent("endpoint", "http://127.0.0.2:9/steal")] });
    expect(summary(await rejection(starting))).toEqual({
      kind: "protocol",
      message: `the endpoint event from ${server.url} names another origin (http://127.0.0.2:9); messages are only sent to ${server.origin}`,
      server: "hosted",
    });
    expect(server.posts).toEqual([]);
  });

  it("gives up on a stream that never names its endpoint, saying so", async () => {
    const { server, starting } = await setup({ opening: [legacyEvent("message", "{}")] }, { endpointTimeoutMs: 200 });
    expect(summary(await rejection(starting))).toEqual({
      kind: "timeout",
      message: `${server.url} sent no endpoint event within 200 ms of the GET`,
      server: "hosted",
    });
    await server.streamClosed();
  });

  it("fails start with the status of a GET that is refused", async () => {
    const { server, starting } = await setup({ opening: [], getStatus: 405 });
    expect(summary(await rejection(starting))).toEqual({
      kind: "protocol",
      message: `${server.url} answered HTTP 405 Method Not Allowed to the GET of its event stream: "no stream here"`,
      server: "hosted",
    });
  });

  it("ends the connection when the stream breaks mid-call, with the reason", async () => {
    const { server, inbox, transport, starting } = await setup({ opening: [ENDPOINT], answer: () => "break" });
    await starting;
    await transport.send(PING);
    await server.streamClosed();
    await expect.poll(() => inbox.closeReasons.length).toBe(1);
    expect(inbox.closeReasons.map((reason) => reason.message)).toEqual([`the event stream from ${server.url} broke`]);
    expect(summary(await rejection(transport.send(PING)))).toEqual({ kind: "closed", message: "cannot send request 1: the transport is closed", server: "hosted" });
  });

  it("ends the connection at an endless event, past the cap on one message", async () => {
    const endless = ["data: ", "x".repeat(3000)];
    const { server, inbox, starting } = await setup({ opening: [ENDPOINT, ...endless] }, { maxReplyBytes: 1000 });
    await starting;
    await expect.poll(() => inbox.closeReasons.length).toBe(1);
    expect(inbox.closeReasons.map((reason) => reason.message)).toEqual([
      `${server.url} sent an event larger than 1000 bytes on its stream; the connection was ended (the cap on one message)`,
    ]);
    await server.streamClosed();
  });

  it("rejects a send the endpoint refuses, with the status and what the body said", async () => {
    const { server, transport, starting } = await setup({ opening: [ENDPOINT], postStatus: 400 });
    await starting;
    expect(summary(await rejection(transport.send(PING)))).toEqual({
      kind: "protocol",
      message: `${server.origin}/message answered HTTP 400 Bad Request to request 1: "Could not parse message"`,
      server: "hosted",
    });
  });

  it("keeps header values out of error text", async () => {
    const { starting } = await setup({ opening: [legacyEvent("endpoint", "http://other.example/s3cret-token")] }, { headers: { Authorization: "Bearer s3cret-token" } });
    expect((await rejection(starting)).message).not.toContain("s3cret-token");
  });

  it("closes the stream on close, and hands up the reason once", async () => {
    const { server, inbox, transport, starting } = await setup({ opening: [ENDPOINT] });
    await starting;
    await transport.close();
    await server.streamClosed();
    expect(inbox.closeReasons.map((reason) => reason.message)).toEqual(["the transport was closed"]);
  });
});

describe("createLegacySseTransport: authorization", () => {
  it("hands a 401's challenge to the login, opens the stream again with the new token, and sends it on every POST", async () => {
    const seen: Array<{ status: number; challenge: string | undefined }> = [];
    let issued = 0;
    let accepted = 0;
    const auth = {
      authorization: () => Promise.resolve(issued === 0 ? undefined : `Bearer access-token-${issued}`),
      challenged: (status: number, challenge: string | undefined) => {
        seen.push({ status, challenge });
        issued += 1;
        return Promise.resolve(true);
      },
      accepted: () => void (accepted += 1),
    };
    const { server, inbox, transport, starting } = await setup({ opening: [ENDPOINT], answer: answerRequests, token: "access-token-1" }, { auth });
    await starting;
    await transport.send(PING);
    expect(await inbox.next()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(seen).toEqual([{ status: 401, challenge: CHALLENGE }]);
    expect(server.getHeaders.map((headers) => headers.authorization)).toEqual([undefined, "Bearer access-token-1"]);
    expect(server.posts.map((post) => post.headers.authorization)).toEqual(["Bearer access-token-1"]);
    expect(accepted).toBe(2);
  });
});
