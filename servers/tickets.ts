// The tickets demo server: MCP 2026-07-28 over Streamable HTTP, stateless, on 127.0.0.1 (POST /mcp).
// `startTicketsServer` serves it in-process (port 0 for tests); run directly, it is the `pnpm tickets` CLI.
import { realpathSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import { fileURLToPath } from "node:url";
import { answerPost } from "./tickets/answer-post.js";
import { TICKETS_EXTRA_METHODS } from "./tickets/extra-methods.js";
import type { HeaderLookup } from "./tickets/header-checks.js";
import { errorReply, replyStatus, writeReply, type Reply } from "./tickets/http-reply.js";
import { gateRequest, MCP_PATH } from "./tickets/request-gate.js";
import { createTicketStore } from "./tickets/store.js";
import { createTicketTools } from "./tickets/tools.js";
import { INTERNAL_ERROR, INVALID_REQUEST, rpcError } from "./shared/rpc-error.js";
import type { ServerSpec } from "./shared/router.js";

export const DEFAULT_TICKETS_PORT = 3115;
const MAX_BODY_BYTES = 1024 * 1024;
/** Node's own limit on receiving one whole request (headers and body). */
const REQUEST_TIMEOUT_MS = 30_000;

export type TicketsServerOptions = {
  readonly host?: string;
  readonly port?: number;
  /** One line per request (`[tickets] …`); off unless given. */
  readonly log?: (line: string) => void;
};

export type TicketsServer = { readonly port: number; readonly url: string; close(): Promise<void> };

function ticketsSpec(): ServerSpec {
  const tools = createTicketTools(createTicketStore());
  return {
    identity: { name: "tickets", title: "Ticket system (mca demo server)", version: "1.0.0" },
    capabilities: { tools: {}, prompts: {}, resources: {} },
    cache: { ttlMs: 60_000, cacheScope: "public" },
    tools,
    toolsPerPage: tools.length,
    methods: TICKETS_EXTRA_METHODS,
  };
}

function headerLookup(req: IncomingMessage): HeaderLookup {
  return (name) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  };
}

/** The body as text, or undefined when it passes the cap (the rest is read and dropped, so a reply can follow). */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += bytes.length;
    if (size <= MAX_BODY_BYTES) chunks.push(bytes);
  }
  return size <= MAX_BODY_BYTES ? Buffer.concat(chunks).toString("utf8") : undefined;
}

async function replyTo(spec: ServerSpec, req: IncomingMessage): Promise<Reply> {
  const header = headerLookup(req);
  const path = new URL(req.url ?? "/", "http://localhost").pathname;
  const refusal = gateRequest({ method: req.method ?? "", path, origin: header("origin"), host: header("host") });
  if (refusal) return refusal;
  const body = await readBody(req);
  if (body === undefined) return errorReply(null, rpcError(INVALID_REQUEST, `Request body exceeds ${MAX_BODY_BYTES} bytes`), 413);
  return answerPost(spec, header, body, (header("accept") ?? "").includes("text/event-stream"));
}

export function startTicketsServer(options: TicketsServerOptions = {}): Promise<TicketsServer> {
  const { host = "127.0.0.1", port = DEFAULT_TICKETS_PORT, log } = options;
  const spec = ticketsSpec();
  const server = createServer((req, res) => {
    replyTo(spec, req)
      .catch((error: unknown) => errorReply(null, rpcError(INTERNAL_ERROR, `Internal error: ${String(error)}`)))
      .then((reply) => {
        log?.(`[tickets] ${req.method} ${req.url} ${req.headers["mcp-method"] ?? "-"} → ${replyStatus(reply)}`);
        writeReply(res, reply);
      });
  });
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const address = server.address();
      const actualPort = typeof address === "object" && address !== null ? address.port : port;
      let closing: Promise<void> | undefined;
      resolve({
        port: actualPort,
        url: `http://${host}:${actualPort}${MCP_PATH}`,
        close() {
          closing ??= new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          });
          return closing;
        },
      });
    });
  });
}

/** `--port <n>` or `--port=<n>`, else TICKETS_PORT, else 3115; a message when the value is no port. */
function portFrom(argv: readonly string[], env: NodeJS.ProcessEnv): number | string {
  const flag = argv.findIndex((arg) => arg === "--port" || arg.startsWith("--port="));
  const flagValue = argv[flag] === "--port" ? argv[flag + 1] : argv[flag]?.slice("--port=".length);
  const text = flag === -1 ? env["TICKETS_PORT"] : flagValue;
  if (flag === -1 && (text === undefined || text === "")) return DEFAULT_TICKETS_PORT;
  if (text === undefined) return "tickets: --port needs a value";
  const port = Number(text);
  return Number.isInteger(port) && port >= 0 && port <= 65_535 ? port : `tickets: invalid port ${JSON.stringify(text)}`;
}

async function runCli(): Promise<void> {
  const port = portFrom(process.argv.slice(2), process.env);
  if (typeof port === "string") {
    process.stderr.write(`${port}\n`);
    process.exit(2);
  }
  const log = process.env["TICKETS_LOG"] === "1" ? (line: string) => process.stderr.write(`${line}\n`) : undefined;
  try {
    const server = await startTicketsServer({ port, ...(log ? { log } : {}) });
    process.stderr.write(`tickets: listening on ${server.url}\n`);
    const stop = () => void server.close().then(() => process.exit(0));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  } catch (error) {
    const inUse = error instanceof Error && "code" in error && error.code === "EADDRINUSE";
    process.stderr.write(inUse ? `tickets: port ${port} is already in use\n` : `tickets: cannot listen: ${String(error)}\n`);
    process.exit(1);
  }
}

/** Run as a script (`tsx servers/tickets.ts`, `node dist/servers/tickets.js`), not imported. */
function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (isEntryPoint()) void runCli();
