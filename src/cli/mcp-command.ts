// `/mcp` in every mode: each MCP server's status, and by alias, a restart (reconnect), a login, or the log
// messages it sent. A row of the slash command table (commands.ts), with the helpers only it uses.
import { APP_VIEW_NOTE } from "../mcp/index.js";
import { formatServerStatus, NO_SERVERS_MESSAGE, type ServerStatus } from "./mcp-servers.js";
import type { AppView } from "./mentions.js";
import type { CommandContext, CommandOutcome, SlashCommand } from "./command-context.js";
import { untrustedText } from "./untrusted-text.js";

export const MCP_COMMAND: SlashCommand = {
  name: "mcp",
  usage: "/mcp [reconnect|login|logs <alias>]",
  summary: "each MCP server's transport, state, protocol version, tools and errors; reconnect: restart one; login: log in to one that needs it; logs: the log messages it sent",
  async run(context, argText) {
    const [verb, alias, ...rest] = argText.trim().split(/\s+/u).filter((word) => word !== "");
    if (verb === undefined) {
      for (const line of formatServerStatus(context.servers())) context.print(line);
      for (const line of await appViewLines(context)) context.print(line);
      return "ok";
    }
    if ((verb !== "login" && verb !== "reconnect" && verb !== "logs") || alias === undefined || rest.length > 0) {
      context.warn("usage: /mcp, /mcp reconnect <alias>, /mcp login <alias> or /mcp logs <alias>");
      return "failed";
    }
    if (verb === "reconnect") return reconnectServer(context, alias);
    if (verb === "logs") return showServerLogs(context, alias);
    if (context.mcpLogin === undefined) {
      context.warn(`/mcp login needs a terminal and a browser: run \`mca mcp login ${untrustedText(alias)}\` in one`);
      return "failed";
    }
    const code = await context.mcpLogin(alias, (text) => context.print(text.trimEnd()), (text) => context.warn(text.trimEnd()));
    if (code !== 0) return "failed";
    // Logged in: the server comes up with the login now, its tools offered from the next prompt on.
    return reconnectServer(context, alias);
  },
};

/** How long /mcp waits for the servers' resource listings before it shows the views listed by then. */
const APP_VIEWS_WAIT_MS = 2000;

/** The servers' MCP Apps views, as their resources were last listed: shown as what they are, never rendered. */
async function appViewLines(context: CommandContext): Promise<string[]> {
  // A server that never answers resources/list must not hold /mcp: its views are left out.
  const listed = await Promise.race([context.mentions?.apps(), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), APP_VIEWS_WAIT_MS).unref())]);
  const views = [...(listed ?? new Map<string, readonly AppView[]>())].flatMap(([alias, apps]) =>
    apps.map((app) => untrustedText(`  ${alias}  ${app.uri}${app.title === undefined ? "" : `  ${app.title.replace(/\s+/gu, " ")}`}`)),
  );
  return views.length === 0 ? [] : [`MCP Apps views (${APP_VIEW_NOTE}):`, ...views];
}

/** A server's status with the log messages its connection keeps (the latest 200, as `level logger: text`). */
type StatusWithLogs = ServerStatus & { readonly logs?: readonly string[] };

/** `/mcp logs <alias>`: what the server logged, oldest first; only its warnings and errors were shown as they came. */
function showServerLogs(context: CommandContext, alias: string): CommandOutcome {
  const server: StatusWithLogs | undefined = context.servers().find((status) => status.alias === alias);
  if (server === undefined) {
    context.warn(untrustedText(`/mcp logs: no MCP server is named ${JSON.stringify(alias)} (/mcp lists them)`));
    return "failed";
  }
  const logs = server.logs ?? [];
  if (logs.length === 0) context.print(untrustedText(`${alias} has sent no log message`));
  // The server's own words: shown, never obeyed.
  for (const line of logs) context.print(untrustedText(line));
  return "ok";
}

/** Restarts one server and offers the tools it lists now in place of the remote tools offered before. */
async function reconnectServer(context: CommandContext, alias: string): Promise<CommandOutcome> {
  if (context.reconnectServer === undefined) {
    context.warn(NO_SERVERS_MESSAGE);
    return "failed";
  }
  const reconnected = await context.reconnectServer(alias, context.signal);
  if (reconnected instanceof Error) {
    context.warn(untrustedText(reconnected.message));
    return "failed";
  }
  const local = context.agent.tools.filter((tool) => tool.source === "local");
  context.agent.setTools([...local, ...reconnected.remoteTools]);
  await context.promptCommands?.refresh(alias);
  context.mentions?.refresh(alias);
  for (const line of formatServerStatus([reconnected.status])) context.print(line);
  return reconnected.status.state === "connected" ? "ok" : "failed";
}
