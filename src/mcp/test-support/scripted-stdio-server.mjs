// A scripted MCP server over stdio for the transport and client tests. Flags on argv shape the whole
// process (pagination, versions, start-up noise, exits, teardown); the tool called picks one behaviour.
import { spawn } from "node:child_process";
import { appendFileSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const flags = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value = "true"] = arg.replace(/^--/, "").split("=");
    return [key, value];
  }),
);
const versions = (flags.get("versions") ?? "2026-07-28").split(",");
const received = [];
let requestCount = 0;
let grandchild;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const frame = (message) => `${JSON.stringify(message)}\n`;
const send = (message) => process.stdout.write(frame(message));
const result = (id, body) => send({ jsonrpc: "2.0", id, result: { resultType: "complete", ...body } });
const failure = (id, code, message, data) =>
  send({ jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } });
const text = (value) => ({ content: [{ type: "text", text: value }] });

async function writeInPieces(bytes, cuts, delayMs, stream = process.stdout) {
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    stream.write(bytes.subarray(from, cut));
    from = cut;
    await sleep(delayMs);
  }
}

const TOOLS = [
  { name: "alpha", description: "First tool", inputSchema: { type: "object", properties: { q: { type: "string" } } } },
  {
    name: "beta",
    title: "Beta",
    description: "Second tool",
    inputSchema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: { id: { type: "string", $anchor: "ident" } },
      properties: { id: { $ref: "#/$defs/id" } },
      additionalProperties: false,
    },
    outputSchema: { type: "string" },
    annotations: { readOnlyHint: true },
    _meta: { "com.example/owner": "tests" },
  },
  { name: "gamma", description: "Third tool", inputSchema: { type: "object" } },
];

/** `--list-echo` also lists `echo` (on the last page), so a host can call it by a listed name. */
const LISTED_ECHO = flags.has("list-echo") ? [{ name: "echo", description: "Answers with its call", inputSchema: { type: "object" } }] : [];

const PAGES = {
  normal: { first: "b3BhcXVlLTI=", pages: { "b3BhcXVlLTI=": { tools: [TOOLS[2], ...LISTED_ECHO] } } },
  "empty-cursor": { first: "", pages: { "": { tools: [TOOLS[2]] } } },
  repeat: { first: "again", pages: { again: { tools: [TOOLS[2]], nextCursor: "again" } } },
};

/** `--tools-from=<file>`: one page of the tools named in that file, one name a line, read at each listing. */
function toolsFromFile(file) {
  const names = readFileSync(file, "utf8").split("\n").filter((name) => name !== "");
  return names.map((name) => ({ name, description: `Listed from ${file}`, inputSchema: { type: "object" } }));
}

function listTools(id, params) {
  if (flags.has("tools-from")) return result(id, { tools: toolsFromFile(flags.get("tools-from")) });
  // `--tools-json=<file>`: one page of the tools that file defines (a JSON array), read at each listing.
  if (flags.has("tools-json")) return result(id, { tools: JSON.parse(readFileSync(flags.get("tools-json"), "utf8")) });
  const plan = PAGES[flags.get("pages") ?? "normal"];
  if (params.cursor === undefined) return result(id, { tools: TOOLS.slice(0, 2), nextCursor: plan.first });
  const page = plan.pages[params.cursor];
  if (!page) return failure(id, -32602, "Invalid cursor");
  return result(id, page);
}

