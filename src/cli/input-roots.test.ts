import { createServer, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { isJsonObject, type JsonObject } from "../mcp/jsonrpc.js";
import { mountServers, type MountedServers } from "../mcp/mount-servers.js";
import { createCliInputResponder } from "./input-responder.js";

const opened: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((item) => item.close()));
});

/** A loopback server whose one tool, `where`, asks for the client's roots and echoes what it was given. */
async function rootsServer(): Promise<{ url: string; bodies: JsonObject[] }> {
  const bodies: JsonObject[] = [];
  const server: Server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    req.on("end", () => {
      const body: unknown = JSON.parse(text);
      if (!isJsonObject(body) || !isJsonObject(body.params)) throw new Error("the client sent no params");
      bodies.push(body);
      const { inputResponses } = body.params;
      const results: Record<string, JsonObject> = {
        "server/discover": { supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, ttlMs: 0, cacheScope: "private" },
        "tools/list": { tools: [{ name: "where", description: "Where am I", inputSchema: { type: "object" } }], ttlMs: 0, cacheScope: "private" },
        "tools/call":
          inputResponses === undefined
            ? { resultType: "input_required", inputRequests: { dirs: { method: "roots/list" } } }
            : { content: [{ type: "text", text: JSON.stringify(inputResponses) }] },
      };
      const result = typeof body.method === "string" ? results[body.method] : undefined;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: body.id, result: { resultType: "complete", ...result } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  opened.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the test server has no port");
  return { url: `http://127.0.0.1:${address.port}/mcp`, bodies };
}

describe("a mounted tool answered by the CLI's input responder", () => {
  it("sends the project folder as the roots, and declares roots on every request", async () => {
    const { url, bodies } = await rootsServer();
    const inputResponder = createCliInputResponder({ interactive: false, projectDir: "/work/demo", notify: () => undefined });
    const mounted: MountedServers = await mountServers(
      { file: "/tmp/mcp.config.json", servers: [{ alias: "fs", transport: "http", url, headers: {}, enabled: true }] },
      { clientVersion: "0.0.0-test", baseEnv: {}, onWarning: () => undefined, inputResponder },
    );
    opened.push(mounted);
    const result = await mounted.tools[0]?.run({}, { signal: new AbortController().signal });
    expect(result).toEqual({ text: JSON.stringify({ dirs: { roots: [{ uri: "file:///work/demo", name: "demo" }] } }), isError: false });
    const declared = bodies.map((body) => (isJsonObject(body.params) && isJsonObject(body.params._meta) ? body.params._meta["io.modelcontextprotocol/clientCapabilities"] : undefined));
    expect(declared).toEqual(bodies.map(() => ({ elicitation: { form: {} }, roots: {} })));
  });
});
