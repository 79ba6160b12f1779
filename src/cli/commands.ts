// One line of input, in any mode: a slash command from the table, or a prompt for the model. The slash
// commands are a table: each is a plain object, and adding one is a one-row change. The same rows serve
// the chat, pipe mode, `-p` and the plain output of the subcommands. What a tool, a server or a file
// supplied is printed through untrustedText.
import { readFileSync } from "node:fs";
import { describeError, type Tool, type TurnUndo } from "../kernel/index.js";
import { READ_RESOURCE_TOOL } from "../mcp/index.js";
import { definitionMark, toolClaims, toolDisplayName } from "./approval.js";
import { parseCallLine, unknownToolProblem } from "./call-line.js";
import type { CommandOutcome, LastResult, LineOutcome, LineRun, SlashCommand, UserTurn } from "./session-seam.js";
import { contextReport, formatContextReport } from "./context-report.js";
import { knownModelFamilies } from "./cost.js";
import { MCP_COMMAND } from "./mcp-command.js";
import { runShellLine, SHELL_LINE_PREFIX } from "./shell-line.js";
import { statusLines } from "./session-status.js";
import { formatColumns } from "./text-layout.js";
import { untrustedText } from "./untrusted-text.js";


/** What /undo says it could not take back of a turn's commands: all they did without a checkpoint, else what it does not see. */
function commandsNotUndone(tools: string, checkpoint: TurnUndo["commandCheckpoint"]): string {
  if (checkpoint === null || checkpoint.taken) return `not undone: what the turn's commands (${tools}) changed in files .gitignore excludes or outside the project`;
  return `not undone: whatever the turn's commands changed (${tools}): no checkpoint of the project (${untrustedText(checkpoint.why)})`;
}

/** /last's heading's end and the text: the whole of a cut result read back from where it was kept, else what the model received. */
function lastResultText(last: LastResult): string {
  if (last.spill !== undefined) {
    try {
      return ` (whole, from ${untrustedText(last.spill)}):\n${untrustedText(readFileSync(last.spill, "utf8"))}`;
    } catch (error) {
      return ` (cut to the 8,000-character budget: the whole text could not be read back, ${untrustedText(describeError(error))}):\n${untrustedText(last.text)}`;
    }
  }
  const cut = last.truncated ? " (cut to the 8,000-character budget, as the model received it)" : "";
  return `${cut}:\n${untrustedText(last.text)}`;
}

/** What /help says beside the commands of the lines that start otherwise. */
const LINE_PREFIXES: ReadonlyArray<readonly [string, string]> = [
  ["!<command>", "run a shell command yourself, in the sandbox (deny rules apply, nothing asks); it and its output join the conversation"],
  ["@<path>", "in a prompt: attach a project file (Tab completes); @<server>:<uri> attaches an MCP resource"],
];

/** How long /help waits for the servers' prompt listings before it shows what is listed by then. */
export const HELP_WAITS_FOR_PROMPTS_MS = 2000;

