// One run of mca from its parsed command line. Each start-up step takes the one before's result, so the
// order holds by construction: the project (its folder and state), then its trust and the answers to its
// servers' questions (a Workspace), then the configured servers with their secrets known to the redactor
// (ConfiguredServers), then the servers mounted, the session, and the mode. Every module a path does not
// need is imported when the path is taken, so `mca --help` and the mock never load the Anthropic SDK.
import { homedir } from "node:os";
import { resolve } from "node:path";
import type { Agent } from "../kernel/index.js";
import type { ListChange, MountedServers } from "../mcp/index.js";
import type { ProjectState } from "../session/index.js";
import type { InputAnswers } from "./input/answers-file.js";
import type { CliInputResponder } from "./input/responder.js";
import type { MountDeps, ScopedMcpConfig } from "./mcp-servers.js";
import { USAGE_EXIT_CODE, type Invocation } from "./program.js";
import { runMode, sessionMode, type ModeInvocation } from "./run-mode.js";
import { INTERRUPTED_EXIT_CODE, type Runtime } from "./runtime.js";
import type { SessionServers } from "./session-seam.js";
import type { SettledTrust } from "./trust.js";
import { untrustedText } from "./untrusted-text.js";

/** An invocation that runs in the project with its servers mounted (everything but help, trust, unpin and the sessions list). */
type WorkInvocation = Exclude<Invocation, { kind: "exit" | "trust" | "sessions" | "mcp-unpin" | "mcp-edit" }>;

/** The project a run works in, its trust settled and the answers to its servers' questions ready. */
interface Workspace {
  readonly invocation: WorkInvocation;
  readonly projectDir: string;
  readonly state: ProjectState;
  readonly project: SettledTrust;
  readonly inputResponder: CliInputResponder;
  readonly answers?: InputAnswers;
}

/**
 * The servers of the config, read once the workspace is settled: every configured secret is known to the
 * runtime's redactor by now, and every child they start is taken down when the process exits.
 */
interface ConfiguredServers {
  readonly workspace: Workspace;
  readonly config: ScopedMcpConfig | null;
  /** The config files looked at, named when none has a server. */
  readonly lookedAt: readonly string[];
  readonly mountDeps: MountDeps;
}

/** The configured servers brought up (none when none is configured), and the same as the modes see them. */
interface Mounted {
  readonly configured: ConfiguredServers;
  readonly servers: MountedServers | undefined;
  readonly sessionServers: SessionServers;
}

