// A loopback MCP server guarded the way fastmcp and mcp-proxy guard theirs: every request without the right
// `X-Api-Key` is answered 401 with a reason and no OAuth metadata anywhere; the rest go on to the tickets
// demo server. For the tests of what a plain 401 says.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startTicketsServer } from "../../../servers/tickets.js";

/** How the refusal is worded: in the body as text, as JSON, as a JSON-RPC error, or only in `WWW-Authenticate`. */
export type Refusal =
  | { readonly kind: "text"; readonly body: string }
  | { readonly kind: "json"; readonly body: Readonly<Record<string, string>> }
  | { readonly kind: "json-rpc"; readonly message: string }
  | { readonly kind: "challenge"; readonly description: string };

export interface ApiKeyServer {
  readonly url: string;
  /** Method and path of every request received, in order. */
  readonly requests: readonly string[];
  close(): Promise<void>;
}

function refuse(response: http.ServerResponse, refusal: Refusal): void {
  switch (refusal.kind) {
    case "text":
      response.writeHead(401, { "content-type": "text/plain" }).end(refusal.body);
      return;
    case "json":
      response.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify(refusal.body));
      return;
    case "json-rpc":
      response.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: refusal.message } }));
      return;
    case "challenge":
      response.writeHead(401, { "www-authenticate": `Bearer error="invalid_token", error_description="${refusal.description}"` }).end();
      return;
    default: {
      const never: never = refusal;
      throw new Error(`unknown refusal ${JSON.stringify(never)}`);
    }
  }
}

export async function startApiKeyServer(key: string, refusal: Refusal): Promise<ApiKeyServer> {
  const tickets = await startTicketsServer({ port: 0 });
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    requests.push(`${request.method ?? ""} ${request.url ?? ""}`);
    if (request.url !== "/mcp" || request.headers["x-api-key"] !== key) {
      // Drain what was sent before answering, so the client's write never meets a closed socket.
      request.resume().on("end", () => (request.url === "/mcp" ? refuse(response, refusal) : response.writeHead(404).end()));
      return;
    }
    const upstream = http.request(`http://127.0.0.1:${tickets.port}/mcp`, { method: request.method, headers: { ...request.headers, host: `127.0.0.1:${tickets.port}` } }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on("error", () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address: AddressInfo | string | null = server.address();
  if (address === null || typeof address === "string") throw new Error("the API-key server has no TCP address");
  const { port } = address;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await tickets.close();
    },
  };
}
