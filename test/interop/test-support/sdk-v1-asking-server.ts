// A sessionful 2025-11-25 server built with the official SDK v1 (@modelcontextprotocol/sdk 1.32.2) over
// Streamable HTTP, whose one tool asks the client `ping` and `roots/list` on the call's own event stream
// and reports how each was answered: the legacy "answer a request" path, against a real implementation.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { EmptyResultSchema, ListRootsResultSchema } from "@modelcontextprotocol/sdk/types.js";

const ASK_LIMIT_MS = 3000;

async function outcome(request: Promise<unknown>): Promise<string> {
  try {
    return `answered ${JSON.stringify(await request)}`;
  } catch (error) {
    return `refused: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function createAskingServer(): McpServer {
  const server = new McpServer({ name: "asking-v1", version: "1.0.0" });
  server.registerTool("ask-client", { description: "Asks the client ping and roots/list, and says what came back" }, async (extra) => {
    const ping = await outcome(extra.sendRequest({ method: "ping" }, EmptyResultSchema, { timeout: ASK_LIMIT_MS }));
    const roots = await outcome(extra.sendRequest({ method: "roots/list" }, ListRootsResultSchema, { timeout: ASK_LIMIT_MS }));
    return { content: [{ type: "text", text: `ping ${ping}; roots/list ${roots}` }] };
  });
  return server;
}

/** One transport (and server instance) per session, as sessionful SDK v1 deployments do. */
export async function startAskingServer(): Promise<{ url: string; sessions(): number; close(): Promise<void> }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const httpServer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      void (async () => {
        const body: unknown = chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString("utf8"));
        const sessionId = req.headers["mcp-session-id"];
        let transport = typeof sessionId === "string" ? transports.get(sessionId) : undefined;
        if (transport === undefined) {
          const fresh = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (id) => void transports.set(id, fresh),
          });
          await createAskingServer().connect(fresh);
          transport = fresh;
        }
        await transport.handleRequest(req, res, body);
      })().catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const address: AddressInfo | string | null = httpServer.address();
  if (address === null || typeof address === "string") throw new Error("the asking server has no port");
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    sessions: () => transports.size,
    close: async () => {
      await Promise.all([...transports.values()].map((transport) => transport.close()));
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
