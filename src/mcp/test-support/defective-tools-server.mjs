// A 2026-07-28 stdio MCP server for `mca mcp doctor`'s tests: each of its tools has exactly one defect the
// lint reports (and `read-note` is a near-duplicate of the notes demo server's `read_note`).
import { result, methodNotFound, serveRequests } from "./stdio-server-kit.mjs";


const READS = { readOnlyHint: true };
const OBJECT = { type: "object", properties: { id: { type: "string" } } };

/** A clean tool, then one change. */
const tool = (name, change = {}) => ({ name, description: `The ${name} tool.`, inputSchema: OBJECT, annotations: READS, ...change });

const TOOLS = [
  tool("find notes"),
  tool(`fetch_${"x".repeat(60)}`),
  (({ description, ...rest }) => rest)(tool("undescribed")),
  tool("verbose", { description: "v".repeat(2500) }),
  tool("stringly", { inputSchema: { type: "string" } }),
  tool("missing_field", { inputSchema: { type: "object", properties: { id: {} }, required: ["id", "rev"] } }),
  tool("either", { inputSchema: { type: "object", oneOf: [{ required: ["a"] }, { required: ["b"] }] } }),
  tool("read-note"),
  tool("bad_output", { outputSchema: { type: "object", properties: { n: { type: "integer", minimum: "zero" } } } }),
  tool("list_output", { outputSchema: { type: "array" } }),
  (({ annotations, ...rest }) => rest)(tool("unannotated")),
];

function onRequest({ id, method }) {
  if (method === "server/discover") return result(id, { supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, _meta: {} });
  if (method === "tools/list") return result(id, { tools: TOOLS });
  if (method === "tools/call") return result(id, { content: [{ type: "text", text: "done" }] });
  methodNotFound(id, method);
}

serveRequests(onRequest);
