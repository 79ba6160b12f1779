// Discovery by mca mounting several servers at once (src/mcp/mount-servers.ts): each sample a fresh
// mount (spawn, discover, list), closed before the next.
import type { McpConfig, StdioServerConfig } from "../../../src/config/index.js";
import { mountServers } from "../../../src/mcp/index.js";
import type { Command } from "../servers/server-command.js";

function stdioServer(alias: string, command: Command): StdioServerConfig {
  return { alias, transport: "stdio", command: command.command, args: command.args, env: {}, enabled: true };
}

export function fleetConfig(servers: ReadonlyMap<string, Command>): McpConfig {
  return { file: `${process.cwd()}/bench-mount.json`, servers: [...servers].map(([alias, command]) => stdioServer(alias, command)) };
}

/** Milliseconds from mountServers() to every server connected (spawn, discover, list), per fresh mount. */
export async function mountMs(servers: ReadonlyMap<string, Command>, warmups: number, samples: number): Promise<number[]> {
  const config = fleetConfig(servers);
  const deps = { clientVersion: "bench", baseEnv: process.env, onWarning: (message: string) => process.stderr.write(`${message}\n`) };
  const mountOnce = async (): Promise<number> => {
    const started = performance.now();
    const mounted = await mountServers(config, deps);
    const elapsed = performance.now() - started;
    try {
      const down = mounted.statuses().filter((status) => status.state !== "connected");
      if (down.length > 0) throw new Error(`not connected: ${down.map((status) => `${status.alias} (${status.error})`).join(", ")}`);
    } finally {
      await mounted.close();
    }
    return elapsed;
  };
  for (let index = 0; index < warmups; index += 1) await mountOnce();
  const millis: number[] = [];
  for (let index = 0; index < samples; index += 1) millis.push(await mountOnce());
  return millis;
}