export async function runInvocation(runtime: Runtime, invocation: Invocation): Promise<number> {
  if (invocation.kind === "exit") return invocation.code;
  const { env } = runtime;
  const home = env.HOME ?? homedir();
  // Started in a subfolder, mca works on the whole project (the nearest folder upward with its markers).
  const { findProjectRoot } = await import("../config/project-root.js");
  const projectDir = findProjectRoot(process.cwd(), home);
  if (invocation.kind === "trust") {
    const { runTrustCommand } = await import("./trust.js");
    return runTrustCommand({ projectDir, env, out: runtime.writeOut, err: runtime.writeErr, now: () => new Date(runtime.now()) });
  }
  if (invocation.kind === "mcp-edit") {
    const { runMcpEditCommand, terminalConfirm } = await import("./mcp-edit-commands.js");
    const editDeps = { projectDir, env, home, platform: process.platform, confirm: terminalConfirm(runtime.terminal), out: runtime.writeOut, err: runtime.writeErr };
    return runMcpEditCommand(editDeps, invocation.command);
  }
  if (invocation.kind === "mcp-unpin") {
    const { runMcpUnpinCommand } = await import("./subcommands.js");
    return runMcpUnpinCommand({ projectDir, env, out: runtime.writeOut, err: runtime.writeErr }, invocation.alias);
  }
  // mca's own state for this project lives in the user's state folder, never in the project.
  const { listSessions, projectState } = await import("../session/index.js");
  const state = projectState(projectDir, env, home);
  if (invocation.kind === "sessions") {
    const { runSessionsCommand } = await import("./subcommands.js");
    return runSessionsCommand({ sessions: listSessions(state), out: runtime.writeOut }, invocation.json);
  }
  if (invocation.kind === "session") {
    // Before any server starts: a run that cannot reach its model ends at once, with nothing else said.
    const { chooseModel } = await import("./session-model.js");
    const choice = chooseModel(env, invocation.options.model, sessionMode(invocation, runtime.terminal));
    if (choice instanceof Error) return usageError(runtime, choice, invocation);
  }
  const workspace = await settleWorkspace(runtime, invocation, projectDir, state);
  if (workspace instanceof Error) return usageError(runtime, workspace, invocation);
  const servers = await readServers(runtime, workspace);
  if (servers instanceof Error) return usageError(runtime, servers, invocation);
  if (invocation.kind === "mcp-login" || invocation.kind === "mcp-logout") {
    const { runMcpLogin, runMcpLogout } = await import("./mcp-login.js");
    const commandDeps = { config: servers.config, env, out: runtime.writeOut, err: runtime.writeErr };
    if (invocation.kind === "mcp-logout") return runMcpLogout(commandDeps, invocation.alias);
    const { terminalLender } = await import("./terminal.js");
    const interactive = runtime.terminal.interactive();
    const lend = terminalLender(runtime.terminal, runtime.redact);
    return runMcpLogin({ ...commandDeps, interactive, addSecret: runtime.addSecret, lend }, invocation.alias);
  }
  if (invocation.kind === "mcp-doctor") {
    const { runDoctorCommand } = await import("./doctor.js");
    const doctorDeps = { config: servers.config, mountDeps: servers.mountDeps, out: runtime.writeOut, err: runtime.writeErr, now: () => performance.now() };
    return runDoctorCommand(doctorDeps, invocation.alias, invocation.json);
  }
  const mounted = await mountServers(runtime, servers);
  // Stopped (SIGTERM, Ctrl-C twice) while the servers were coming up: no mode starts; shutdown closes them.
  if (runtime.interrupt.aborted) return INTERRUPTED_EXIT_CODE;
  if (invocation.kind === "mcp-list") {
    const { runMcpListCommand } = await import("./subcommands.js");
    return runMcpListCommand(mounted.sessionServers, runtime.writeOut, invocation.json);
  }
  if (invocation.kind === "mcp-pin") {
    const { runMcpPinCommand } = await import("./subcommands.js");
    const pinDeps = { projectDir, env, servers: mounted.servers, out: runtime.writeOut, err: runtime.writeErr, now: () => new Date(runtime.now()) };
    return runMcpPinCommand(pinDeps, invocation.alias, invocation.all);
  }
  return startSession(runtime, invocation, mounted);
}

/** Said on stderr; with `--output-format json | stream-json`, also the one result object a script waits for on stdout. */
async function usageError(runtime: Runtime, error: Error, invocation?: WorkInvocation): Promise<number> {
  runtime.warn(`mca: ${error.message}`);
  if (invocation?.kind === "session" && invocation.outputFormat !== "text") {
    const { failedBeforeRun, jsonLine } = await import("./headless-output.js");
    runtime.writeOut(jsonLine(failedBeforeRun(error.message)));
  }
  return USAGE_EXIT_CODE;
}

/** Whether the chat can ask the user questions on the terminal (trust, approvals, MCP input requests). */
function isInteractive(runtime: Runtime, invocation: WorkInvocation): boolean {
  return invocation.kind === "session" && sessionMode(invocation, runtime.terminal) === "chat";
}

/**
 * Whether the project's own files apply (asked once in the chat, told in one line elsewhere), and what this
 * run answers when an MCP server asks for input: only the interactive chat has a person to ask;
 * `--input-responses` is read and validated here, before any server is started.
 */
