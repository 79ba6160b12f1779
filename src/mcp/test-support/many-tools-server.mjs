// A stdio MCP server with a huge tool list, for the mounting tests and the lab: `--tools=N` tools named
// `t<i>` over `--pages=P` pages (the last page takes the remainder), optionally `--same-name` (every tool
// sanitises to one flat name) or `--endless` (a fresh cursor on every page, so the list never ends).
import { result, methodNotFound, serveRequests } from "./stdio-server-kit.mjs";

const flags = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value = "true"] = arg.replace(/^--/, "").split("=");
    return [key, value];
  }),
);
const toolCount = Number(flags.get("tools") ?? "1000");
const pageCount = Number(flags.get("pages") ?? "1");
const perPage = Math.ceil(toolCount / pageCount);
const endless = flags.has("endless");
let listings = 0;


function toolName(index) {
  // `a.0`, `a 0`, `a/0`: distinct names that are the same once sanitised, one group of three per index.
  return flags.has("same-name") ? `a${".-/".charAt(index % 3)}${Math.floor(index / 3)}` : `t${index}`;
}

function page(id, cursor) {
  const number = cursor === undefined ? 0 : Number(cursor);
  listings += 1;
  const first = number * perPage;
  const count = endless ? perPage : Math.max(0, Math.min(perPage, toolCount - first));
  const tools = Array.from({ length: count }, (_, i) => ({ name: toolName(first + i), inputSchema: { type: "object" } }));
  const more = endless || first + count < toolCount;
  result(id, more ? { tools, nextCursor: String(number + 1) } : { tools });
}

function onRequest({ id, method, params = {} }) {
  if (method === "server/discover") {
    return result(id, { supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, _meta: {} });
  }
  if (method === "tools/list") return page(id, params.cursor);
  if (method === "tools/call") return result(id, { content: [{ type: "text", text: `called ${params.name}; tools/list pages served: ${listings}` }] });
  methodNotFound(id, method);
}

serveRequests(onRequest);
