// A 2026-07-28 server built with the official TypeScript server SDK v2 (@modelcontextprotocol/server 2.4.0),
// three tools defined once for both transports: stdio (sdk-v2-stdio-main.ts) and Streamable HTTP (below).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createMcpHandler, McpServer, type McpServerFactory, type ServerNotifier } from "@modelcontextprotocol/server";
import * as z from "zod";

export function createFixtureServer(): McpServer {
  const server = new McpServer({ name: "mca-interop-fixture", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.registerTool(
    "status",
    { description: "Says that the fixture is up; reads nothing", inputSchema: z.object({}), annotations: { readOnlyHint: true } },
    async () => ({ content: [{ type: "text", text: "fixture up" }] }),
  );
  server.registerTool(
    "multiply",
    { description: "Multiplies two integers", inputSchema: z.object({ a: z.number().int(), b: z.number().int() }) },
    async ({ a, b }) => ({ content: [{ type: "text", text: `${a} x ${b} = ${a * b}` }] }),
  );
  server.registerTool(
    "refuse",
    { description: "Always answers with an error result naming the reason", inputSchema: z.object({ reason: z.string() }) },
    async ({ reason }) => ({ content: [{ type: "text", text: `refused: ${reason}` }], isError: true }),
  );
  return server;
}

function webRequest(req: http.IncomingMessage, body: Buffer): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(`http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`, { method, headers, ...(hasBody ? { body: body.toString("utf8") } : {}) });
}

/** The SDK's fetch-shaped handler behind a plain node:http server on 127.0.0.1, a free port; `notify` publishes to its listen streams. */
export async function startFixtureHttpServer(
  factory: McpServerFactory = () => createFixtureServer(),
): Promise<{ url: string; notify: ServerNotifier; close(): Promise<void> }> {
  const handler = createMcpHandler(factory);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      void (async () => {
        const response = await handler.fetch(webRequest(req, Buffer.concat(chunks)));
        res.writeHead(response.status, Object.fromEntries(response.headers));
        if (response.body) for await (const chunk of response.body) res.write(chunk);
        res.end();
      })().catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address: AddressInfo | string | null = server.address();
  if (address === null || typeof address === "string") throw new Error("the fixture server has no port");
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    notify: handler.notify,
    close: async () => {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
