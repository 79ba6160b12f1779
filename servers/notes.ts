// The notes demo server: MCP 2026-07-28 over stdio, stateless. Reads one JSON-RPC message per line from
// stdin, writes one per line to stdout, logs only to stderr, and exits when stdin closes.
import { createLineReader } from "./notes/line-reader.js";
import { NOTES } from "./notes/library.js";
import { NOTES_TOOLS } from "./notes/tools.js";
import { parseIncoming } from "./shared/incoming.js";
import { failure, PARSE_ERROR, rpcError } from "./shared/rpc-error.js";
import { answerMessage, answerMessages, type ServerSpec } from "./shared/router.js";

const NOTES_TOOLS_PER_PAGE = 2;

const NOTES_SERVER: ServerSpec = {
  identity: { name: "notes", title: "Notes library (mca demo server)", version: "1.0.0" },
  capabilities: { tools: {} },
  // The library never changes while the process runs.
  cache: { ttlMs: 300_000, cacheScope: "public" },
  tools: NOTES_TOOLS,
  toolsPerPage: NOTES_TOOLS_PER_PAGE,
};

function log(line: string): void {
  process.stderr.write(`[notes] ${line}\n`);
}

function send(message: unknown): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

function handleLine(line: string): void {
  const incoming = parseIncoming(line);
  switch (incoming.kind) {
    case "invalid":
      log(`rejected a line (${incoming.error.message})`);
      send(failure(incoming.id, incoming.error));
      return;
    case "notification":
      // Every request is answered before the next line is read, so a notifications/cancelled finds nothing in flight.
      return;
    case "request":
      for (const message of answerMessages(incoming.id, answerMessage(NOTES_SERVER, incoming.method, incoming.params))) {
        send(message);
      }
      return;
    default: {
      const unreachable: never = incoming;
      return unreachable;
    }
  }
}

const reader = createLineReader({
  onLine: handleLine,
  onOversize(maxLineBytes) {
    log(`dropped a line longer than ${maxLineBytes} bytes`);
    send(failure(null, rpcError(PARSE_ERROR, `Parse error: a line longer than ${maxLineBytes} bytes was dropped`)));
  },
});

// The reader is gone (EPIPE): nobody is left to answer.
process.stdout.on("error", () => process.exit(0));
process.stdin.on("data", (chunk: Buffer) => reader.push(chunk));
process.stdin.on("end", () => {
  reader.end();
  log("stdin closed; exiting");
});
log(`ready: ${NOTES.length} notes, ${NOTES_TOOLS.length} tools, protocol 2026-07-28 over stdio`);