async function settleWorkspace(runtime: Runtime, invocation: WorkInvocation, projectDir: string, state: ProjectState): Promise<Workspace | Error> {
  const { settleProjectTrust } = await import("./trust.js");
  const interactive = isInteractive(runtime, invocation);
  let asker;
  if (interactive) {
    const { createPromptsAsker } = await import("./terminal.js");
    asker = createPromptsAsker({ stdin: runtime.terminal.input(), stdout: runtime.terminal.output });
  }
  const { options } = invocation;
  const project = await settleProjectTrust({
    projectDir,
    env: runtime.env,
    mcpConfigFlag: options.mcpConfigs[0],
    trustFlag: options.trustProject,
    asker,
    warn: runtime.warn,
    now: () => new Date(runtime.now()),
  });
  if (project instanceof Error) return project;
  let answers: InputAnswers | undefined;
  if (options.inputResponses !== undefined) {
    const { loadInputAnswers } = await import("./input/answers-file.js");
    const loaded = await loadInputAnswers(resolve(projectDir, options.inputResponses), options.inputResponses);
    if (loaded instanceof Error) return loaded;
    answers = loaded;
  }
  const { createCliInputResponder } = await import("./input/responder.js");
  const declareAsChat = invocation.kind === "mcp-pin";
  const inputResponder = createCliInputResponder({ interactive, declareAsChat, projectDir, notify: runtime.warn, ...(answers === undefined ? {} : { answers }) });
  return { invocation, projectDir, state, project, inputResponder, ...(answers === undefined ? {} : { answers }) };
}

/** The config the workspace allows, its secrets handed to the redactor before anything of it is shown. */
async function readServers(runtime: Runtime, workspace: Workspace): Promise<ConfiguredServers | Error> {
  const { configuredSecrets } = await import("../config/mcp-config.js");
  const { loginDeps } = await import("./mcp-login.js");
  const { readConfiguredServerFiles, stdioLauncher } = await import("./mcp-servers.js");
  // Loaded with the MCP client, before any of its children can exist.
  const { killAllChildrenSync } = await import("../mcp/index.js");
  runtime.atExit(killAllChildrenSync);
  const { env } = runtime;
  const mountDeps: MountDeps = {
    // A login's tokens join the redaction set as they are read or issued.
    logins: loginDeps(env, runtime.addSecret),
    projectDir: workspace.projectDir,
    configPaths: workspace.invocation.options.mcpConfigs,
    project: workspace.project,
    env,
    clientVersion: runtime.version,
    warn: runtime.warn,
    inputResponder: workspace.inputResponder,
    ...(workspace.invocation.options.verbose === true ? { verbose: true } : {}),
    ...(workspace.answers === undefined ? {} : { inputAnswers: workspace.answers }),
    // Stdio servers cannot see mca through /proc (its environment holds the API key), where bubblewrap works.
    stdioLauncher: stdioLauncher(env, runtime.warn),
    // A VS Code input (`${input:id}`) is asked only where someone can type it.
    ...(runtime.terminal.interactive() ? { askInput: (await import("./input-prompt.js")).createInputPrompt(runtime.terminal) } : {}),
  };
  // `--strict-mcp-config` without `--mcp-config`: no server at all, as Claude Code's flag alone gives.
  if (workspace.invocation.options.strictMcpConfig === true && workspace.invocation.options.mcpConfigs.length === 0) return { workspace, config: null, lookedAt: [], mountDeps };
  const read = await readConfiguredServerFiles(mountDeps);
  if (read instanceof Error) return read;
  const { config, lookedAt } = read;
  for (const secret of [...read.typed, ...configuredSecrets(config, env)]) runtime.addSecret(secret);
  return { workspace, config, lookedAt, mountDeps };
}

