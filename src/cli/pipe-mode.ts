// Pipe mode (stdin is not a terminal) and `-p`: each line is a slash command or a prompt, run in
// order; plain text out, or the JSON formats of headless-output; the exit status says whether any line failed.
import type { AgentEvent, Message } from "../kernel/index.js";
import { createApproverWithoutTerminal } from "./approval.js";
import { runLine, type PromptCatalog } from "./commands.js";
import type { CountTokens } from "./context-report.js";
import type { ServerReconnect, ServerStatusProvider } from "./mcp-servers.js";
import { createCostTally } from "./cost.js";
import { createJsonCollector, jsonLine, type InitEvent, type OutputFormat } from "./headless-output.js";
import { createPlainRenderer } from "./render.js";
import { statusLines } from "./session-status.js";
import { INTERRUPTED_EXIT_CODE } from "./runtime.js";
import type { AgentFactory } from "./session.js";
import type { Mentions } from "./mentions.js";
import { untrustedJson } from "./untrusted-text.js";

export interface PipeModeDeps {
  readonly lines: AsyncIterable<string> | Iterable<string>;
  readonly makeAgent: AgentFactory;
  readonly servers: ServerStatusProvider;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Aborted on the first interrupt: the running line stops and no further line runs. */
  readonly signal: AbortSignal;
  /** `--output-format`: plain text (the default), one JSON object at the end, or JSON lines as events happen. */
  readonly outputFormat?: OutputFormat;
  /** `/mcp reconnect <alias>`; absent when no server is mounted. */
  readonly reconnectServer?: ServerReconnect;
  /** The servers' prompts as commands (`/mcp__<alias>__<prompt>`); absent when no server is mounted. */
  readonly promptCommands?: PromptCatalog;
  /** `@alias:uri` in a prompt; absent when no server declares resources. */
  readonly mentions?: Mentions;
  /** The API's count of a request's tokens for /context; absent for a model that cannot count. */
  readonly countTokens?: CountTokens;
  /** For /status and the JSON formats: the session, the model answering now, the project. */
  readonly sessionId: string;
  readonly modelName: () => string;
  readonly projectDir: string;
  /** The clock of the run's duration_ms, in milliseconds. */
  readonly nowMs: () => number;
  /** Why no prompt can be answered (no key): slash commands still run; the first prompt ends the run with exit 2. */
  readonly promptsRefused?: string;
}

export const PIPE_OK_EXIT_CODE = 0;
export const PIPE_FAILED_EXIT_CODE = 1;
/** A prompt came and no model can answer it (no key): a usage error, as -p's. */
export const PIPE_NO_MODEL_EXIT_CODE = 2;

export async function runPipeMode(deps: PipeModeDeps): Promise<number> {
  const { out, err, signal } = deps;
  const format = deps.outputFormat ?? "text";
  const startedMs = deps.nowMs();
  const collector = createJsonCollector();
  const render = rendererFor(format, deps, collector.emit);
  // /cost counts what the chat counts: every request the model reported.
  const costs = createCostTally();
  const agent = deps.makeAgent({
    approve: createApproverWithoutTerminal((line) => err(`${line}\n`)),
    emit: (event) => {
      if (event.type === "usage") costs.add(event.model, event.usage);
      render(event);
    },
  });
  if (format === "stream-json") out(jsonLine(initEvent(deps, agent.tools.map((tool) => tool.name))));
  const context = {
    agent,
    servers: deps.servers,
    // In a JSON format stdout carries the JSON alone: what a slash command prints goes to stderr.
    print: (text: string) => (format === "text" ? out : err)(text.endsWith("\n") ? text : `${text}\n`),
    warn: (text: string) => err(`${text}\n`),
    signal,
    costLines: () => costs.sessionLines(),
    statusLines: () => statusLines({ agent, servers: deps.servers, modelName: deps.modelName, sessionId: deps.sessionId, projectDir: deps.projectDir }),
    ...(deps.reconnectServer === undefined ? {} : { reconnectServer: deps.reconnectServer }),
    ...(deps.promptCommands === undefined ? {} : { promptCommands: deps.promptCommands }),
    ...(deps.mentions === undefined ? {} : { mentions: deps.mentions, note: (text: string) => err(`${text}\n`) }),
    ...(deps.countTokens === undefined ? {} : { countTokens: deps.countTokens }),
  };
  let failed = false;
  let refused = false;
  let replies = 0;
  for await (const line of deps.lines) {
    if (signal.aborted) break;
    if (deps.promptsRefused !== undefined && line.trim() !== "" && !line.startsWith("/")) {
      err(`mca: ${deps.promptsRefused}\n`);
      refused = true;
      break;
    }
    const before = agent.messages;
    const outcome = await runLine(line, context);
    replies += newReplies(before, agent.messages);
    if (outcome === "exit") break;
    if (outcome === "failed") failed = true;
  }
  if (format !== "text") {
    const result = collector.finish({ sessionId: deps.sessionId, numTurns: replies, durationMs: Math.round(deps.nowMs() - startedMs), failed: failed || refused || signal.aborted });
    out(format === "json" ? untrustedJson(result) : jsonLine(result));
  }
  if (signal.aborted) return INTERRUPTED_EXIT_CODE;
  if (refused) return PIPE_NO_MODEL_EXIT_CODE;
  return failed ? PIPE_FAILED_EXIT_CODE : PIPE_OK_EXIT_CODE;
}

/** Where the agent's events go: plain text, gathered for the one object at the end, or also a line each as they happen. */
function rendererFor(format: OutputFormat, deps: PipeModeDeps, collect: (event: AgentEvent) => void): (event: AgentEvent) => void {
  switch (format) {
    case "text":
      return createPlainRenderer({ out: deps.out, err: deps.err });
    case "json":
      return collect;
    case "stream-json":
      return (event) => {
        collect(event);
        deps.out(jsonLine(event));
      };
    default: {
      const unknown: never = format;
      throw new Error(`unknown output format ${JSON.stringify(unknown)}`);
    }
  }
}

function initEvent(deps: PipeModeDeps, tools: readonly string[]): InitEvent {
  const servers = deps.servers().map((server) => ({ name: server.alias, status: server.state }));
  return { type: "system", subtype: "init", session_id: deps.sessionId, model: deps.modelName(), cwd: deps.projectDir, tools, mcp_servers: servers };
}

/** The model's replies a line added to the conversation (a /clear or a compaction only ever removes earlier ones). */
function newReplies(before: readonly Message[], after: readonly Message[]): number {
  const known = new Set(before);
  return after.filter((message) => message.role === "assistant" && !known.has(message)).length;
}
