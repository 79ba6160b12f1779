#!/usr/bin/env node
// mca's composition root: reads the environment, argv and the terminal, wires the layers together and
// owns the process's exit. The only module with side effects when it loads; everything a path does
// not need is imported lazily, so `mca --help` and the mock never load the Anthropic SDK or prompts.
import { homedir } from "node:os";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { isatty } from "node:tty";
import { createShutdown, honourNoColor, parseInvocation, readPackageVersion, USAGE_EXIT_CODE, type Closer, type Invocation } from "./cli/index.js";
import type { AgentFactory, CliInputResponder, InputAnswers, ServerReconnect, ServerStatus, SettledTrust, TerminalLender } from "./cli/index.js";
import type { Redact } from "./kernel/index.js";
import type { MountedServers } from "./mcp/index.js";
import type { ProjectState, SessionMode } from "./session/index.js";

/** An invocation that runs in the project with its servers mounted (everything but help, trust and the sessions list). */
type WorkInvocation = Exclude<Invocation, { kind: "exit" | "trust" | "sessions" }>;

const EXIT_ON_SIGNAL: Readonly<Record<"SIGTERM" | "SIGHUP", number>> = { SIGTERM: 143, SIGHUP: 129 };
const INTERRUPTED_EXIT_CODE = 130;
const CRASH_EXIT_CODE = 1;

/** Each MCP connection's close(), registered when it is mounted; shutdown runs them all. */
const closers: Closer[] = [];
/** The MCP servers of this run, once mounted; their statuses are read afresh by /mcp and `mca mcp list`. */
let mounted: MountedServers | undefined;
/** Redacted here as well: the chat prints statuses straight to the terminal, and one server's error may quote another's secret. */
const shownStatus = (status: ServerStatus): ServerStatus => ({
  ...status,
  error: status.error === null ? null : redact(status.error),
  stderrTail: status.stderrTail === null ? null : redact(status.stderrTail),
  ...(status.recentLogs === undefined ? {} : { recentLogs: status.recentLogs.map(redact) }),
  ...(status.endpoint === undefined ? {} : { endpoint: redact(status.endpoint) }),
});
const servers = (): readonly ServerStatus[] => (mounted?.statuses() ?? []).map(shownStatus);
/** `/mcp reconnect <alias>` of the mounted servers: the status shown as /mcp shows it, and the remote tools offered now. */
const reconnectFor =
  (servers: MountedServers): ServerReconnect =>
  async (alias, signal) => {
    const status = await servers.reconnect(alias, signal);
    return status instanceof Error ? status : { status: shownStatus(status), remoteTools: servers.tools };
  };

/** Exit status after a reader closed our output, as a shell reports a process ended by SIGPIPE (`git log | head`). */
const OUTPUT_CLOSED_EXIT_CODE = 141;
/** Set once stdout or stderr is gone (a closed pipe): nothing is written any more, not even a warning. */
let outputClosed = false;
/**
 * The run's redactor once the MCP setup begins (it learns the configured header and env values, the API key
 * and a login's tokens as they come): every line mca itself writes passes through it, so none is printed
 * (what tools return is redacted by the agent before it is cut).
 */
let redact: Redact = (text) => text;
const writeOut = (text: string): void => void (outputClosed || process.stdout.write(redact(text)));
const writeErr = (text: string): void => void (outputClosed || process.stderr.write(redact(text)));
/** Where warnings go: stderr, or while the chat runs, the chat's own place for them (above its input line). */
const warnOnStderr = (text: string): void => writeErr(`${text}\n`);
let showWarning = warnOnStderr;
const warn = (text: string): void => showWarning(text);
const shutdown = createShutdown({ closers, exit: (code) => process.exit(code), warn });
/**
 * Aborted when the work must stop: the first SIGINT outside the chat (pipe mode, -p, subcommands), and
 * every way of ending the process. The running mode sees it, aborts its turn (a tool's processes are
 * killed) and returns.
 */
const interrupt = new AbortController();
/**
 * Stops the work and shuts down. `why` completes "Stopped: …" in what the model reads of a call cut short,
 * so that a signal or a closed pipe is never reported as the user's own interrupt.
 */
const end = (code: number, why: string): void => {
  if (!interrupt.signal.aborted) interrupt.abort(why);
  void shutdown(code);
};

