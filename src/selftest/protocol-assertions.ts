// Self-test assertions about the wire: framing, the long note, pagination, stream correlation, header
// validation and version negotiation — each against the real demo servers or a real child process.
import { NOTES, LONG_NOTE_CHARS } from "../../servers/notes/library.js";
import type { StdioServerConfig } from "../config/index.js";
import { createHttpTransport, createModernClient, createWire, isJsonObject, McpError, type JsonObject, type JsonRpcMessage, type Transport } from "../mcp/index.js";
import { createLineFramer } from "../mcp/index.js";
import { ServerConnection } from "../mcp/index.js";
import { callSignal, check, SELFTEST_CALL_LIMIT_MS, type Assertion } from "./check.js";
import { observingSends, type Fixture } from "./fixture.js";
import { deliverInPieces, postRaw, stdioRoundTrip, stdioTransportOf } from "./raw-requests.js";

const LONG_NOTE = NOTES.find((note) => note.id === "long")?.body ?? "";
/** The version mca and both demo servers speak, and one nobody does. */
const SPOKEN = "2026-07-28";
const UNKNOWN_VERSION = "2099-01-01";
const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
const META = (version: string): JsonObject => ({
  [VERSION_KEY]: version,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "mca-selftest", version: "0" },
});

/** What one read of a pipe returns at most on Linux (its capacity), so a longer line always arrives in pieces. */
const PIPE_READ_BYTES = 64 * 1024;
const ECHO_METHOD = "selftest/echo";
const echoLine = (text: string): string => JSON.stringify({ jsonrpc: "2.0", method: ECHO_METHOD, params: { text } });
/** Where the text starts in an echo line: all of it but the closing `"}}`. */
const ECHO_TEXT_OFFSET = echoLine("").length - 3;

/** A UTF-8 continuation byte (10xxxxxx) at `offset`: a cut there splits a character. */
function isInsideCharacter(bytes: Buffer, offset: number): boolean {
  return ((bytes[offset] ?? 0) & 0xc0) === 0x80;
}

function firstDifference(sent: string, received: unknown): string {
  if (typeof received !== "string") return `not a text: ${JSON.stringify(received)?.slice(0, 120)}`;
  let at = 0;
  while (at < sent.length && sent[at] === received[at]) at += 1;
  return `from character ${at}, ${JSON.stringify(sent.slice(at, at + 8))} arrived as ${JSON.stringify(received.slice(at, at + 8))}`;
}

function errorOf(message: unknown): { code?: unknown; data?: unknown } {
  return isJsonObject(message) && isJsonObject(message.error) ? message.error : {};
}

function supportedOf(error: { data?: unknown }): unknown {
  return isJsonObject(error.data) ? error.data.supported : undefined;
}

