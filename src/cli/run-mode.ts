// The mode a run works in once its session is set up: `mca tools` and `mca call` once, -p and pipe mode
// line by line without a terminal, or the chat on one. Each stops when the runtime's interrupt is aborted.
import { createInterface } from "node:readline";
import { isatty } from "node:tty";
import type { MountedServers } from "../mcp/index.js";
import type { ProjectState, SessionMode } from "../session/index.js";
import type { PromptCatalog } from "./commands.js";
import type { CountTokens } from "./context-report.js";
import type { Mentions } from "./mentions.js";
import type { CliInputResponder } from "./input/responder.js";
import type { ServerReconnect, ServerStatusProvider } from "./mcp-servers.js";
import { USAGE_EXIT_CODE, type Invocation } from "./program.js";
import type { Runtime } from "./runtime.js";
import type { AgentFactory } from "./session.js";
import type { TerminalLender } from "./terminal.js";

/** An invocation that runs a mode: a session, `mca tools` or `mca call`. */
export type ModeInvocation = Extract<Invocation, { kind: "session" | "tools" | "call" | "context" }>;

/** What a mode is run with once the session is set up. */
export interface ModeSetup {
  readonly makeAgent: AgentFactory;
  readonly banner: string;
  readonly inputResponder: CliInputResponder;
  readonly projectDir: string;
  readonly state: ProjectState;
  readonly sessionId: string;
  /** The MCP servers' statuses as /mcp shows them. */
  readonly statuses: ServerStatusProvider;
  /** `/mcp reconnect <alias>`; absent when no server is mounted, and /mcp reconnect says so. */
  readonly reconnectServer?: ServerReconnect;
  /** The mounted servers, whose prompts a session offers as slash commands, listed again when a server says they changed. */
  readonly promptServers?: Pick<MountedServers, "connections" | "onListChanged" | "appOnlyTools">;
  /** `@alias:uri` in a prompt; absent when no server declares resources. */
  readonly mentions?: Mentions;
  /** Why no prompt can be answered (pipe mode without a key). */
  readonly promptsRefused?: string;
  /** `/mcp login <alias>` in the chat. */
  readonly mcpLogin: (alias: string, print: (text: string) => void, fail: (text: string) => void, lend: TerminalLender) => Promise<number>;
  readonly switchModel: (name: string) => Promise<string | Error>;
  readonly modelName: () => string;
  /** The API's count of a request's tokens (`/context`, `mca context`); absent for a model that cannot count. */
  readonly countTokens?: CountTokens;
}

/** Asked of the descriptor, not of process.stdin: creating that stream costs a run that never reads it ~3 ms. */
export function stdinIsTerminal(): boolean {
  return isatty(0);
}

/** How the session's transcript names the run, for `mca sessions` and `--resume`. */
export function sessionMode(invocation: ModeInvocation): SessionMode {
  if (invocation.kind !== "session") return "call";
  if (invocation.print) return "print";
  if (stdinIsTerminal()) return "chat";
  // `mca "<prompt>"` without a terminal is `mca -p "<prompt>"`: its stdin is the prompt's context, not more lines.
  return invocation.prompt === undefined ? "pipe" : "print";
}

/** What every mode without a terminal is given. */
function modeDeps(runtime: Runtime, setup: ModeSetup) {
  const counting = setup.countTokens === undefined ? {} : { countTokens: setup.countTokens };
  return {
    makeAgent: setup.makeAgent,
    servers: setup.statuses,
    out: runtime.writeOut,
    err: runtime.writeErr,
    signal: runtime.interrupt,
    // Tools a server keeps for its MCP App: listed by `mca tools --json`, never offered to the model.
    appOnlyTools: () => setup.promptServers?.appOnlyTools ?? [],
    ...counting,
  };
}

export async function runMode(runtime: Runtime, invocation: ModeInvocation, setup: ModeSetup): Promise<number> {
  switch (invocation.kind) {
    case "tools": {
      const { runToolsCommand } = await import("./subcommands.js");
      return runToolsCommand(modeDeps(runtime, setup), invocation.json);
    }
    case "call": {
      const { runCallCommand } = await import("./subcommands.js");
      return runCallCommand(modeDeps(runtime, setup), invocation.tool, invocation.args, invocation.json);
    }
    case "context": {
      const { runContextCommand } = await import("./context-report.js");
      return runContextCommand(modeDeps(runtime, setup), invocation.json);
    }
    case "session": {
      // Listed while the session runs; a listing still running when it ends stops without a word.
      const listing = new AbortController();
      try {
        return await runSession(runtime, invocation, setup, await promptCatalog(runtime, setup, listing.signal));
      } finally {
        listing.abort();
      }
    }
    default: {
      const unknown: never = invocation;
      throw new Error(`unhandled invocation ${JSON.stringify(unknown)}`);
    }
  }
}

/** The servers' prompts as commands, listed in the background so that the session starts as soon; none without servers. */
async function promptCatalog(runtime: Runtime, setup: ModeSetup, signal: AbortSignal): Promise<{ promptCommands?: PromptCatalog }> {
  const servers = setup.promptServers;
  if (servers === undefined || servers.connections.length === 0) return {};
  const { createPromptCatalog } = await import("./prompt-commands.js");
  return { promptCommands: createPromptCatalog(servers.connections, { warn: runtime.warn, signal, watch: (listener) => servers.onListChanged(listener) }) };
}

