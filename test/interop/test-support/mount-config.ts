// Mounts servers the way a user does: an `mcpServers` config file written to a folder, read back through
// parseMcpConfig and mounted by mountServers; the interop tests then call the tools as the agent would.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError } from "../../../src/config/index.js";
import { parseMcpConfig } from "../../../src/config/index.js";
import type { ToolArgs, ToolResult } from "../../../src/kernel/index.js";
import { mountServers, type MountedServers } from "../../../src/mcp/index.js";

export interface MountedConfig {
  readonly mounted: MountedServers;
  readonly configFile: string;
  readonly warnings: readonly string[];
  /** Runs a mounted tool by its flat name; throws if there is no such tool (a test bug, not a result). */
  call(flatName: string, args: ToolArgs): Promise<ToolResult>;
  /** The original names of one server's mounted tools, sorted. */
  toolNames(alias: string): string[];
}

export async function mountConfig(folder: string, mcpServers: Readonly<Record<string, unknown>>): Promise<MountedConfig> {
  const configFile = join(folder, "mcp.config.json");
  const text = JSON.stringify({ mcpServers }, null, 2);
  await writeFile(configFile, text);
  const config = parseMcpConfig(text, configFile, process.env);
  if (config instanceof ConfigError) throw config;
  const warnings: string[] = [];
  const mounted = await mountServers(config, { clientVersion: "0.15.0", baseEnv: process.env, onWarning: (w) => warnings.push(w) });
  return {
    mounted,
    configFile,
    warnings,
    call: (flatName, args) => {
      const tool = mounted.tools.find((candidate) => candidate.name === flatName);
      if (tool === undefined) throw new Error(`no mounted tool ${flatName}`);
      return tool.run(args, { signal: AbortSignal.timeout(10_000) });
    },
    toolNames: (alias) =>
      mounted.tools
        .filter((tool) => tool.source === alias)
        .map((tool) => tool.originalName)
        .sort(),
  };
}