const CALLS = {
  echo: (id, params) => result(id, { ...text(JSON.stringify(params)), structuredContent: params }),
  received: (id) => result(id, { ...text("see structuredContent"), structuredContent: { messages: received } }),
  pids: (id) => result(id, { ...text("pids"), structuredContent: { server: process.pid, grandchild: grandchild?.pid } }),
  split: async (id) => {
    const bytes = Buffer.from(frame({ jsonrpc: "2.0", id, result: { resultType: "complete", ...text("arrived whole") } }));
    await writeInPieces(bytes, [5, 17, 30], 20);
  },
  "utf8-split": async (id) => {
    const bytes = Buffer.from(frame({ jsonrpc: "2.0", id, result: { resultType: "complete", ...text("héllo ✓ 😀") } }));
    const emoji = bytes.indexOf(Buffer.from("😀"));
    const check = bytes.indexOf(Buffer.from("✓"));
    await writeInPieces(bytes, [bytes.indexOf(Buffer.from("é")) + 1, check + 2, emoji + 1, emoji + 3], 20);
  },
  big: (id, params) => result(id, text("x".repeat(params.arguments?.bytes ?? 200_000))),
  "notify-first": (id, params) => {
    const token = params._meta?.progressToken;
    send({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: {} });
    if (token !== undefined) send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 1, total: 2 } });
    send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "someone-else", progress: 1 } });
    if (params._meta?.["io.modelcontextprotocol/logLevel"] !== undefined) {
      send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } });
    }
    result(id, text("done"));
  },
  late: async (id, params) => {
    await sleep(params.arguments?.delayMs ?? 300);
    result(id, text(String(params.arguments?.tag ?? "late")));
  },
  never: () => undefined,
  /** Answers, then sends one log message at `level` whatever level the call asked for: a server that does not filter. */
  "log-after": (id, params) => {
    const level = params.arguments?.level ?? "info";
    result(id, text("logged"));
    send({ jsonrpc: "2.0", method: "notifications/message", params: { level, logger: "scripted", data: `a message at ${level}` } });
  },
  exit: (id, params) => {
    process.stderr.write(params.arguments?.stderr ?? "");
    setTimeout(() => process.exit(params.arguments?.code ?? 1), 10);
  },
  garbage: (id, params) => {
    process.stdout.write(`${params.arguments?.line ?? "[debug] this server logs to stdout"}\n`);
    result(id, text("after garbage"));
  },
  /** Writes `text` to stderr, cut at the byte offsets `cuts`, then answers. */
  stderr: async (id, params) => {
    await writeInPieces(Buffer.from(params.arguments?.text ?? ""), params.arguments?.cuts ?? [], 20, process.stderr);
    result(id, text("written"));
  },
  /** Answers without the final newline, then closes stdout and exits: the last line comes at end of stream. */
  "unterminated-then-exit": (id) => {
    process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, result: { resultType: "complete", ...text("last words") } }), () => process.exit(0));
  },
  "input-required": (id) =>
    send({
      jsonrpc: "2.0",
      id,
      result: {
        resultType: "input_required",
        inputRequests: { who: { method: "elicitation/create", params: { mode: "form", message: "Login?" } } },
        requestState: "opaque-state",
      },
    }),
  "unknown-result-type": (id) => send({ jsonrpc: "2.0", id, result: { resultType: "later", ...text("?") } }),
  "no-result-type": (id) => send({ jsonrpc: "2.0", id, result: { ...text("legacy"), isError: true } }),
};

async function onRequest(message) {
  const { id, method, params = {} } = message;
  requestCount += 1;
  const version = params._meta?.["io.modelcontextprotocol/protocolVersion"];
  if (typeof version !== "string") return failure(id, -32602, "Missing _meta");
  const rejectFirst = flags.has("reject-first-version") && requestCount === 1;
  if (rejectFirst || !versions.includes(version)) {
    return failure(id, -32022, "Unsupported protocol version", { supported: versions, requested: version });
  }
  if (method === "server/discover") {
    // `--discover-delay=<ms>`: a server slow to answer its first request (a cold `npx -y`).
    if (flags.has("discover-delay")) await sleep(Number(flags.get("discover-delay")));
    return result(id, {
      supportedVersions: versions,
      capabilities: { tools: {} },
      instructions: "Be kind.",
      ttlMs: 0,
      cacheScope: "public",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "scripted", version: "1.2.3" } },
    });
  }
  if (method === "tools/list") return listTools(id, params);
  if (method === "tools/call") {
    const behaviour = CALLS[params.name];
    if (!behaviour) return failure(id, -32602, `Unknown tool: ${params.name}`);
    return behaviour(id, params);
  }
  return failure(id, -32601, `Method not found: ${method}`);
}

if (flags.has("stderr")) process.stderr.write(`${flags.get("stderr")}\n`);
if (flags.has("log-at-start")) process.stdout.write("Server listening on stdio\n");
if (flags.has("exit-at-start")) process.exit(Number(flags.get("exit-at-start")));
if (flags.has("grandchild")) grandchild = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
if (flags.has("ignore-stdin-eof")) setInterval(() => undefined, 60_000);

/** `--record=<file>`: one JSON line ({ event, atMs }) per teardown step the server sees (and its heartbeats), so a test can read their order. */
const record = (event) => {
  if (flags.has("record")) appendFileSync(flags.get("record"), `${JSON.stringify({ event, atMs: Date.now() })}\n`);
};
const HEARTBEAT_MS = 100;

// Without a listener SIGTERM ends the process before it could be recorded; with one, the server ends
// itself, unless `--ignore-sigterm`: then it records a heartbeat until something stronger comes.
if (flags.has("record") || flags.has("ignore-sigterm")) {
  process.on("SIGTERM", () => {
    record("SIGTERM");
    if (!flags.has("ignore-sigterm")) process.exit(143);
    setInterval(() => record("alive"), HEARTBEAT_MS);
  });
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (line.trim() === "") return;
  const message = JSON.parse(line);
  received.push(message);
  if (message.id !== undefined && message.method !== undefined) void onRequest(message);
});
lines.on("close", () => {
  record("stdin closed");
  if (!flags.has("ignore-stdin-eof")) process.exit(0);
  // Still here: a heartbeat shows the time that passes while the client waits, until a signal comes.
  setInterval(() => record("waiting"), HEARTBEAT_MS);
});
