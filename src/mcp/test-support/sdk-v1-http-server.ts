// A stateful legacy (2025-11-25) Streamable HTTP server built with the official TypeScript SDK v1 in its
// documented multi-session shape (one SDK transport per session, looked up by Mcp-Session-Id), answering
// 404 to a session it does not know as the 2025-11-25 spec requires; `restart` forgets every session.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

export interface SeenRequest {
  readonly method: string;
  readonly sessionId: string | undefined;
  readonly rpc: string | undefined;
}

export interface StatefulSdkServer {
  readonly url: string;
  /** Every request's HTTP method, session header and JSON-RPC method, in order. */
  readonly requests: readonly SeenRequest[];
  /** Forgets every session, as a restart does. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? undefined : JSON.parse(text);
}

function rpcMethod(body: unknown): string | undefined {
  return typeof body === "object" && body !== null && "method" in body && typeof body.method === "string" ? body.method : undefined;
}

/** `register` adds a test's own tools (or resources) to each session's server, beside `echo`. */
export async function startStatefulSdkServer(register: (server: McpServer) => void = () => undefined): Promise<StatefulSdkServer> {
  const sessions = new Map<string, { server: McpServer; transport: StreamableHTTPServerTransport }>();
  const requests: SeenRequest[] = [];

  async function newSession(): Promise<StreamableHTTPServerTransport> {
    const server = new McpServer({ name: "sdk-v1-stateful", version: "1.0.0" });
    server.registerTool("echo", { description: "Answers echo." }, () => ({ content: [{ type: "text", text: "echo" }] }));
    register(server);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => void sessions.set(id, { server, transport }),
    });
    await server.connect(transport);
    return transport;
  }

  async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = await readJson(req);
    const header = req.headers["mcp-session-id"];
    const sessionId = typeof header === "string" ? header : undefined;
    requests.push({ method: req.method ?? "", sessionId, rpc: rpcMethod(body) });
    const known = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (sessionId !== undefined && known === undefined) {
      res.writeHead(404, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } }));
      return;
    }
    const transport = known?.transport ?? (await newSession());
    await transport.handleRequest(req, res, body);
  }

  const httpServer = http.createServer((req, res) => void serve(req, res));
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", () => resolve()));
  const address: AddressInfo | string | null = httpServer.address();
  if (address === null || typeof address === "string") throw new Error("the SDK server has no port");

  async function forgetSessions(): Promise<void> {
    const open = [...sessions.values()];
    sessions.clear();
    await Promise.all(open.map(({ server }) => server.close()));
  }

  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    requests,
    restart: forgetSessions,
    async close() {
      await forgetSessions();
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(resolve));
    },
  };
}
