// A scripted legacy (2025-11-25) MCP server over stdio for the era tests: `--probe=<how>` picks how it
// treats a request before `initialize` (server/discover above all); after the handshake it serves tools
// the 2025 way (no resultType) and can send requests of its own to the client; `--upgraded` makes it
// answer a later call with -32022, offering 2026-07-28.
import { createInterface } from "node:readline";

const flags = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value = "true"] = arg.replace(/^--/, "").split("=");
    return [key, value];
  }),
);
const probe = flags.get("probe") ?? "method-not-found";
const received = [];
const waitingForClient = new Map();
let initialized = false;
let ownRequestIds = 0;

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const result = (id, body) => send({ jsonrpc: "2.0", id, result: body });
const failure = (id, code, message, data) =>
  send({ jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } });
const text = (value) => ({ content: [{ type: "text", text: value }] });

/** Sends a request to the client and resolves with its response (or a note that none came in 2 s). */
function askClient(method, params) {
  ownRequestIds += 1;
  const id = `server-${ownRequestIds}`;
  send(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ unanswered: method }), 2000);
    waitingForClient.set(id, (response) => {
      clearTimeout(timer);
      resolve(response);
    });
  });
}

/** How a request before `initialize` is treated: the era-detection branch under test. */
const BEFORE_INITIALIZE = {
  "method-not-found": (id) => failure(id, -32601, "Method not found"),
  "invalid-params": (id) => failure(id, -32602, "Invalid request parameters"),
  "server-not-initialized": (id) => failure(id, -32002, "Server not initialized"),
  // A line that is no JSON at all, then a result that is no DiscoverResult.
  garbage: (id) => {
    process.stdout.write("legacy server ready\n");
    result(id, { resultType: "complete", greeting: "hello" });
  },
  "no-result-type": (id) => result(id, { supportedVersions: ["2026-07-28"], capabilities: {} }),
  "legacy-versions-only": (id) =>
    failure(id, -32022, "Unsupported protocol version", { supported: ["2025-11-25", "2025-06-18"], requested: "2026-07-28" }),
  silent: () => undefined,
  exit: () => {
    process.stderr.write("unexpected message before initialize, exiting\n");
    process.exit(3);
  },
};

const TOOLS = [
  { name: "echo", description: "Echoes its arguments", inputSchema: { type: "object" } },
  { name: "ask", description: "Sends the client ping and roots/list and reports the answers", inputSchema: { type: "object" } },
];

const CALLS = {
  echo: (id, params) => result(id, text(JSON.stringify(params.arguments ?? {}))),
  received: (id) => result(id, { ...text("see structuredContent"), structuredContent: { messages: received } }),
  exit: () => process.exit(4),
  ask: async (id) => {
    const answers = [await askClient("ping"), await askClient("roots/list", {})];
    result(id, { ...text("asked"), structuredContent: { answers } });
  },
};

function onRequest(message) {
  const { id, method, params = {} } = message;
  if (method === "initialize") {
    initialized = true;
    return result(id, {
      protocolVersion: flags.get("agree") ?? "2025-11-25",
      capabilities: { tools: {} },
      serverInfo: { name: "legacy-scripted", version: "0.9.0" },
      instructions: "Initialize first.",
    });
  }
  if (!initialized) return BEFORE_INITIALIZE[probe](id);
  // `--two-era`: as a server behind a two-era entry point, a request carrying the 2026 keys goes to a
  // modern handler that this legacy-only server does not have.
  if (flags.has("two-era") && params._meta?.["io.modelcontextprotocol/protocolVersion"] !== undefined) {
    return failure(id, -32000, "cannot serve the 2026-07-28 protocol revision");
  }
  if (method === "tools/list") return result(id, { tools: TOOLS });
  // `--upgraded`: the server has since learned 2026-07-28 and refuses a call in any other version (-32022).
  const version = params._meta?.["io.modelcontextprotocol/protocolVersion"];
  if (method === "tools/call" && flags.has("upgraded") && version !== "2026-07-28") {
    return failure(id, -32022, "Unsupported protocol version", { supported: ["2026-07-28"], requested: version });
  }
  if (method === "tools/call") {
    const behaviour = CALLS[params.name];
    if (!behaviour) return failure(id, -32602, `Unknown tool: ${params.name}`);
    return behaviour(id, params);
  }
  return failure(id, -32601, "Method not found");
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (line.trim() === "") return;
  const message = JSON.parse(line);
  received.push(message);
  if (message.method !== undefined && message.id !== undefined) return void onRequest(message);
  if (message.method === undefined) waitingForClient.get(message.id)?.(message);
});
lines.on("close", () => process.exit(0));
