// An MCP server over stdio with as many tools as its first argument says, each described in as many
// characters as its second; `big` answers with that many characters times a hundred. For tests of output
// bigger than a pipe holds.
import { result, methodNotFound, serveRequests } from "../../mcp/test-support/stdio-server-kit.mjs";

const COUNT = Number(process.argv[2] ?? "1");
const DESCRIPTION_CHARS = Number(process.argv[3] ?? "10");
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
  return methodNotFound(id, method);
}

serveRequests(onRequest);
