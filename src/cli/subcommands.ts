// `mca tools`, `mca call`, `mca mcp list` and `mca sessions`: the slash commands' views for scripts, each with `--json`
// (the scripting contract, docs/scripting.md). The JSON shapes are built field by field, so that what scripts parse
// never changes when an internal type grows. Nobody can be asked for approval here, so `ask` means deny.
import type { AgentEvent, CallReport, Decision, Tool, Verdict } from "../kernel/index.js";
import { createApproverWithoutTerminal } from "./approval.js";
import { parseCallArgs, unknownToolProblem } from "./call-line.js";
import { findSlashCommand } from "./commands.js";
import { formatServerStatus, type ServerStatus, type ServerStatusProvider } from "./mcp-servers.js";
import { USAGE_EXIT_CODE } from "./program.js";
import type { AgentFactory } from "./session.js";
import type { SessionSummary } from "../session/index.js";
import { untrustedJson, untrustedText } from "./untrusted-text.js";

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
    deps.out(untrustedJson(agent.tools.map((tool) => toolView(tool, agent.decide(tool.name)))));
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
  const agent = makeQuietAgent(deps);
  const unknown = unknownToolProblem(agent, tool);
  if (unknown !== undefined) {
    deps.err(`mca call: ${unknown}\n`);
    return USAGE_EXIT_CODE;
  }
  const report = await agent.call(tool, args, deps.signal);
  if (json) deps.out(untrustedJson(callView(report)));
  else {
    const text = untrustedText(report.text);
    deps.out(text.endsWith("\n") ? text : `${text}\n`);
  }
  if (!report.isError) return 0;
  deps.err(`${untrustedText(`mca call ${report.tool} failed; approval: ${report.decision.verdict} (${report.decision.reason})`)}\n`);
  return 1;
}

export async function runMcpListCommand(deps: Pick<SubcommandDeps, "servers" | "out">, json: boolean): Promise<number> {
  const servers = deps.servers();
  deps.out(json ? untrustedJson(servers.map(serverView)) : formatServerStatus(servers).map((line) => `${line}\n`).join(""));
  return 0;
}

/** `mca sessions`: the project's sessions, newest first; `sessions` is given, so reading them stays in main's lazy path. */
export function runSessionsCommand(deps: { readonly sessions: readonly SessionSummary[]; readonly out: (text: string) => void }, json: boolean): number {
  const { sessions, out } = deps;
  if (json) {
    out(untrustedJson(sessions.map(sessionView)));
    return 0;
  }
  if (sessions.length === 0) {
    out("no sessions in this project yet\n");
    return 0;
  }
  const idWidth = Math.max(...sessions.map((session) => session.id.length));
  for (const session of sessions) {
    const started = session.startedAt?.replace("T", " ").slice(0, 19) ?? "(start unknown)";
    const fields = [session.id.padEnd(idWidth), started.padEnd(19), (session.mode ?? "?").padEnd(5), `${session.messageCount} messages`.padStart(12)];
    out(`${untrustedText(`${fields.join("  ")}  ${session.firstPrompt ?? ""}`.trimEnd())}\n`);
  }
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
      if (event.type === "error") deps.err(`error: ${untrustedText(event.message)}\n`);
      if (event.type === "notice") deps.err(`${untrustedText(event.message)}\n`);
    },
  });
}

interface ApprovalView {
  readonly decision: Verdict;
  readonly reason: string;
}

interface ToolView {
  readonly name: string;
  readonly source: string;
  readonly originalName: string;
  readonly description: string;
  readonly approval: ApprovalView;
}

interface CallView {
  readonly tool: string;
  readonly isError: boolean;
  readonly text: string;
  readonly truncated: boolean;
  readonly approval: ApprovalView;
}

function approvalView(decision: Decision): ApprovalView {
  return { decision: decision.verdict, reason: decision.reason };
}

function toolView(tool: Tool, decision: Decision): ToolView {
  return {
    name: tool.name,
    source: tool.source,
    originalName: tool.originalName,
    description: tool.description,
    approval: approvalView(decision),
  };
}

function callView(report: CallReport): CallView {
  return {
    tool: report.tool,
    isError: report.isError,
    text: report.text,
    truncated: report.truncated,
    approval: approvalView(report.decision),
  };
}

function sessionView(session: SessionSummary): SessionSummary {
  return {
    id: session.id,
    startedAt: session.startedAt,
    mode: session.mode,
    firstPrompt: session.firstPrompt,
    messageCount: session.messageCount,
  };
}

function serverView(server: ServerStatus): ServerStatus {
  return {
    alias: server.alias,
    transport: server.transport,
    state: server.state,
    protocolVersion: server.protocolVersion,
    tools: server.tools,
    error: server.error,
    stderrTail: server.stderrTail,
    recentLogs: server.recentLogs ?? [],
    ...(server.sessionRenewals === undefined ? {} : { sessionRenewals: server.sessionRenewals }),
  };
}
