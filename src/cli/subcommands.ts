// `mca tools`, `mca call` and `mca mcp list`: the slash commands' views for scripts, each with `--json`
// (DESIGN "Scripting contract"). Nobody can be asked for approval here, so `ask` means deny.
import type { AgentEvent } from "../kernel/index.js";
import { createApproverWithoutTerminal } from "./approve-without-terminal.js";
import { parseCallArgs } from "./call-args.js";
import { callView, formatJson, serverView, toolView } from "./json-views.js";
import { USAGE_EXIT_CODE } from "./program.js";
import { formatServerStatus, type ServerStatusProvider } from "./server-status.js";
import type { AgentFactory } from "./session-io.js";
import { findSlashCommand } from "./slash-commands.js";

export interface SubcommandDeps {
  readonly makeAgent: AgentFactory;
  readonly servers: ServerStatusProvider;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly signal: AbortSignal;
}

export async function runToolsCommand(deps: SubcommandDeps, json: boolean): Promise<number> {
  const agent = makeQuietAgent(deps);
  if (json) {
    deps.out(formatJson(agent.tools.map((tool) => toolView(tool, agent.decide(tool.name)))));
    return 0;
  }
  return runSlashView(deps, "tools");
}

export async function runCallCommand(deps: SubcommandDeps, tool: string, argsText: string | undefined, json: boolean): Promise<number> {
  const args = parseCallArgs(tool, argsText);
  if (args instanceof Error) {
    deps.err(`mca call: ${args.message}\n`);
    return USAGE_EXIT_CODE;
  }
  const report = await makeQuietAgent(deps).call(tool, args, deps.signal);
  if (json) deps.out(formatJson(callView(report)));
  else deps.out(report.text.endsWith("\n") ? report.text : `${report.text}\n`);
  if (!report.isError) return 0;
  deps.err(`mca call ${report.tool} failed; approval: ${report.decision.verdict} (${report.decision.reason})\n`);
  return 1;
}

export async function runMcpListCommand(deps: Pick<SubcommandDeps, "servers" | "out">, json: boolean): Promise<number> {
  const servers = deps.servers();
  deps.out(json ? formatJson(servers.map(serverView)) : formatServerStatus(servers).map((line) => `${line}\n`).join(""));
  return 0;
}

async function runSlashView(deps: SubcommandDeps, name: string): Promise<number> {
  const command = findSlashCommand(name);
  if (command === undefined) throw new Error(`no slash command /${name}`);
  const outcome = await command.run(
    {
      agent: makeQuietAgent(deps),
      servers: deps.servers,
      print: (text) => deps.out(`${text}\n`),
      warn: (text) => deps.err(`${text}\n`),
      signal: deps.signal,
    },
    "",
  );
  return outcome === "failed" ? 1 : 0;
}

/** Only what went wrong reaches stderr: stdout carries the view, untouched. */
function makeQuietAgent(deps: SubcommandDeps) {
  return deps.makeAgent({
    approve: createApproverWithoutTerminal((line) => deps.err(`${line}\n`)),
    emit: (event: AgentEvent) => {
      if (event.type === "error") deps.err(`error: ${event.message}\n`);
      if (event.type === "notice") deps.err(`${event.message}\n`);
    },
  });
}
