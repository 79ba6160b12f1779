// Mounting and reading on inputs too large to take whole: a stdio server listing hundreds of thousands of
// tools, and an HTTP server answering a call with 250 MB. Each case runs in a fresh child process, so its
// peak RSS is its own; the longest event-loop stall is how late a SIGINT would be heard.
// Run: `npx tsx lab/mount-bench.ts`.
import { spawnSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { isJsonObject, mountServers, type McpServerConfig } from "../src/mcp/index.js";

const MANY_TOOLS_SERVER = fileURLToPath(new URL("../src/mcp/test-support/many-tools-server.mjs", import.meta.url));
const CASE_LIMIT_MS = 300_000;
const RESULT_BYTES = 250_000_000;

interface BenchCase {
  readonly id: string;
  readonly server: "stdio" | "http";
  readonly flags?: readonly string[];
  readonly maxToolsPerServer?: number;
}

const CASES: readonly BenchCase[] = [
  { id: "stdio: 3 tools (baseline)", server: "stdio", flags: ["--tools=3"] },
  { id: "stdio: 300,000 tools over 3 pages, default cap", server: "stdio", flags: ["--tools=300000", "--pages=3"] },
  { id: "stdio: 1,000,000 tools in one page, default cap", server: "stdio", flags: ["--tools=1000000"] },
  { id: "stdio: 300,000 tools over 3 pages, maxToolsPerServer 300,000", server: "stdio", flags: ["--tools=300000", "--pages=3"], maxToolsPerServer: 300_000 },
  { id: "http: one call answered with 250 MB", server: "http" },
];

/** An MCP server over HTTP with one tool, `dump`, whose result is RESULT_BYTES of text. */
async function startDumpServer(): Promise<{ url: string; close(): void }> {
  const answer = (id: unknown, result: object): string => JSON.stringify({ jsonrpc: "2.0", id, result: { resultType: "complete", ...result } });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const message: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const id = isJsonObject(message) ? message.id : null;
      const method = isJsonObject(message) ? message.method : undefined;
      res.writeHead(200, { "Content-Type": "application/json" });
      if (method === "server/discover") return res.end(answer(id, { supportedVersions: ["2026-07-28"], capabilities: { tools: {} } }));
      if (method === "tools/list") return res.end(answer(id, { tools: [{ name: "dump", inputSchema: { type: "object" } }] }));
      const [head, tail] = answer(id, { content: [{ type: "text", text: "\u0000" }] }).split("\u0000");
      res.write(head);
      const block = "x".repeat(1_000_000);
      let sent = 0;
      const more = (): void => {
        while (sent < RESULT_BYTES && !res.destroyed) {
          sent += block.length;
          if (!res.write(block)) return void res.once("drain", more);
        }
        if (!res.destroyed) res.end(tail);
      };
      more();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address: AddressInfo | string | null = server.address();
  if (address === null || typeof address === "string") throw new Error("the dump server has no port");
  return { url: `http://127.0.0.1:${address.port}/mcp`, close: () => server.close() };
}

/** In the child: mount, call the first tool, then the table row. */
async function runCase(index: number): Promise<void> {
  const spec = CASES[index];
  if (spec === undefined) throw new Error(`no case ${index}`);
  const dump = spec.server === "http" ? await startDumpServer() : undefined;
  const server: McpServerConfig = dump
    ? { alias: "big", transport: "http", url: dump.url, headers: {}, enabled: true }
    : { alias: "many", transport: "stdio", command: process.execPath, args: [MANY_TOOLS_SERVER, ...(spec.flags ?? [])], env: {}, enabled: true };
  const warnings: string[] = [];
  const stalls = monitorEventLoopDelay({ resolution: 10 });
  stalls.enable();
  const started = performance.now();
  const mounted = await mountServers(
    { file: "bench", servers: [{ ...server, startupTimeoutMs: CASE_LIMIT_MS }], ...(spec.maxToolsPerServer === undefined ? {} : { maxToolsPerServer: spec.maxToolsPerServer }) },
    { clientVersion: "bench", baseEnv: { PATH: process.env.PATH }, onWarning: (warning) => warnings.push(warning) },
  );
  const mountMs = Math.round(performance.now() - started);
  const called = performance.now();
  const result = await mounted.tools[0]?.run({}, { signal: new AbortController().signal });
  const callMs = Math.round(performance.now() - called);
  stalls.disable();
  await mounted.close();
  dump?.close();
  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const stallMs = Math.round(stalls.max / 1e6);
  const said = `${mounted.tools.length} tools, ${warnings.length} warnings; call: ${result?.isError === true ? "error" : "ok"}, ${(result?.text ?? "").slice(0, 90)}`;
  process.stdout.write(`| ${spec.id} | ${mountMs} ms | ${callMs} ms | ${stallMs} ms | ${peakRssMb} MB | ${said} |\n`);
}

function main(): void {
  console.log("| case | mount | call | longest stall | peak RSS | outcome |");
  console.log("|---|---|---|---|---|---|");
  CASES.forEach((spec, index) => {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), "--case", String(index)], {
      encoding: "utf8",
      timeout: CASE_LIMIT_MS,
    });
    const line = child.stdout.trim().split("\n").at(-1) ?? "";
    if (child.status !== 0 || line === "") {
      console.log(`| ${spec.id} | failed (status ${child.status}) | | | | ${child.stderr.trim().split("\n").at(-1) ?? ""} |`);
      return;
    }
    console.log(line);
  });
}

const caseFlag = process.argv.indexOf("--case");
if (caseFlag === -1) main();
else await runCase(Number(process.argv[caseFlag + 1]));
