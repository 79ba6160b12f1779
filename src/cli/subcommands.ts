// `mca tools`, `mca call`, `mca context`, `mca mcp list` and `mca sessions`: the slash commands' views for scripts, each with `--json`
// (the scripting contract, docs/scripting.md). The JSON shapes are built field by field, so that what scripts parse
// never changes when an internal type grows. Nobody can be asked for approval here, so `ask` means deny. And
// `mca mcp pin` / `unpin`: the servers' tool definitions as the user accepts them.
import { pinsFile, recordPins, removePins } from "../config/index.js";
import type { AgentEvent, CallReport, Decision, DefinitionStatus, Tool, ToolIcon, Verdict } from "../kernel/index.js";
import { toolTitle, type MountedServers } from "../mcp/index.js";
import { createApproverWithoutTerminal } from "./approval.js";
import { parseCallArgs, unknownToolProblem } from "./call-line.js";
import { findSlashCommand } from "./commands.js";
import { contextReport, formatContextReport } from "./context-report.js";
import { formatServerStatus, type ServerStatus } from "./mcp-servers.js";
import { USAGE_EXIT_CODE } from "./program.js";
import { plainView, type Session, type SessionServers } from "./session-seam.js";
import type { SessionSummary } from "../session/index.js";
import { untrustedJson, untrustedText } from "./untrusted-text.js";

/** What `mca tools --json` says of a tool kept for its server's app: it is never offered, and a call is refused. */
const APP_ONLY_DECISION: Decision = { verdict: "deny", reason: "for its server's app only (MCP Apps): never offered to the model, and a call is refused" };

export async function runToolsCommand(session: Session, json: boolean): Promise<number> {
  const { agent, runtime } = session;
  if (!json) return quietly(session, () => runSlashView(session, "tools"));
  const offered = agent.tools.map((tool) => toolView(tool, agent.decide(tool.name)));
  const appOnly = session.servers.appOnlyTools().map((tool) => ({ ...toolView(tool, APP_ONLY_DECISION), appOnly: true }));
  runtime.writeOut(untrustedJson([...offered, ...appOnly]));
  return 0;
}

/** `mca context [--json]`: the report for a fresh session of this project (its resumed one with --resume). */
export async function runContextCommand(session: Session, json: boolean): Promise<number> {
  const { writeOut, interrupt } = session.runtime;
  const report = await quietly(session, () => contextReport(session.agent, session.model.countTokens, interrupt));
  writeOut(json ? untrustedJson(report) : formatContextReport(report).map((line) => `${line}\n`).join(""));
  return 0;
}

export async function runCallCommand(session: Session, tool: string, argsText: string | undefined, json: boolean): Promise<number> {
  const { agent, runtime } = session;
  const args = parseCallArgs(tool, argsText);
  if (args instanceof Error) {
    runtime.writeErr(`mca call: ${args.message}\n`);
    return USAGE_EXIT_CODE;
  }
  const unknown = unknownToolProblem(agent, tool);
  if (unknown !== undefined) {
    runtime.writeErr(`mca call: ${unknown}\n`);
    return USAGE_EXIT_CODE;
  }
  const report = await quietly(session, () => agent.call(tool, args, runtime.interrupt));
  if (json) runtime.writeOut(untrustedJson(callView(report)));
  else {
    const text = untrustedText(report.text);
    runtime.writeOut(text.endsWith("\n") ? text : `${text}\n`);
  }
  if (!report.isError) return 0;
  runtime.writeErr(`${untrustedText(`mca call ${report.tool} failed; approval: ${report.decision.verdict} (${report.decision.reason})`)}\n`);
  return 1;
}

