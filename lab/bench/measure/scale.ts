// The scale group: many stdio servers of the catalogue's tools (each a `node` running the compiled raw
// stdio server, one page of tools), mounted by mca's own mountServers or by the built CLI.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CaseRun } from "../cases.js";
import { serverCommand, type Command } from "../servers/server-command.js";
import { mountMs } from "./mount.js";
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

/** One prompt, so that the run makes its session's first model request (the offline mock's) with every tool mounted. */
const CLI_PROMPT = "which tools can list the open issues?\n";

/**
 * The built CLI in pipe mode (MOCK=1, one prompt) with the fleet configured, in an empty project: the
 * milliseconds of each run until exit, and the peak RSS of one more run (GNU time), mca's whole process
 * with every tool mounted, its session made and one request answered.
 */
export async function cliWithFleet(fleet: ServerFleet, repoDir: string, samples: number): Promise<{ samples: number[]; peakRssMb: number | undefined }> {
  const dir = mkdtempSync(join(tmpdir(), "mca-bench-"));
  try {
    const config = join(dir, "fleet.mcp.json");
    writeFileSync(config, fleetConfigJson(fleet));
    const run = { command: { command: process.execPath, args: [join(repoDir, "dist", "src", "main.cjs"), "--mcp-config", config] }, cwd: dir, env: { ...process.env, MOCK: "1" }, input: CLI_PROMPT };
    const millis = await startUpMs(run, CLI_WARMUPS, samples);
    return { samples: millis, peakRssMb: exitRunPeakRssMb(run) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const MOUNT_WARMUPS = 1;

export async function measureScale(run: ScaleRun, repoDir: string): Promise<{ samples: number[]; peakRssMb?: number }> {
  switch (run.figure) {
    case "mount":
      return { samples: await mountMs(fleetCommands(run), MOUNT_WARMUPS, run.samples) };
    case "cli":
      return cliWithFleet(run, repoDir, run.samples);
    case "first-request":
    case "first-request-all":
    case "search":
    case "search-index":
      throw new Error("tool search is not in mca yet");
    default: {
      const unknown: never = run.figure;
      throw new Error(`unknown scale figure ${String(unknown)}`);
    }
  }
}