/** The configured servers brought up, closed at shutdown; one line for each that did not come up. */
async function mountServers(runtime: Runtime, configured: ConfiguredServers): Promise<Mounted> {
  const { createSessionServers } = await import("./session-servers.js");
  const { mountConfiguredServers, noServersLine, startupFailureLines } = await import("./mcp-servers.js");
  const { config, workspace } = configured;
  const noneLine = noServersLine(configured.lookedAt, { projectDir: workspace.projectDir, home: runtime.env.HOME ?? homedir() });
  const servers = config === null ? undefined : await mountConfiguredServers(config, configured.mountDeps);
  if (servers !== undefined) {
    runtime.addCloser(() => servers.close());
    for (const line of startupFailureLines(servers)) runtime.warn(line);
  }
  const sessionServers = createSessionServers({ mounted: servers, config, noneLine, inputResponder: workspace.inputResponder, runtime });
  return { configured, servers, sessionServers };
}

/** The session of a mode: its id, model and agent, over the mounted servers' tools. */
async function startSession(runtime: Runtime, invocation: ModeInvocation, mounted: Mounted): Promise<number> {
  const { setUpSession } = await import("./session.js");
  const { workspace, config } = mounted.configured;
  const { servers } = mounted;
  const startedAt = new Date(runtime.now()).toISOString();
  const session = await setUpSession({
    runtime,
    projectDir: workspace.projectDir,
    state: workspace.state,
    options: invocation.options,
    project: workspace.project,
    sessionId: newSessionId(startedAt, process.pid),
    mode: sessionMode(invocation, runtime.terminal),
    startedAt,
    servers: mounted.sessionServers,
    remoteTools: servers?.tools ?? [],
    resourceSources: servers?.connections ?? [],
    serverAliases: config?.servers.map((server) => server.alias) ?? [],
    findTool: (name) => servers?.findTool(name),
    serverInstructions: (alias) => servers?.connections.find((connection) => connection.alias === alias)?.instructions,
    announceModel: invocation.kind === "session",
  });
  if (session instanceof Error) return usageError(runtime, session, invocation);
  workspace.inputResponder.attachModel(session.model.answering);
  if (servers !== undefined) offerChangedTools(servers, session.agent, runtime.warn);
  return runMode(session, invocation);
}

/**
 * The session's agent is offered a server's tools anew when the server says they changed, from its next
 * model request on (its local tools kept), and the user reads one line per change.
 */
export function offerChangedTools(servers: MountedServers, agent: Agent, warn: (text: string) => void): void {
  servers.onListChanged((change) => {
    if (change.kind !== "tools") return;
    agent.setTools([...agent.tools.filter((tool) => tool.source === "local"), ...servers.tools]);
    warn(toolsChangedLine(change));
  });
}

/** Names past this many are counted, not listed: a server may swap a thousand tools at once. */
const NAMED_TOOL_CHANGES = 10;

/** `mcp: notes: tools changed: +add_tag, −old_tool (now 4 tools)`; the names are the server's, shown and never obeyed. */
function toolsChangedLine(change: Extract<ListChange, { kind: "tools" }>): string {
  const names = [...change.added.map((name) => `+${name}`), ...change.removed.map((name) => `\u2212${name}`)];
  const listed = names.slice(0, NAMED_TOOL_CHANGES).join(", ");
  const more = names.length > NAMED_TOOL_CHANGES ? ` and ${names.length - NAMED_TOOL_CHANGES} more` : "";
  const what = names.length === 0 ? "tools changed" : `tools changed: ${listed}${more}`;
  return untrustedText(`mcp: ${change.alias}: ${what} (now ${change.count} tool${change.count === 1 ? "" : "s"})`);
}

/** Short enough to type after --resume, sorted by start time: `20261202-231834-4242` (UTC, then the pid). */
function newSessionId(startedAt: string, pid: number): string {
  return `${startedAt.slice(0, 10).replaceAll("-", "")}-${startedAt.slice(11, 19).replaceAll(":", "")}-${pid}`;
}