/** Settles after `ms`; the timer does not keep the process alive. */
function delay(ms: number): Promise<"waited"> {
  return new Promise((resolve) => setTimeout(() => resolve("waited"), ms).unref());
}

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  {
    name: "help",
    usage: "/help",
    summary: "list the commands; any other line is a prompt for the model",
    async run(line) {
      for (const row of formatColumns([...SLASH_COMMANDS.map((command) => [command.usage, command.summary]), ...LINE_PREFIXES], line.view.width(), "wrap")) {
        line.view.print(row);
      }
      // A server that never answers prompts/list must not hold /help: what is listed by then is shown.
      const catalog = line.session.servers.prompts();
      const settled = await Promise.race([catalog.settled().then(() => "listed" as const), delay(HELP_WAITS_FOR_PROMPTS_MS)]);
      const prompts = catalog.current();
      if (prompts.length > 0) line.view.print("\nMCP prompts");
      for (const row of formatColumns(prompts.map((command) => [command.usage, command.summary]), line.view.width(), "wrap")) line.view.print(row);
      if (settled !== "listed") line.view.print("(the prompts of some MCP servers are still being listed)");
      return "ok";
    },
  },
  {
    name: "tools",
    usage: "/tools",
    summary: "every tool the model sees: name (after its title when its server gives one), source, approval, whether its definition is pinned or changed, and what a server claims about its tool",
    async run(line) {
      const { agent } = line.session;
      const notes = (tool: Tool): string => [definitionMark(tool), toolClaims(tool)].filter((note) => note !== "").join("; ");
      const rows = agent.tools.map((tool) => [toolDisplayName(tool), tool.source, agent.decide(tool.name).verdict, notes(tool)]);
      for (const row of formatColumns(rows, line.view.width())) line.view.print(row);
      return "ok";
    },
  },
  {
    name: "approvals",
    usage: "/approvals",
    summary: "each tool's approval decision and its reason, and what is allowed for this session",
    async run(line) {
      const { agent } = line.session;
      const rows = agent.tools.map((tool) => {
        const decision = agent.decide(tool.name);
        return [tool.name, decision.verdict, decision.reason];
      });
      for (const row of formatColumns(rows, line.view.width())) line.view.print(row);
      for (const allow of agent.sessionAllows()) line.view.print(untrustedText(`allowed for this session: ${allow}`));
      return "ok";
    },
  },
  {
    name: "call",
    usage: "/call <tool> <json>",
    summary: "call a tool yourself, through the same gate, snapshots and truncation as the model",
    async run(line, argText) {
      const parsed = parseCallLine(argText);
      if (parsed instanceof Error) {
        line.view.warn(`/call: ${parsed.message}`);
        return "failed";
      }
      const unknown = unknownToolProblem(line.session.agent, parsed.tool);
      if (unknown !== undefined) {
        line.view.warn(`/call: ${unknown}`);
        return "failed";
      }
      const report = await line.session.agent.call(parsed.tool, parsed.args, line.signal);
      line.view.print(untrustedText(report.text));
      if (!report.isError) return "ok";
      line.view.warn(untrustedText(`/call ${report.tool} failed; approval: ${report.decision.verdict} (${report.decision.reason})`));
      return "failed";
    },
  },
  {
    name: "undo",
    usage: "/undo",
    summary: "undo the last turn's file changes that nothing changed again since",
    async run(line) {
      const report = await line.session.agent.undo();
      if (report.nothingToUndo) {
        line.view.print("nothing to undo");
        return "ok";
      }
      const { restored, removed, leftAlone, notUndoable, commandCheckpoint } = report;
      if (restored.length + removed.length + leftAlone.length === 0) line.view.print("no file to restore");
      for (const path of restored) line.view.print(`restored ${untrustedText(path)}`);
      for (const path of removed) line.view.print(`removed ${untrustedText(path)} (the turn created it)`);
      for (const { path, reason } of leftAlone) line.view.print(`not restored ${untrustedText(path)}: ${untrustedText(reason)}`);
      const commands = notUndoable.filter((what) => what.kind === "command").map((what) => untrustedText(what.tool));
      const remote = notUndoable.filter((what) => what.kind === "remote").map((what) => untrustedText(what.tool));
      if (commands.length > 0) line.view.print(commandsNotUndone(commands.join(", "), commandCheckpoint));
      if (remote.length > 0) line.view.print(`not undone: the remote calls ${remote.join(", ")} (their servers keep what they did)`);
      return "ok";
    },
  },
  {
    name: "last",
    usage: "/last",
    summary: "the full text of the last tool result (in a pager on a terminal)",
    async run(line) {
      const last = line.session.lastResult();
      if (last === undefined) {
        line.view.print("no tool result yet");
        return "ok";
      }
      const text = `${untrustedText(last.tool)}${lastResultText(last)}`;
      await line.view.page(text);
      return "ok";
    },
  },
  {
    name: "cost",
    usage: "/cost",
    summary: "the session's tokens (cache reads and writes too) and estimated cost",
    async run(line) {
      for (const row of line.session.costs.sessionLines()) line.view.print(row);
      return "ok";
    },
  },
  {
    name: "status",
    usage: "/status",
    summary: "the model, how full the context is, the MCP servers and the session id",
    async run(line) {
      for (const row of statusLines(line.session)) line.view.print(row);
      return "ok";
    },
  },
  {
    name: "context",
    usage: "/context",
    summary: "what the next request carries, in tokens: system prompt, AGENTS.md, tools by server (loaded, deferred), messages, free space",
    async run(line) {
      for (const row of formatContextReport(await contextReport(line.session.agent, line.session.model.countTokens, line.signal))) line.view.print(row);
      return "ok";
    },
  },
  {
    name: "model",
    usage: "/model [<name>]",
    summary: "the Claude model for the next turn; alone, the model in use and the known ones",
    async run(line, argText) {
      const name = argText.trim();
      if (name === "") {
        line.view.print(`model: ${untrustedText(line.session.model.answering.name)}`);
        line.view.print(`known: ${knownModelFamilies().join(", ")} (the families mca knows the prices of); /model <name> switches, e.g. /model claude-haiku-4-5`);
        return "ok";
      }
      if (!/^[A-Za-z0-9._:@-]+$/u.test(name)) {
        line.view.warn("usage: /model <name>, e.g. /model claude-haiku-4-5");
        return "failed";
      }
      const switched = await line.session.model.switchTo(name);
      if (switched instanceof Error) {
        line.view.warn(`/model: ${switched.message}`);
        return "failed";
      }
      line.view.print(`the next turn uses ${untrustedText(switched)}`);
      return "ok";
    },
  },
  {
    name: "compact",
    usage: "/compact",
    summary: "replace the older turns by the model's summary of them (done by itself near the context window)",
    async run(line) {
      line.view.print(await line.session.agent.compact(line.signal));
      return "ok";
    },
  },
  {
    name: "clear",
    usage: "/clear",
    summary: "forget the conversation so far",
    async run(line) {
      line.session.agent.clear();
      line.view.print("conversation cleared");
      return "ok";
    },
  },
  MCP_COMMAND,
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