/** Takes every MCP child process group down, synchronously; set when the MCP client is loaded (no child exists before). */
let killChildren = (): void => undefined;
// A crash or a plain process.exit still takes every MCP child process group down, synchronously.
process.on("exit", () => killChildren());
for (const [signal, code] of Object.entries(EXIT_ON_SIGNAL)) process.on(signal, () => end(code, `mca received ${signal}`));
process.on("SIGINT", () => {
  // The user's own Ctrl-C: no reason given, the call reads "Aborted by the user.".
  if (interrupt.signal.aborted) end(INTERRUPTED_EXIT_CODE, "the user pressed Ctrl-C twice");
  else interrupt.abort();
});
// A reader that closed our output (`mca … | head -1`) ends the run quietly and at once, servers closed first;
// writing on would only raise EPIPE again.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", () => {
    if (outputClosed) return;
    outputClosed = true;
    end(OUTPUT_CLOSED_EXIT_CODE, "mca's output was closed");
  });
}
let crashed = false;
for (const event of ["uncaughtException", "unhandledRejection"] as const) {
  process.on(event, (error: unknown) => {
    // One report per run: a second failure while shutting down must not loop.
    if (crashed) return;
    crashed = true;
    warn(`mca: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    end(CRASH_EXIT_CODE, "mca hit an unexpected error");
  });
}

honourNoColor(process.env);
const running = run(process.argv.slice(2), process.env);
// Shutdown first lets the aborted mode settle (bounded by the shutdown's own limit), then closes the rest.
closers.push(() => running.then(() => undefined, () => undefined));
void running.then((code) => shutdown(code));

async function run(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const invocation = await parseInvocation(argv, readPackageVersion(import.meta.url), { writeOut, writeErr });
  if (invocation.kind === "exit") return invocation.code;
  if ((env.SELFTEST ?? "") !== "") {
    // `MOCK=1 SELFTEST=1 pnpm start`: it starts the demo servers itself, so it mounts no config of its own.
    const { runSelfTestCommand } = await import("./selftest/run-selftest.js");
    const ticketsPort = Number(env.TICKETS_PORT ?? "3115");
    if (!Number.isInteger(ticketsPort) || ticketsPort < 0 || ticketsPort > 65_535) {
      warn(`mca: TICKETS_PORT must be a port number, not ${JSON.stringify(env.TICKETS_PORT)}`);
      return USAGE_EXIT_CODE;
    }
    return runSelfTestCommand({ ticketsPort, clientVersion: readPackageVersion(import.meta.url), baseEnv: env, out: writeOut, err: writeErr });
  }
  // Started in a subfolder, mca works on the whole project (the nearest folder upward with its markers).
  const { findProjectRoot } = await import("./config/project-root.js");
  const projectDir = findProjectRoot(process.cwd(), env.HOME ?? homedir());
  if (invocation.kind === "trust") {
    const { runTrustCommand } = await import("./cli/trust.js");
    return runTrustCommand({ projectDir, env, out: writeOut, err: writeErr, now: () => new Date() });
  }
  // mca's own state for this project lives in the user's state folder, never in the project.
  const { listSessions, projectState } = await import("./session/index.js");
  const state = projectState(projectDir, env, env.HOME ?? homedir());
  if (invocation.kind === "sessions") {
    const { runSessionsCommand } = await import("./cli/subcommands.js");
    return runSessionsCommand({ sessions: listSessions(state), out: writeOut }, invocation.json);
  }
  const project = await settleTrust(invocation, projectDir, env);
  if (project instanceof Error) {
    warn(`mca: ${project.message}`);
    return USAGE_EXIT_CODE;
  }
  const input = await setUpInputResponder(invocation, projectDir);
  if (input instanceof Error) {
    warn(`mca: ${input.message}`);
    return USAGE_EXIT_CODE;
  }
  const { configuredSecrets } = await import("./config/mcp-config.js");
  const { growingRedactor, loginDeps, runMcpLogin, runMcpLogout } = await import("./cli/mcp-login.js");
  const { mountConfiguredServers, readConfiguredServers, startupFailureLines } = await import("./cli/mcp-servers.js");
  ({ killAllChildrenSync: killChildren } = await import("./mcp/index.js"));
  // The configured values join the redaction set once the config is read; a login's tokens as they are issued.
  const secrets = growingRedactor([]);
  redact = secrets.redact;
  const mountDeps = {
    logins: loginDeps(env, secrets.add),
    projectDir,
    configPath: invocation.options.mcpConfig,
    project,
    env,
    clientVersion: readPackageVersion(import.meta.url),
    warn,
    inputResponder: input.responder,
    ...(input.answers === undefined ? {} : { inputAnswers: input.answers }),
  };
  const config = await readConfiguredServers(mountDeps);
  if (config instanceof Error) {
    warn(`mca: ${config.message}`);
    return USAGE_EXIT_CODE;
  }
  for (const secret of configuredSecrets(config, env)) secrets.add(secret);
  if (invocation.kind === "mcp-login" || invocation.kind === "mcp-logout") {
    const commandDeps = { config, env, out: writeOut, err: writeErr };
    if (invocation.kind === "mcp-logout") return runMcpLogout(commandDeps, invocation.alias);
    const interactive = stdinIsTerminal() && process.stdout.isTTY === true;
    return runMcpLogin({ ...commandDeps, interactive, addSecret: secrets.add }, invocation.alias);
  }
  if (config !== null) {
    const mounting = await mountConfiguredServers(config, mountDeps);
    mounted = mounting;
    closers.push(() => mounting.close());
    for (const line of startupFailureLines(mounting)) warn(line);
  }
  // Stopped (SIGTERM, Ctrl-C twice) while the servers were coming up: no mode starts; shutdown closes them.
  if (interrupt.signal.aborted) return INTERRUPTED_EXIT_CODE;
  if (invocation.kind === "mcp-list") {
    const { runMcpListCommand } = await import("./cli/subcommands.js");
    return runMcpListCommand({ servers, out: writeOut }, invocation.json);
  }
  const { setUpSession } = await import("./cli/session.js");
  const startedAt = new Date().toISOString();
  const sessionId = newSessionId(startedAt, process.pid);
  const setup = await setUpSession({
    projectDir,
    state,
    env,
    options: invocation.options,
    project,
    sessionId,
    mode: sessionMode(invocation),
    startedAt,
    remoteTools: mounted?.tools ?? [],
    serverAliases: config?.servers.map((server) => server.alias) ?? [],
    redact,
    ...(mounted === undefined ? {} : { findTool: mounted.findTool }),
    warn,
    announceModel: invocation.kind === "session",
  });
  if (setup instanceof Error) {
    warn(`mca: ${setup.message}`);
    return USAGE_EXIT_CODE;
  }
  input.responder.attachModel(setup.model);
  const mcpLogin = (alias: string, print: (text: string) => void, fail: (text: string) => void, lend: TerminalLender): Promise<number> =>
    runMcpLogin({ config, env, out: print, err: fail, interactive: true, addSecret: secrets.add, lend }, alias);
  return runMode(invocation, {
    makeAgent: setup.makeAgent,
    banner: setup.banner,
    env,
    inputResponder: input.responder,
    projectDir,
    state,
    sessionId,
    mcpLogin,
    switchModel: setup.switchModel,
    modelName: () => setup.model.name,
  });
}

/** Short enough to type after --resume, sorted by start time: `20261202-231834-4242` (UTC, then the pid). */
function newSessionId(startedAt: string, pid: number): string {
  return `${startedAt.slice(0, 10).replaceAll("-", "")}-${startedAt.slice(11, 19).replaceAll(":", "")}-${pid}`;
}

function sessionMode(invocation: Exclude<WorkInvocation, { kind: "mcp-list" | "mcp-login" | "mcp-logout" }>): SessionMode {
  if (invocation.kind !== "session") return "call";
  if (invocation.print !== undefined) return "print";
  return stdinIsTerminal() ? "chat" : "pipe";
}

/** Asked of the descriptor, not of process.stdin: creating that stream costs a run that never reads it ~3 ms. */
function stdinIsTerminal(): boolean {
  return isatty(0);
}

/** Whether the chat can ask the user questions on the terminal (trust, approvals, MCP input requests). */
function isInteractive(invocation: WorkInvocation): boolean {
  return invocation.kind === "session" && invocation.print === undefined && stdinIsTerminal();
}

/** Whether the project's own files apply: asked once in the chat, told in one line elsewhere. */
async function settleTrust(invocation: WorkInvocation, projectDir: string, env: NodeJS.ProcessEnv): Promise<SettledTrust | Error> {
  const { settleProjectTrust } = await import("./cli/trust.js");
  let asker;
  if (isInteractive(invocation)) {
    const { createPromptsAsker } = await import("./cli/terminal.js");
    asker = createPromptsAsker({ stdin: process.stdin, stdout: process.stdout });
  }
  return settleProjectTrust({
    projectDir,
    env,
    mcpConfigFlag: invocation.options.mcpConfig,
    trustFlag: invocation.options.trustProject,
    asker,
    warn,
    now: () => new Date(),
  });
}

/**
 * What this run answers when an MCP server asks for input: only the interactive chat has a person to ask;
 * `--input-responses` is read and validated here, before any server is started.
 */
async function setUpInputResponder(
  invocation: WorkInvocation,
  projectDir: string,
): Promise<{ responder: CliInputResponder; answers: InputAnswers | undefined } | Error> {
  const file = invocation.options.inputResponses;
  let answers: InputAnswers | undefined;
  if (file !== undefined) {
    const { loadInputAnswers } = await import("./cli/input/answers-file.js");
    const loaded = await loadInputAnswers(resolve(projectDir, file), file);
    if (loaded instanceof Error) return loaded;
    answers = loaded;
  }
  const interactive = isInteractive(invocation);
  const { createCliInputResponder } = await import("./cli/input/responder.js");
  const responder = createCliInputResponder({ interactive, projectDir, notify: warn, ...(answers === undefined ? {} : { answers }) });
  return { responder, answers };
}

/** What a mode is run with once the session is set up. */
interface ModeSetup {
  readonly makeAgent: AgentFactory;
  readonly banner: string;
  readonly env: NodeJS.ProcessEnv;
  readonly inputResponder: CliInputResponder;
  readonly projectDir: string;
  readonly state: ProjectState;
  readonly sessionId: string;
  readonly switchModel: (name: string) => Promise<string | Error>;
  readonly modelName: () => string;
  /** `/mcp login <alias>` in the chat. */
  readonly mcpLogin: (alias: string, print: (text: string) => void, fail: (text: string) => void, lend: TerminalLender) => Promise<number>;
}

async function runMode(invocation: Exclude<WorkInvocation, { kind: "mcp-list" | "mcp-login" | "mcp-logout" }>, setup: ModeSetup): Promise<number> {
  const { makeAgent, banner, env, inputResponder, projectDir, sessionId } = setup;
  const modeDeps = { makeAgent, servers, out: writeOut, err: writeErr, signal: interrupt.signal };
  // Without mounted servers there is nothing to reconnect, and /mcp reconnect says so.
  const reconnecting = mounted === undefined ? {} : { reconnectServer: reconnectFor(mounted) };
  switch (invocation.kind) {
    case "tools": {
      const { runToolsCommand } = await import("./cli/subcommands.js");
      return runToolsCommand(modeDeps, invocation.json);
    }
    case "call": {
      const { runCallCommand } = await import("./cli/subcommands.js");
      return runCallCommand(modeDeps, invocation.tool, invocation.args, invocation.json);
    }
    case "session": {
      const { runPipeMode } = await import("./cli/pipe-mode.js");
      const continueWith = `mca --resume ${sessionId} continues it`;
      if (invocation.print !== undefined || !stdinIsTerminal()) {
        // One line on stderr, so that stdout stays the answer alone.
        warn(`mca: session ${sessionId} (${continueWith})`);
        return runPipeMode({
          ...modeDeps,
          lines: invocation.print === undefined ? stdinLines(interrupt.signal) : [invocation.print],
          outputFormat: invocation.outputFormat,
          ...reconnecting,
        });
      }
      const { runChat } = await import("./cli/chat.js");
      const code = await runChat({
        makeAgent,
        servers,
        input: process.stdin,
        output: process.stdout,
        errorOutput: process.stderr,
        color: (env.NO_COLOR ?? "") === "" && process.stdout.isTTY,
        banner,
        nowMs: Date.now,
        signal: interrupt.signal,
        onTerminal: (lend) => inputResponder.attachTerminal(lend),
        projectDir,
        state: setup.state,
        env,
        mcpLogin: setup.mcpLogin,
        ...reconnecting,
        switchModel: setup.switchModel,
        modelName: setup.modelName,
        sessionId,
        redact,
        onNotices: (show) => {
          showWarning = (text) => void (outputClosed || show(redact(text)));
        },
      });
      showWarning = warnOnStderr;
      writeOut(`session ${sessionId} · ${continueWith}\n`);
      return code;
    }
    default: {
      const unknown: never = invocation;
      throw new Error(`unhandled invocation ${JSON.stringify(unknown)}`);
    }
  }
}

/** Standard input line by line; an interrupt ends it, so pipe mode stops even while waiting for input. */
function stdinLines(signal: AbortSignal): AsyncIterable<string> {
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  signal.addEventListener("abort", () => lines.close(), { once: true });
  return lines;
}
