// `mca tools`, `mca call`, `mca mcp list` and `mca sessions`: the slash commands' views for scripts, each with `--json`
// (the scripting contract, docs/scripting.md). The JSON shapes are built field by field, so that what scripts parse
// never changes when an internal type grows. Nobody can be asked for approval here, so `ask` means deny. And
// `mca mcp pin` / `unpin`: the servers' tool definitions as the user accepts them.
import { pinsFile, recordPins, removePins } from "../config/index.js";
import type { AgentEvent, CallReport, Decision, DefinitionStatus, Tool, ToolIcon, Verdict } from "../kernel/index.js";
import { toolTitle, type MountedServers } from "../mcp/index.js";
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
  /** The tools servers keep for their apps (MCP Apps), never offered to the model: listed by `mca tools --json` as such. */
  readonly appOnlyTools?: () => readonly Tool[];
}

/** What `mca tools --json` says of a tool kept for its server's app: it is never offered, and a call is refused. */
const APP_ONLY_DECISION: Decision = { verdict: "deny", reason: "for its server's app only (MCP Apps): never offered to the model, and a call is refused" };

export async function runToolsCommand(deps: SubcommandDeps, json: boolean): Promise<number> {
  const agent = makeQuietAgent(deps);
  if (json) {
    const offered = agent.tools.map((tool) => toolView(tool, agent.decide(tool.name)));
    const appOnly = (deps.appOnlyTools?.() ?? []).map((tool) => ({ ...toolView(tool, APP_ONLY_DECISION), appOnly: true }));
    deps.out(untrustedJson([...offered, ...appOnly]));
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

/** `noServers`: what an empty list says, naming the files looked at. */
export async function runMcpListCommand(deps: Pick<SubcommandDeps, "servers" | "out"> & { readonly noServers?: string }, json: boolean): Promise<number> {
  const servers = deps.servers();
  deps.out(json ? untrustedJson(servers.map(serverView)) : formatServerStatus(servers, deps.noServers).map((line) => `${line}\n`).join(""));
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
