// The slash commands, as a table: each is a plain object, and adding one is a one-row change. The same
// rows serve the chat, pipe mode, `-p` and the plain output of the subcommands.
import type { Agent } from "../kernel/index.js";
import { parseCallLine } from "./call-args.js";
import { formatColumns } from "./columns.js";
import { toolClaims } from "./tool-claims.js";
import { formatServerStatus, type ServerStatusProvider } from "./server-status.js";

export interface CommandContext {
  readonly agent: Agent;
  readonly servers: ServerStatusProvider;
  /** Output for stdout; a final newline is added when missing. */
  readonly print: (text: string) => void;
  /** Diagnostics for stderr. */
  readonly warn: (text: string) => void;
  /** Aborted by Ctrl-C during this line. */
  readonly signal: AbortSignal;
}

/** "failed" makes pipe mode exit 1; "exit" ends the session. */
export type CommandOutcome = "ok" | "failed" | "exit";

export interface SlashCommand {
  readonly name: string;
  readonly usage: string;
  readonly summary: string;
  run(context: CommandContext, argText: string): Promise<CommandOutcome>;
}

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  {
    name: "help",
    usage: "/help",
    summary: "list the commands; any other line is a prompt for the model",
    async run(context) {
      for (const line of formatColumns(SLASH_COMMANDS.map((command) => [command.usage, command.summary]))) {
        context.print(line);
      }
      return "ok";
    },
  },
  {
    name: "tools",
    usage: "/tools",
    summary: "every tool the model sees: name, source, approval, and what a server claims about its tool",
    async run(context) {
      const { agent } = context;
      const rows = agent.tools.map((tool) => [tool.name, tool.source, agent.decide(tool.name).verdict, toolClaims(tool)]);
      for (const line of formatColumns(rows)) context.print(line);
      return "ok";
    },
  },
  {
    name: "approvals",
    usage: "/approvals",
    summary: "each tool's approval decision and its reason",
    async run(context) {
      const { agent } = context;
      const rows = agent.tools.map((tool) => {
        const decision = agent.decide(tool.name);
        return [tool.name, decision.verdict, decision.reason];
      });
      for (const line of formatColumns(rows)) context.print(line);
      return "ok";
    },
  },
  {
    name: "call",
    usage: "/call <tool> <json>",
    summary: "call a tool yourself, through the same gate, snapshots and truncation as the model",
    async run(context, argText) {
      const parsed = parseCallLine(argText);
      if (parsed instanceof Error) {
        context.warn(`/call: ${parsed.message}`);
        return "failed";
      }
      const report = await context.agent.call(parsed.tool, parsed.args, context.signal);
      context.print(report.text);
      if (!report.isError) return "ok";
      context.warn(`/call ${report.tool} failed; approval: ${report.decision.verdict} (${report.decision.reason})`);
      return "failed";
    },
  },
  {
    name: "undo",
    usage: "/undo",
    summary: "restore the files the last turn changed",
    async run(context) {
      const report = await context.agent.undo();
      if (report.nothingToUndo) {
        context.print("nothing to undo");
        return "ok";
      }
      if (report.restored.length === 0) context.print("no files to restore");
      for (const path of report.restored) context.print(`restored ${path}`);
      for (const tool of report.notUndoable) context.print(`not undoable (remote call): ${tool}`);
      return "ok";
    },
  },
  {
    name: "clear",
    usage: "/clear",
    summary: "forget the conversation so far",
    async run(context) {
      context.agent.clear();
      context.print("conversation cleared");
      return "ok";
    },
  },
  {
    name: "mcp",
    usage: "/mcp",
    summary: "each MCP server's transport, state, protocol version, tools and errors",
    async run(context) {
      for (const line of formatServerStatus(context.servers())) context.print(line);
      return "ok";
    },
  },
  {
    name: "exit",
    usage: "/exit",
    summary: "end the session",
    async run() {
      return "exit";
    },
  },
];

export function findSlashCommand(name: string, commands: readonly SlashCommand[] = SLASH_COMMANDS): SlashCommand | undefined {
  return commands.find((command) => command.name === name);
}
