// A loopback 2026-07-28 HTTP server with one tool whose call first answers `input_required` and completes
// once the retry carries `inputResponses`; it records every request body it received, in order.
import { createServer, type Server } from "node:http";
import { isJsonObject, type JsonObject } from "../jsonrpc.js";

export interface InputRequiredScript {
  /** The one tool, as tools/list lists it. */
  readonly tool: JsonObject;
  /** The tools/call result while the call carries no `inputResponses`. */
  readonly ask: JsonObject;
  /** The tools/call result once it does, made from that call's params. */
  finish(params: JsonObject): JsonObject;
}

export interface InputRequiredServer {
  readonly url: string;
  readonly bodies: JsonObject[];
  close(): Promise<void>;
}

export async function startInputRequiredServer(script: InputRequiredScript): Promise<InputRequiredServer> {
  const bodies: JsonObject[] = [];
  const server: Server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    req.on("end", () => {
      const body: unknown = JSON.parse(text);
      if (!isJsonObject(body) || !isJsonObject(body.params)) throw new Error("the client sent no params");
      bodies.push(body);
      const results: Record<string, JsonObject> = {
        "server/discover": { supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, ttlMs: 0, cacheScope: "private" },
        "tools/list": { tools: [script.tool], ttlMs: 0, cacheScope: "private" },
        "tools/call": body.params.inputResponses === undefined ? script.ask : script.finish(body.params),
      };
      const result = typeof body.method === "string" ? results[body.method] : undefined;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: body.id, result: { resultType: "complete", ...result } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = (): Promise<void> => new Promise<void>((resolve) => server.close(() => resolve()));
  const address = server.address();
  if (address === null || typeof address === "string") {
    await close();
    throw new Error("the test server has no port");
  }
  return { url: `http://127.0.0.1:${address.port}/mcp`, bodies, close };
}
