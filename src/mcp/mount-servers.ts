// Mounts every enabled server of the config at session start: each discovered on its own, in parallel,
// so start-up takes as long as the slowest server and one failure never stops the others.
import type { McpConfig } from "../config/index.js";
import type { Tool } from "../kernel/index.js";
import { createMountedTool, createUnavailableTool } from "./mounted-tool.js";
import { buildNamespace, toolPrefix, type ToolRef } from "./namespace.js";
import type { ConnectionDeps, ServerConnection, ServerStatus } from "./server-connection.js";

export interface MountedServers {
  /** The remote tools, under their flat names, in namespace order. */
  readonly tools: readonly Tool[];
  /** For a name under the prefix of a server that never came up: a tool whose call names the reason. */
  findTool(name: string): Tool | undefined;
  /** Reverse lookup of a flat name, through the namespace's table only. */
  lookup(flatName: string): ToolRef | undefined;
  statuses(): ServerStatus[];
  close(): Promise<void>;
}

export type MountDeps = Omit<ConnectionDeps, "configFile">;

export async function mountServers(config: McpConfig, deps: MountDeps): Promise<MountedServers> {
  const enabled = config.servers.filter((server) => server.enabled);
  // server-connection.js brings both transports, node:http and node:https with it (a third of the modules
  // mca loads at start): a session without servers never needs them.
  const connections: ServerConnection[] = [];
  if (enabled.length > 0) {
    const connection = await import("./server-connection.js");
    for (const server of enabled) connections.push(new connection.ServerConnection(server, { ...deps, configFile: config.file }));
  }
  await Promise.all(connections.map((connection) => connection.connect()));

  const byAlias = new Map(connections.map((connection) => [connection.alias, connection]));
  const namespace = buildNamespace(connections.flatMap((c) => c.tools.map((tool) => ({ alias: c.alias, tool: tool.name }))));
  const tools: Tool[] = [];
  for (const entry of namespace.entries()) {
    const connection = byAlias.get(entry.alias);
    const info = connection?.tools.find((tool) => tool.name === entry.tool);
    if (connection && info) tools.push(createMountedTool(connection, info, entry.flatName));
  }

  return {
    tools,
    findTool(name) {
      if (namespace.lookup(name)) return undefined;
      const owner = connections.find((c) => c.state === "failed" && name.startsWith(toolPrefix(c.alias)));
      return owner && createUnavailableTool(owner, name);
    },
    lookup: (flatName) => namespace.lookup(flatName),
    statuses: () => connections.map((connection) => connection.status()),
    close: async () => {
      await Promise.all(connections.map((connection) => connection.close()));
    },
  };
}
