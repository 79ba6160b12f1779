// The health of each configured MCP server as the CLI shows it (`/mcp`, `mca mcp list --json`).
// The MCP mounting fills these in; the CLI only reads them through a provider function.
import { isLegacyVersion } from "../mcp/index.js";
import type { ServerStatus } from "../mcp/index.js";

export type { ServerStatus };

/** Called each time a view is drawn, so a server that died since start-up shows as disconnected. */
export type ServerStatusProvider = () => readonly ServerStatus[];

export const NO_SERVERS_MESSAGE = "no MCP servers configured";

/** Plain-text lines for `/mcp` and `mca mcp list`: one line per server, its error and stderr tail indented. */
export function formatServerStatus(servers: readonly ServerStatus[]): string[] {
  if (servers.length === 0) return [NO_SERVERS_MESSAGE];
  const lines: string[] = [];
  for (const server of servers) {
    // A server mca fell back to the initialize handshake with says so: "legacy 2025-11-25".
    const version = server.protocolVersion === null ? "-" : `${isLegacyVersion(server.protocolVersion) ? "legacy " : ""}${server.protocolVersion}`;
    lines.push(`${server.alias}  ${server.transport}  ${server.state}  protocol ${version}  ${server.tools} tools`);
    if (server.error !== null) lines.push(`  error: ${server.error}`);
    if (server.stderrTail !== null && server.stderrTail.trim() !== "") {
      for (const line of server.stderrTail.trimEnd().split("\n")) lines.push(`  stderr| ${line}`);
    }
  }
  return lines;
}
