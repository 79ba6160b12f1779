// An MCP server over stdio with as many tools as its first argument says, each described in as many
// characters as its second; `big` answers with that many characters times a hundred. For tests of output
// bigger than a pipe holds.
import { createInterface } from "node:readline";

const COUNT = Number(process.argv[2] ?? "1");
const DESCRIPTION_CHARS = Number(process.argv[3] ?? "10");
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const result = (id, body) => send({ jsonrpc: "2.0", id, result: { resultType: "complete", ...body } });
const TOOLS = Array.from({ length: COUNT }, (_, index) => ({
  name: index === 0 ? "big" : `tool_${index}`,
  description: `Tool ${index}: ${"d".repeat(DESCRIPTION_CHARS)}`,
  inputSchema: { type: "object" },
  annotations: { readOnlyHint: true },
}));

function onRequest({ id, method }) {
  if (method === "server/discover") {
    const serverInfo = { name: "many", version: "1.0.0" };
    return result(id, { supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, _meta: { "io.modelcontextprotocol/serverInfo": serverInfo } });
  }
  if (method === "tools/list") return result(id, { tools: TOOLS });
  if (method === "tools/call") return result(id, { content: [{ type: "text", text: "r".repeat(DESCRIPTION_CHARS * 100) }] });
  return send({ jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } });
}

createInterface({ input: process.stdin })
  .on("line", (line) => {
    if (line.trim() === "") return;
    const message = JSON.parse(line);
    if (message.id !== undefined && message.method !== undefined) onRequest(message);
  })
  .on("close", () => process.exit(0));