export async function runMcpListCommand(servers: SessionServers, out: (text: string) => void, json: boolean): Promise<number> {
  const statuses = servers.statuses();
  out(json ? untrustedJson(statuses.map(serverView)) : formatServerStatus(statuses, servers.noneLine).map((line) => `${line}\n`).join(""));
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

/** A slash command's view, printed plain: the same rows the chat shows, without a terminal's width. */
async function runSlashView(session: Session, name: string): Promise<number> {
  const command = findSlashCommand(name);
  if (command === undefined) throw new Error(`no slash command /${name}`);
  const { writeOut, writeErr, interrupt } = session.runtime;
  const view = plainView((text) => writeOut(`${text}\n`), (text) => writeErr(`${text}\n`));
  const outcome = await command.run({ session, view, signal: interrupt }, "");
  return outcome === "failed" ? 1 : 0;
}

/**
 * Runs `work` with the session's agent attached to a mode without a terminal: nobody is asked (`ask` means
 * deny), and only what went wrong reaches stderr, so that stdout carries the view, untouched.
 */
async function quietly<T>(session: Session, work: () => Promise<T>): Promise<T> {
  const { writeErr } = session.runtime;
  const detach = session.attach({
    approve: createApproverWithoutTerminal((line) => writeErr(`${line}\n`)),
    emit: (event: AgentEvent) => {
      if (event.type === "error") writeErr(`error: ${untrustedText(event.message)}\n`);
      if (event.type === "notice") writeErr(`${untrustedText(event.message)}\n`);
    },
  });
  try {
    return await work();
  } finally {
    detach();
  }
}

interface ApprovalView {
  readonly decision: Verdict;
  readonly reason: string;
}

interface ToolView {
  readonly name: string;
  /** Remote tools only: the display name its server gives it (`title`, else `annotations.title`). */
  readonly title?: string;
  /** Remote tools only: its icons as its server sent them, those a host could not load safely left out. */
  readonly icons?: readonly ToolIcon[];
  /** Kept for its server's app (MCP Apps `_meta.ui.visibility` without "model"): listed here, never offered to the model. */
  readonly appOnly?: boolean;
  readonly source: string;
  readonly originalName: string;
  readonly description: string;
  readonly approval: ApprovalView;
  /** Remote tools only: the sha-256 of the server's own definition. */
  readonly definitionHash?: string;
  /** Remote tools only: "same" or "changed" when the server is pinned, else null. */
  readonly pinned?: DefinitionStatus["pinned"];
  /** Remote tools only: redefined by the server since it was first listed in this run. */
  readonly changedThisSession?: boolean;
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
  const title = tool.definition === undefined ? undefined : toolTitle(tool.definition);
  return {
    name: tool.name,
    ...(title === undefined ? {} : { title }),
    ...(tool.icons === undefined ? {} : { icons: tool.icons.map((icon) => ({ ...icon })) }),
    source: tool.source,
    originalName: tool.originalName,
    description: tool.description,
    approval: approvalView(decision),
    ...(tool.definitionHash === undefined ? {} : { definitionHash: tool.definitionHash }),
    ...(tool.definitionStatus === undefined ? {} : { pinned: tool.definitionStatus.pinned, changedThisSession: tool.definitionStatus.changedThisSession }),
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
    // Where the server is written: "user", "project", "local", or "flag" for --mcp-config.
    ...(server.scope === undefined ? {} : { scope: server.scope }),
    ...(server.file === undefined ? {} : { file: server.file }),
  };
}

export interface PinDeps {
  readonly projectDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Undefined when no server is configured. */
  readonly servers: MountedServers | undefined;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly now: () => Date;
}

/**
 * `mca mcp pin <alias>` (or `--all`): records each named server's tool definitions as it lists them now, so a
 * later change of any of them asks on every call until pinned again. A server that is not connected pins nothing.
 */
export async function runMcpPinCommand(deps: PinDeps, alias: string | undefined, all: boolean): Promise<number> {
  if ((alias === undefined) === !all) {
    deps.err("mca mcp pin: name one server, or pass --all\n");
    return USAGE_EXIT_CODE;
  }
  const statuses = deps.servers?.statuses() ?? [];
  const named = alias === undefined ? statuses.map((status) => status.alias) : [alias];
  if (named.length === 0) {
    deps.err("mca mcp pin: no MCP servers configured\n");
    return 1;
  }
  let failed = false;
  for (const each of named) {
    const status = statuses.find((candidate) => candidate.alias === each);
    if (status?.state !== "connected") {
      const why = status === undefined ? "is not an enabled server of this run's config" : `is ${status.state}, so its definitions cannot be read`;
      deps.err(`${untrustedText(`mca mcp pin: ${JSON.stringify(each)} ${why}; nothing pinned for it`)}\n`);
      failed = true;
      continue;
    }
    const own = (deps.servers?.tools ?? []).filter((tool) => tool.source === each);
    const hashes = new Map(own.flatMap((tool): [string, string][] => (tool.definitionHash === undefined ? [] : [[tool.originalName, tool.definitionHash]])));
    const recorded = await recordPins(deps.projectDir, deps.env, each, hashes, deps.now());
    if (recorded instanceof Error) {
      deps.err(`mca mcp pin: ${untrustedText(recorded.message)}\n`);
      return 1;
    }
    deps.out(`${untrustedText(`pinned ${each}: ${hashes.size} tool definition${hashes.size === 1 ? "" : "s"}`)}\n`);
  }
  if (!failed) deps.out(`${untrustedText(`recorded in ${pinsFile(deps.env)}`)}\n`);
  return failed ? 1 : 0;
}

/** `mca mcp unpin <alias>`: forgets the server's pinned definitions in this project. */
export async function runMcpUnpinCommand(deps: Pick<PinDeps, "projectDir" | "env" | "out" | "err">, alias: string): Promise<number> {
  const removed = await removePins(deps.projectDir, deps.env, alias);
  if (removed instanceof Error) {
    deps.err(`mca mcp unpin: ${untrustedText(removed.message)}\n`);
    return 1;
  }
  deps.out(`${untrustedText(removed ? `unpinned ${alias}` : `${alias} was not pinned in this project`)}\n`);
  return 0;
}
