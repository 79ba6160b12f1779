// The scale group: many stdio servers of the catalogue's tools (each a `node` running the compiled raw
// stdio server, one page of tools), mounted by mca's own mountServers or by the built CLI.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgent, createToolIndex, DEFAULT_TOOL_SEARCH, type RequestPreview, type SnapshotStore, type Tool, type ToolSearchMode, type ToolSpec } from "../../../src/kernel/index.js";
import { mountServers } from "../../../src/mcp/index.js";
import { createLocalTools } from "../../../src/tools/index.js";
import type { CaseRun } from "../cases.js";
import { serverCommand, type Command } from "../servers/server-command.js";
import { fleetConfig, mountMs } from "./mount.js";
import { exitRunPeakRssMb, startUpMs } from "./start-up.js";

type ScaleRun = Extract<CaseRun, { kind: "scale" }>;

export interface ServerFleet {
  readonly servers: number;
  readonly toolsPerServer: number;
}

/** `ws01` … `ws50`: workspace `n` of the catalogue, offering `toolsPerServer` tools in one page. */
export function fleetCommands({ servers, toolsPerServer }: ServerFleet): Map<string, Command> {
  const commands = new Map<string, Command>();
  for (let index = 1; index <= servers; index += 1) {
    const args = ["--tools", String(toolsPerServer), "--page-size", String(toolsPerServer), "--catalogue", String(index)];
    commands.set(`ws${String(index).padStart(2, "0")}`, serverCommand("raw-stdio-server", args));
  }
  return commands;
}

/** The fleet as an `--mcp-config` file: `{"mcpServers": {alias: {command, args}}}`. */
export function fleetConfigJson(fleet: ServerFleet): string {
  const servers = Object.fromEntries([...fleetCommands(fleet)].map(([alias, { command, args }]) => [alias, { command, args }]));
  return `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`;
}

const CLI_WARMUPS = 1;

/**
 * One prompt, which the offline mock model answers with this call: the session's first request carries
 * what tool search offers, and the search builds its index over every mounted tool.
 */
const CLI_PROMPT = 'call tool_search {"query":"list open pull requests"}\n';
/** What pipe mode prints once the search found tools (src/cli's call report). */
const CLI_SEARCHED = 'tool_search succeeded: "Loaded ';

/**
 * The built CLI in pipe mode (MOCK=1, one prompt) with the fleet configured, in an empty project: the
 * milliseconds of each run until exit, and the peak RSS of one more run (GNU time), mca's whole process
 * with every tool mounted, its session made, one tool search run and two requests answered.
 */
export async function cliWithFleet(fleet: ServerFleet, repoDir: string, samples: number): Promise<{ samples: number[]; peakRssMb: number | undefined }> {
  const dir = mkdtempSync(join(tmpdir(), "mca-bench-"));
  try {
    const config = join(dir, "fleet.mcp.json");
    writeFileSync(config, fleetConfigJson(fleet));
    const run = { command: { command: process.execPath, args: [join(repoDir, "dist", "src", "main.cjs"), "--mcp-config", config] }, cwd: dir, env: { ...process.env, MOCK: "1" }, input: CLI_PROMPT, expectText: CLI_SEARCHED };
    const millis = await startUpMs(run, CLI_WARMUPS, samples);
    return { samples: millis, peakRssMb: exitRunPeakRssMb(run) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const MOUNT_WARMUPS = 1;

/** The fleet's tools as mountServers offers them (flat names, the servers' descriptions), the servers closed after. */
async function fleetTools(fleet: ServerFleet): Promise<readonly Tool[]> {
  const mounted = await mountServers(fleetConfig(fleetCommands(fleet)), { clientVersion: "bench", baseEnv: process.env, onWarning: (message) => process.stderr.write(`${message}\n`) });
  try {
    return mounted.tools;
  } finally {
    await mounted.close();
  }
}

/** What the model is told of each tool of the fleet. */
async function fleetSpecs(fleet: ServerFleet): Promise<ToolSpec[]> {
  return (await fleetTools(fleet)).map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
}

/** Nothing a first request's preview touches: it runs no tool and asks no one. */
const NO_SNAPSHOTS: SnapshotStore = { save: async () => undefined, note: async () => undefined, seal: async () => undefined, undoLatest: async () => null };
const SYSTEM = "You are mca, a coding agent.";

/** What an agent over a session's local tools and the fleet's would send first (Agent.requestPreview). */
async function firstRequest(fleet: ServerFleet, toolSearch: ToolSearchMode): Promise<RequestPreview> {
  const project = mkdtempSync(join(tmpdir(), "mca-bench-"));
  try {
    const agent = createAgent({
      model: { name: "none", complete: () => Promise.reject(new Error("the bench makes no request")) },
      tools: [...createLocalTools(project), ...(await fleetTools(fleet))],
      rules: [],
      system: SYSTEM,
      approve: async () => ({ kind: "nobody_to_ask", reason: "the bench runs no tool" }),
      snapshots: NO_SNAPSHOTS,
      transcript: { append: () => undefined },
      emit: () => undefined,
      toolSearch,
    });
    return agent.requestPreview();
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

/** Where no API count exists: one token per four characters of the JSON sent. */
const tokensOf = (chars: number): number => Math.ceil(chars / 4);

/** What a model would look for: words of a task (some matching many tools, some one, one nothing), and regular expressions. */
export const SEARCH_QUERIES: readonly string[] = [
  "create an issue",
  "list open pull requests",
  "search slack messages in a channel",
  "take a screenshot of the page",
  "run a query plan on the database table",
  "refund a payment for a customer invoice",
  "export the dashboard as csv",
  "delete a dns record",
  "who is on call",
  "kubernetes pod logs",
  "/^mcp__ws07__/",
  "/(invoice|refund)/",
];

function millisOf(work: () => void): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

/** Each query, `rounds` times over, against one index built first (its build not counted). */
function searchMs(specs: readonly ToolSpec[], rounds: number): number[] {
  const index = createToolIndex(specs);
  const found = SEARCH_QUERIES.map((query) => index.search(query).length);
  if (found.every((count) => count === 0)) throw new Error("no query found anything: the index is not over the fleet's tools");
  return Array.from({ length: rounds }, () => SEARCH_QUERIES.map((query) => millisOf(() => index.search(query)))).flat();
}

export async function measureScale(run: ScaleRun, repoDir: string): Promise<{ samples: number[]; peakRssMb?: number }> {
  switch (run.figure) {
    case "mount":
      return { samples: await mountMs(fleetCommands(run), MOUNT_WARMUPS, run.samples) };
    case "cli":
      return cliWithFleet(run, repoDir, run.samples);
    case "search":
      return { samples: searchMs(await fleetSpecs(run), run.samples) };
    case "search-index": {
      const specs = await fleetSpecs(run);
      return { samples: Array.from({ length: run.samples }, () => millisOf(() => createToolIndex(specs))) };
    }
    case "first-request": {
      const preview = await firstRequest(run, DEFAULT_TOOL_SEARCH);
      if (preview.deferred.length === 0) throw new Error("tool search deferred nothing");
      return { samples: [tokensOf(JSON.stringify(preview.tools).length)] };
    }
    case "first-request-names": {
      const preview = await firstRequest(run, DEFAULT_TOOL_SEARCH);
      return { samples: [tokensOf(preview.system.length - SYSTEM.length)] };
    }
    case "first-request-all":
      return { samples: [tokensOf(JSON.stringify((await firstRequest(run, { kind: "never" })).tools).length)] };
    default: {
      const unknown: never = run.figure;
      throw new Error(`unknown scale figure ${String(unknown)}`);
    }
  }
}