/** Pipe mode and `-p` without a terminal, else the chat. */
async function runSession(runtime: Runtime, invocation: Extract<ModeInvocation, { kind: "session" }>, setup: ModeSetup, prompts: { promptCommands?: PromptCatalog }): Promise<number> {
  const { makeAgent, sessionId } = setup;
  const reconnecting = setup.reconnectServer === undefined ? {} : { reconnectServer: setup.reconnectServer };
  const mentioning = setup.mentions === undefined ? {} : { mentions: setup.mentions };
  const { runPipeMode } = await import("./pipe-mode.js");
  const continueWith = `mca --resume ${sessionId} continues it`;
  const mode = sessionMode(invocation);
  if (mode !== "chat") {
    const pipeDeps = {
      ...modeDeps(runtime, setup),
      outputFormat: invocation.outputFormat,
      sessionId,
      modelName: setup.modelName,
      projectDir: setup.projectDir,
      permissionMode: invocation.options.permissionMode ?? "default",
      ...(invocation.includePartialMessages === true ? { includePartialMessages: true } : {}),
      ...(invocation.mcaEvents === true ? { mcaEvents: true } : {}),
      ...(invocation.outputSchemaFile === undefined ? {} : { outputSchemaFile: invocation.outputSchemaFile }),
      // Not performance.now(): the first touch of `performance` loads Node's perf_hooks, ~2 ms of every start.
      nowMs: Date.now,
      ...reconnecting,
      ...prompts,
      ...mentioning,
      ...(setup.promptsRefused === undefined ? {} : { promptsRefused: setup.promptsRefused }),
    };
    if (invocation.inputFormat === "stream-json") {
      runtime.warn(`mca: session ${sessionId} (${continueWith})`);
      const { runStreamJsonInput } = await import("./stream-json-input.js");
      return runStreamJsonInput(stdinLines(runtime.interrupt), pipeDeps);
    }
    const lines = mode === "pipe" ? stdinLines(runtime.interrupt) : await headlessPrompt(invocation.prompt, runtime);
    if (lines instanceof Error) {
      runtime.warn(`mca: ${lines.message}`);
      if (invocation.outputFormat !== "text") {
        const { failedBeforeRun, jsonLine } = await import("./headless-output.js");
        runtime.writeOut(jsonLine({ ...failedBeforeRun(lines.message), session_id: sessionId }));
      }
      return USAGE_EXIT_CODE;
    }
    // One line on stderr, so that stdout stays the answer alone.
    runtime.warn(`mca: session ${sessionId} (${continueWith})`);
    return runPipeMode({ ...pipeDeps, lines });
  }
  const { runChat } = await import("./chat.js");
  const code = await runChat({
    makeAgent,
    servers: setup.statuses,
    input: process.stdin,
    output: process.stdout,
    errorOutput: process.stderr,
    color: (runtime.env.NO_COLOR ?? "") === "" && process.stdout.isTTY,
    banner: setup.banner,
    nowMs: Date.now,
    signal: runtime.interrupt,
    onTerminal: (lend) => setup.inputResponder.attachTerminal(lend),
    projectDir: setup.projectDir,
    state: setup.state,
    env: runtime.env,
    mcpLogin: setup.mcpLogin,
    ...reconnecting,
    ...prompts,
    ...mentioning,
    switchModel: setup.switchModel,
    modelName: setup.modelName,
    ...(setup.countTokens === undefined ? {} : { countTokens: setup.countTokens }),
    sessionId,
    redact: runtime.redact,
    onNotices: runtime.showWarningsIn,
    ...(invocation.prompt === undefined ? {} : { firstPrompt: invocation.prompt }),
  });
  runtime.showWarningsIn(null);
  runtime.writeOut(`session ${sessionId} · ${continueWith}\n`);
  return code;
}

/** Standard input line by line; an interrupt ends it, so pipe mode stops even while waiting for input. */
function stdinLines(signal: AbortSignal): AsyncIterable<string> {
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  signal.addEventListener("abort", () => lines.close(), { once: true });
  return lines;
}

/**
 * The one line -p runs, as `claude -p` reads it: the prompt, with the text piped in after it as its context;
 * without a prompt, the piped text is the prompt. A slash command runs alone (a piped text is not its argument).
 */
async function headlessPrompt(prompt: string | undefined, runtime: Runtime): Promise<readonly string[] | Error> {
  const piped = stdinIsTerminal() ? "" : await readPiped(runtime.interrupt);
  if (piped instanceof Error) return piped;
  if (prompt === undefined) {
    if (piped.trim() === "") return new Error("-p has no prompt: give it after -p, or pipe it in (echo 'explain this' | mca -p)");
    return [piped];
  }
  if (piped.trim() === "") return [prompt];
  if (prompt.trim().startsWith("/")) {
    runtime.warn("mca: the text piped in is not read by a slash command");
    return [prompt];
  }
  // Mentions are read in the prompt only: the piped text may be anyone's (a log, a file of a repository).
  const { PIPED_TEXT_START } = await import("./mentions.js");
  return [`${prompt}${PIPED_TEXT_START}${piped.replace(/\n$/, "")}\n</stdin>`];
}

/** More piped text than this is refused: a model's whole window is about 800 kB of text. */
const MAX_PIPED_BYTES = 4 * 1024 * 1024;

/** All of standard input, as text; what arrived so far once interrupted; an Error past MAX_PIPED_BYTES. */
async function readPiped(signal: AbortSignal): Promise<string | Error> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  const stop = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
  const read = (async () => {
    for await (const chunk of process.stdin) {
      if (!Buffer.isBuffer(chunk)) continue;
      bytes += chunk.length;
      if (bytes > MAX_PIPED_BYTES) return;
      chunks.push(chunk);
    }
  })();
  await Promise.race([read, stop]);
  if (bytes > MAX_PIPED_BYTES) return new Error(`the text piped in is over ${MAX_PIPED_BYTES / 1024 / 1024} MB, more than a model's context can take: pipe in less (e.g. | tail -n 2000)`);
  return Buffer.concat(chunks).toString("utf8");
}
