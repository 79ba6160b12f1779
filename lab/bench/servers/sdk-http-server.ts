// The SDK v2 Streamable HTTP server: `createMcpHandler` (a fresh server per request, the SDK's stateless
// entry) behind node:http, answering either JSON bodies or event streams (`--replies json|sse`).
import http from "node:http";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { announceWhenListening } from "./listening.js";
import { createSdkServer } from "./sdk-server.js";
import { readServerArgs } from "./server-args.js";
import { toWebRequest, writeWebResponse } from "./web-bridge.js";

const args = readServerArgs(process.argv.slice(2));
const handler = createMcpHandler(() => createSdkServer(), { responseMode: args.replies, legacy: "reject", keepAliveMs: 0 });

const server = http.createServer((req, res) => {
  void (async () => {
    const aborted = new AbortController();
    res.on("close", () => aborted.abort());
    const response = await handler.fetch(await toWebRequest(req, aborted.signal));
    await writeWebResponse(response, res);
  })().catch((error: unknown) => {
    process.stderr.write(`sdk-http-server: ${error instanceof Error ? error.message : String(error)}\n`);
    res.destroy();
  });
});

announceWhenListening(server);