/** A line that runs as a command (a slash command, or `!command`), not a prompt for the model. */
export function isCommandLine(text: string): boolean {
  return text.startsWith("/") || text.startsWith(SHELL_LINE_PREFIX);
}

/** Never rejects: a bug surfacing as an exception is reported and the line counts as failed. */
export async function runLine(typed: string, line: LineRun): Promise<LineOutcome> {
  const text = typed.trim();
  if (text === "") return "ok";
  try {
    if (text.startsWith(SHELL_LINE_PREFIX)) return await runShellLine(text, line);
    const outcome = text.startsWith("/") ? await runSlashCommand(text, line) : await typedTurn(text, line);
    return typeof outcome === "string" ? outcome : await runTurn(outcome, line);
  } catch (error) {
    line.view.warn(`error: ${untrustedText(describeError(error))}`);
    return "failed";
  }
}

async function runSlashCommand(text: string, line: LineRun): Promise<CommandOutcome> {
  const match = /^\/(\S*)\s*([\s\S]*)$/.exec(text);
  const name = match?.[1] ?? "";
  // A server's prompt may still be listed: only a name no built-in command has waits for the listings.
  const command = findSlashCommand(name) ?? findSlashCommand(name, await line.session.servers.prompts().settled());
  if (command === undefined) {
    line.view.warn(`unknown command /${name} (try /help)`);
    return "failed";
  }
  return command.run(line, match?.[2] ?? "");
}

/**
 * A typed prompt with the resources its `@alias:uri` mentions attached, one line shown for each; nothing is
 * sent when one cannot be (only what the user typed is read for mentions, never a server's prompt).
 */
async function typedTurn(text: string, line: LineRun): Promise<CommandOutcome> {
  const { agent, mentions } = line.session;
  // A mention is the person's own request to read: it needs no question, but a deny rule still refuses it.
  const denied = (alias: string, uri: string): string | undefined => {
    const decision = agent.decide(READ_RESOURCE_TOOL, { server: alias, uri });
    return decision.verdict === "deny" ? `refused: ${decision.reason}` : undefined;
  };
  const attached = await mentions.attach(text, line.signal, denied);
  if (attached instanceof Error) {
    line.view.warn(attached.message);
    return "failed";
  }
  for (const note of attached.lines) line.view.note(note);
  return { prompt: attached.text, images: attached.images };
}

/** A turn succeeds when it ends normally: aborted, limited or failed turns count as failed. */
async function runTurn(turn: UserTurn, line: LineRun): Promise<LineOutcome> {
  line.view.turnStarts();
  return (await line.session.agent.prompt(turn.prompt, line.signal, turn.images)) === "done" ? "ok" : "failed";
}
