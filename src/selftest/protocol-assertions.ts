// Self-test assertions about the wire: framing, the long note, pagination, stream correlation, header
// validation and version negotiation — each against the real demo servers.
import { NOTES, LONG_NOTE_CHARS } from "../../servers/notes/library.js";
import type { StdioServerConfig } from "../config/index.js";
import { isJsonObject, type JsonObject, type JsonRpcMessage } from "../mcp/index.js";
import { createLineFramer } from "../mcp/index.js";
import { ServerConnection } from "../mcp/index.js";
import { callSignal, check, type Assertion } from "./check.js";
import type { Fixture } from "./fixture.js";
import { postRaw, stdioRoundTrip } from "./raw-requests.js";

const LONG_NOTE = NOTES.find((note) => note.id === "long")?.body ?? "";
const META = (version: string): JsonObject => ({
  "io.modelcontextprotocol/protocolVersion": version,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "mca-selftest", version: "0" },
});

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

export const PROTOCOL_ASSERTIONS: Readonly<Record<string, Assertion>> = {
  framing: {
    name: "framing",
    async run(fixture) {
      const framer = (fixture.seams.transport?.createFramer ?? createLineFramer)(1024 * 1024);
      const wire = Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"text":"héllo"}}\n{"jsonrpc":"2.0","method":"last"}');
      const lines: string[] = [];
      for (const cut of [[0, 7], [7, 30], [30, 58], [58, wire.length]]) {
        const out = framer.push(wire.subarray(cut[0], cut[1]));
        check(!(out instanceof Error), `the framer failed: ${String(out)}`);
        lines.push(...out);
      }
      lines.push(...framer.end());
      check(lines.length === 2, `expected 2 lines from 4 chunks, got ${lines.length}: ${JSON.stringify(lines)}`);
      check(lines[0]?.includes("héllo") === true, `the first message came apart: ${JSON.stringify(lines[0])}`);
      check(lines[1] === '{"jsonrpc":"2.0","method":"last"}', `the last line was not handed back at end of stream`);
      return "a message split in 4 chunks arrived whole; the unterminated last line came back at end of stream";
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
        { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call" },
        { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META("2026-07-28") } },
      );
      const code = errorOf(JSON.parse(reply.body)).code;
      check(reply.status === 400 && code === -32020, `expected HTTP 400 and -32020, got ${reply.status} and ${String(code)}`);
      return "Mcp-Method tools/call on a tools/list body: HTTP 400, -32020";
    },
  },
  version: {
    name: "version",
    async run(fixture) {
      const wanted = "2099-01-01";
      const reply = await postRaw(
        fixture.tickets.url,
        { "mcp-protocol-version": wanted, "mcp-method": "tools/list" },
        { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META(wanted) } },
      );
      const http = errorOf(JSON.parse(reply.body));
      check(reply.status === 400 && http.code === -32022, `tickets: expected HTTP 400 and -32022, got ${reply.status} and ${String(http.code)}`);
      const overHttp = supportedOf(http);
      check(Array.isArray(overHttp) && overHttp.includes("2026-07-28"), `tickets did not list its versions: ${JSON.stringify(http.data)}`);
      const answer: JsonRpcMessage = await stdioRoundTrip(notesSpec(fixture), fixture.main.config.file, "tools/list", { _meta: META(wanted) });
      const stdio = errorOf(answer);
      const overStdio = supportedOf(stdio);
      check(stdio.code === -32022 && Array.isArray(overStdio), `notes: expected -32022 with supported versions, got ${JSON.stringify(answer)}`);
      return `${wanted}: tickets HTTP 400 -32022 supported ${JSON.stringify(overHttp)}; notes -32022 supported ${JSON.stringify(overStdio)}`;
    },
  },
};