function notesSpec(fixture: Fixture): StdioServerConfig {
  const spec = fixture.main.config.servers.find((server) => server.alias === "notes");
  check(spec?.transport === "stdio", "mcp.config.json has no stdio server named notes");
  return spec;
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((item, index) => item === b[index]);

interface VersionedListing {
  readonly label: string;
  /** The version each request for the list's first page named, in the order sent. */
  readonly asked: string[];
  /** How many tools, or why not. */
  readonly outcome: number | Error;
}

/** mca's own client, told it speaks `versions` (newest first), lists the tools of the server behind `transport`. */
async function listToolsSpeaking(transport: Transport, versions: readonly string[]): Promise<VersionedListing> {
  const asked: string[] = [];
  const observed = observingSends(transport, (message) => {
    if (!("method" in message) || message.method !== "tools/list" || !("id" in message) || "cursor" in message.params) return;
    const meta = message.params._meta;
    asked.push(String(isJsonObject(meta) ? meta[VERSION_KEY] : undefined));
  });
  const wire = createWire({ transport: observed, clientVersion: "mca-selftest", versions, requestTimeoutMs: SELFTEST_CALL_LIMIT_MS });
  // No server/discover first: the first tools/list is what meets the server's -32022.
  const client = createModernClient(wire);
  try {
    await wire.start();
    return { label: transport.label, asked, outcome: (await client.listTools()).length };
  } catch (error) {
    return { label: transport.label, asked, outcome: error instanceof Error ? error : new Error(String(error)) };
  } finally {
    await client.close();
  }
}

const ticketsTransport = (fixture: Fixture): Transport => createHttpTransport({ label: "tickets", url: fixture.tickets.url });
const notesTransport = (fixture: Fixture): Transport => stdioTransportOf(notesSpec(fixture), fixture.main.config.file);

export const PROTOCOL_ASSERTIONS: Readonly<Record<string, Assertion>> = {
  framing: {
    name: "framing",
    async run(fixture) {
      const sent = ["héllo wörld", `${"x".repeat(PIPE_READ_BYTES - ECHO_TEXT_OFFSET - 2)}😀${"y".repeat(4000)}`, "the last line — no newline"];
      const lines = sent.map(echoLine);
      const wire = Buffer.from(lines.join("\n"));
      // One cut inside the é of the first message; one 64 KiB into the second, inside its 4-byte 😀.
      const first = Buffer.byteLength(lines[0]?.slice(0, lines[0].indexOf("é")) ?? "") + 1;
      const second = Buffer.byteLength(`${lines[0]}\n`) + PIPE_READ_BYTES;
      for (const cut of [first, second]) check(isInsideCharacter(wire, cut), `the cut at byte ${cut} is not inside a character`);
      const framer = fixture.seams.transport?.createFramer ?? createLineFramer;
      const messages = await deliverInPieces(wire, [first, second], framer);
      const received = messages.map((message) => ("method" in message && message.method === ECHO_METHOD ? message.params?.text : message));
      check(received.length === sent.length, `expected ${sent.length} messages from 3 writes, got ${received.length}`);
      sent.forEach((text, index) => check(received[index] === text, `message ${index + 1} came back changed: ${firstDifference(text, received[index])}`));
      return "3 messages cut inside é and inside a 😀 at 64 KiB arrived as sent; the unterminated last came back at end of stream";
    },
  },
  "long-note": {
    name: "long-note",
    async run(fixture) {
      const tool = fixture.main.mounted.tools.find((candidate) => candidate.source === "notes" && candidate.originalName === "read_note");
      check(tool !== undefined, "notes has no read_note tool mounted");
      const result = await tool.run({ id: "long" }, { signal: callSignal() });
      check(!result.isError, `read_note failed: ${result.text.slice(0, 200)}`);
      check(result.text.length === LONG_NOTE_CHARS, `expected ${LONG_NOTE_CHARS} characters, got ${result.text.length}`);
      check(result.text === LONG_NOTE, "the note's content differs from the library's");
      return `${result.text.length} characters over stdio, identical to the library's note`;
    },
  },
  pagination: {
    name: "pagination",
    async run(fixture) {
      const names = fixture.main.mounted.tools.filter((tool) => tool.source === "notes").map((tool) => tool.originalName);
      check(names.length === 3, `expected notes' 3 tools (2 pages of 2), got ${names.length}: ${names.join(", ")}`);
      return `notes lists ${names.join(", ")} across two pages`;
    },
  },
  "sse-correlation": {
    name: "sse-correlation",
    async run(fixture) {
      const spec = fixture.main.config.servers.find((server) => server.alias === "tickets");
      check(spec !== undefined, "mcp.config.json has no server named tickets");
      const connection = new ServerConnection(spec, {
        clientVersion: "0",
        configFile: fixture.main.config.file,
        baseEnv: {},
        onWarning: () => undefined,
        ...(fixture.seams.transport === undefined ? {} : { seams: fixture.seams.transport }),
      });
      const notifications: string[] = [];
      try {
        await connection.connect();
        const outcome = await connection.callTool("search", { query: "T-" }, {
          signal: callSignal(),
          wantProgress: true,
          logLevel: "info",
          onNotification: (notification) => notifications.push(notification.method),
        });
        check(!(outcome instanceof Error), `the search failed: ${String(outcome)}`);
        check(outcome.kind === "complete" && !outcome.isError, "the search did not complete");
        const text = outcome.content.map((block) => (block.type === "text" ? block.text : "")).join("");
        check(/T-\d/.test(text), `the response is not the search result: ${JSON.stringify(text.slice(0, 120))}`);
        const progress = notifications.filter((method) => method === "notifications/progress").length;
        check(progress === 1, `expected exactly 1 progress notification, got ${progress}`);
        return "one progress notification, then the response matched by id; the trailing log was not taken for it";
      } finally {
        await connection.close();
      }
    },
  },
  "header-mismatch": {
    name: "header-mismatch",
    async run(fixture) {
      const reply = await postRaw(
        fixture.tickets.url,
        { "mcp-protocol-version": SPOKEN, "mcp-method": "tools/call" },
        { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META(SPOKEN) } },
      );
      const code = errorOf(JSON.parse(reply.body)).code;
      check(reply.status === 400 && code === -32020, `expected HTTP 400 and -32020, got ${reply.status} and ${String(code)}`);
      return "Mcp-Method tools/call on a tools/list body: HTTP 400, -32020";
    },
  },
  version: {
    name: "version",
    async run(fixture) {
      const reply = await postRaw(
        fixture.tickets.url,
        { "mcp-protocol-version": UNKNOWN_VERSION, "mcp-method": "tools/list" },
        { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META(UNKNOWN_VERSION) } },
      );
      const http = errorOf(JSON.parse(reply.body));
      check(reply.status === 400 && http.code === -32022, `tickets: expected HTTP 400 and -32022, got ${reply.status} and ${String(http.code)}`);
      const overHttp = supportedOf(http);
      check(Array.isArray(overHttp) && overHttp.includes(SPOKEN), `tickets did not list its versions: ${JSON.stringify(http.data)}`);
      const answer: JsonRpcMessage = await stdioRoundTrip(notesSpec(fixture), fixture.main.config.file, "tools/list", { _meta: META(UNKNOWN_VERSION) });
      const stdio = errorOf(answer);
      const overStdio = supportedOf(stdio);
      check(stdio.code === -32022 && Array.isArray(overStdio), `notes: expected -32022 with supported versions, got ${JSON.stringify(answer)}`);
      // The client's side: asked to speak the unknown version first, it switches; speaking only that, it reports.
      for (const open of [(): Transport => ticketsTransport(fixture), (): Transport => notesTransport(fixture)]) {
        const switched = await listToolsSpeaking(open(), [UNKNOWN_VERSION, SPOKEN]);
        const { label } = switched;
        check(!(switched.outcome instanceof Error), `${label}: the client did not switch versions: ${String(switched.outcome)}`);
        check(sameList(switched.asked, [UNKNOWN_VERSION, SPOKEN]), `${label}: tools/list asked for ${JSON.stringify(switched.asked)}, not ${UNKNOWN_VERSION} then ${SPOKEN}`);
        const refused = await listToolsSpeaking(open(), [UNKNOWN_VERSION]);
        const error = refused.outcome;
        check(error instanceof McpError && error.kind === "server" && error.code === -32022, `${label}: speaking only ${UNKNOWN_VERSION}, the client got ${String(error)}`);
        check(sameList(refused.asked, [UNKNOWN_VERSION]), `${label}: with no version in common the client still sent ${JSON.stringify(refused.asked)}`);
        check(error.message.includes(SPOKEN), `${label}: the client's error does not report the server's versions: ${error.message}`);
      }
      return `${UNKNOWN_VERSION}: tickets HTTP 400 -32022 supported ${JSON.stringify(overHttp)}, notes -32022 supported ${JSON.stringify(overStdio)}; mca's client switches to ${SPOKEN}, or reports them`;
    },
  },
};
