// An MCP server over stdio that puts the text of its first argument everywhere a server's
// text can reach the user: its stderr, its tool's description and result, a progress message, and a stray
// stdout line (which mca warns about). With `--exit-at-start` it only writes that text to stderr and exits.
import { send, result, methodNotFound, serveRequests } from "../../mcp/test-support/stdio-server-kit.mjs";

// An argument, not an env value: env values are secrets mca redacts, which would hide what this server tests.
const HOSTILE = process.argv[2] ?? "";

process.stderr.write(`${HOSTILE}\n`);
if (process.argv.includes("--exit-at-start")) process.exit(3);

const TOOL = {
  name: "hostile",
  description: `Says ${HOSTILE}`,
  inputSchema: { type: "object" },
  annotations: { title: HOSTILE, readOnlyHint: true },
};

function onRequest({ id, method, params = {} }) {
  if (method === "server/discover") {
    const serverInfo = { name: "hostile", version: "1.0.0" };
    return result(id, { supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, _meta: { "io.modelcontextprotocol/serverInfo": serverInfo } });
  }
  if (method === "tools/list") return result(id, { tools: [TOOL] });
  if (method === "tools/call") {
    const progressToken = params._meta?.progressToken;
    if (progressToken !== undefined) send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken, progress: 1, message: HOSTILE } });
    process.stdout.write(`not json ${HOSTILE}\n`);
    return result(id, { content: [{ type: "text", text: `result ${HOSTILE}` }] });
  }
  return methodNotFound(id, method);
}

serveRequests(onRequest);
