// Pipe mode (stdin is not a terminal) and `-p`: each line is a slash command or a prompt, run in
// order; plain text out; the exit status says whether any line failed.
import { createApproverWithoutTerminal } from "./approval.js";
import { runLine, type PromptCatalog } from "./commands.js";
import type { CountTokens } from "./context-report.js";
import type { ServerReconnect, ServerStatusProvider } from "./mcp-servers.js";
import { createJsonCollector, createStreamJsonRenderer, type OutputFormat } from "./headless-output.js";
import { createPlainRenderer } from "./render.js";
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
}

export const PIPE_OK_EXIT_CODE = 0;
export const PIPE_FAILED_EXIT_CODE = 1;

export async function runPipeMode(deps: PipeModeDeps): Promise<number> {
  const { out, err, signal } = deps;
  const format = deps.outputFormat ?? "text";
  const collector = format === "json" ? createJsonCollector() : undefined;
  const render = collector?.emit ?? (format === "stream-json" ? createStreamJsonRenderer(out) : createPlainRenderer({ out, err }));
  const agent = deps.makeAgent({
    approve: createApproverWithoutTerminal((line) => err(`${line}\n`)),
    emit: render,
  });
  const context = {
    agent,
    servers: deps.servers,
    // In a JSON format stdout carries the JSON alone: what a slash command prints goes to stderr.
    print: (text: string) => (format === "text" ? out : err)(text.endsWith("\n") ? text : `${text}\n`),
    warn: (text: string) => err(`${text}\n`),
    signal,
    ...(deps.reconnectServer === undefined ? {} : { reconnectServer: deps.reconnectServer }),
    ...(deps.promptCommands === undefined ? {} : { promptCommands: deps.promptCommands }),
    ...(deps.mentions === undefined ? {} : { mentions: deps.mentions, note: (text: string) => err(`${text}\n`) }),
    ...(deps.countTokens === undefined ? {} : { countTokens: deps.countTokens }),
  };
  let failed = false;
  for await (const line of deps.lines) {
    if (signal.aborted) break;
    const outcome = await runLine(line, context);
    if (outcome === "exit") break;
    if (outcome === "failed") failed = true;
  }
  if (collector !== undefined) out(untrustedJson(collector.finish()));
  if (signal.aborted) return INTERRUPTED_EXIT_CODE;
  return failed ? PIPE_FAILED_EXIT_CODE : PIPE_OK_EXIT_CODE;
}
