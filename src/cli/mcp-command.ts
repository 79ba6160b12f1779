// `/mcp` in every mode: each MCP server's status, and by alias, a restart (reconnect), a login, or the log
// messages it sent. A row of the slash command table (commands.ts), with the helpers only it uses.
import { APP_VIEW_NOTE } from "../mcp/index.js";
import { formatServerStatus, type ServerStatus } from "./mcp-servers.js";
import type { AppView } from "./mentions.js";
import type { CommandOutcome, LineRun, SlashCommand } from "./session-seam.js";
import { untrustedText } from "./untrusted-text.js";

export const MCP_COMMAND: SlashCommand = {
  name: "mcp",
  usage: "/mcp [reconnect|login|logs <alias>]",
  summary: "each MCP server's transport, state, protocol version, tools and errors; reconnect: restart one; login: log in to one that needs it; logs: the log messages it sent",
  async run(line, argText) {
    const [verb, alias, ...rest] = argText.trim().split(/\s+/u).filter((word) => word !== "");
    if (verb === undefined) {
      const { servers } = line.session;
      for (const row of formatServerStatus(servers.statuses(), servers.noneLine)) line.view.print(row);
      for (const row of await appViewLines(line)) line.view.print(row);
      return "ok";
    }
    if ((verb !== "login" && verb !== "reconnect" && verb !== "logs") || alias === undefined || rest.length > 0) {
      line.view.warn("usage: /mcp, /mcp reconnect <alias>, /mcp login <alias> or /mcp logs <alias>");
      return "failed";
    }
    if (verb === "reconnect") return reconnectServer(line, alias);
    if (verb === "logs") return showServerLogs(line, alias);
    const { terminal } = line.view;
    if (terminal === null) {
      line.view.warn(`/mcp login needs a terminal and a browser: run \`mca mcp login ${untrustedText(alias)}\` in one`);
      return "failed";
    }
    const code = await line.session.servers.login(alias, (text) => line.view.print(text.trimEnd()), (text) => line.view.warn(text.trimEnd()), terminal);
    if (code !== 0) return "failed";
    // Logged in: the server comes up with the login now, its tools offered from the next prompt on.
    return reconnectServer(line, alias);
  },
};

/** How long /mcp waits for the servers' resource listings before it shows the views listed by then. */
const APP_VIEWS_WAIT_MS = 2000;

/** The servers' MCP Apps views, as their resources were last listed: shown as what they are, never rendered. */
async function appViewLines(line: LineRun): Promise<string[]> {
  // A server that never answers resources/list must not hold /mcp: its views are left out.
  const listed = await Promise.race([line.session.mentions.apps(), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), APP_VIEWS_WAIT_MS).unref())]);
  const views = [...(listed ?? new Map<string, readonly AppView[]>())].flatMap(([alias, apps]) =>
    apps.map((app) => untrustedText(`  ${alias}  ${app.uri}${app.title === undefined ? "" : `  ${app.title.replace(/\s+/gu, " ")}`}`)),
  );
  return views.length === 0 ? [] : [`MCP Apps views (${APP_VIEW_NOTE}):`, ...views];
}

/** A server's status with the log messages its connection keeps (the latest 200, as `level logger: text`). */
type StatusWithLogs = ServerStatus & { readonly logs?: readonly string[] };

/** `/mcp logs <alias>`: what the server logged, oldest first; only its warnings and errors were shown as they came. */
function showServerLogs(line: LineRun, alias: string): CommandOutcome {
  const server: StatusWithLogs | undefined = line.session.servers.statuses().find((status) => status.alias === alias);
  if (server === undefined) {
    line.view.warn(untrustedText(`/mcp logs: no MCP server is named ${JSON.stringify(alias)} (/mcp lists them)`));
    return "failed";
  }
  const logs = server.logs ?? [];
  if (logs.length === 0) line.view.print(untrustedText(`${alias} has sent no log message`));
  // The server's own words: shown, never obeyed.
  for (const log of logs) line.view.print(untrustedText(log));
  return "ok";
}

/** Restarts one server and offers the tools it lists now in place of the remote tools offered before. */
async function reconnectServer(line: LineRun, alias: string): Promise<CommandOutcome> {
  const { agent, servers, mentions } = line.session;
  const reconnected = await servers.reconnect(alias, line.signal);
  if (reconnected instanceof Error) {
    line.view.warn(untrustedText(reconnected.message));
    return "failed";
  }
  const local = agent.tools.filter((tool) => tool.source === "local");
  agent.setTools([...local, ...reconnected.remoteTools]);
  await servers.prompts().refresh(alias);
  mentions.refresh(alias);
  for (const row of formatServerStatus([reconnected.status])) line.view.print(row);
  return reconnected.status.state === "connected" ? "ok" : "failed";
}
