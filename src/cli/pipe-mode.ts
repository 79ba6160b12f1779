// Pipe mode (stdin is not a terminal) and `-p`: each line is a slash command or a prompt, run in order. Out
// goes each prompt's final message (as `claude -p` prints it), or the JSON formats of headless-output and
// stream-json; the exit status says whether any line failed.
import type { AgentEvent } from "../kernel/index.js";
import { createApproverWithoutTerminal } from "./approval.js";
import { runLine, type PromptCatalog } from "./commands.js";
import type { CountTokens } from "./context-report.js";
import type { ServerReconnect, ServerStatusProvider } from "./mcp-servers.js";
import { createCostTally } from "./cost.js";
import { createJsonCollector, failedBeforeRun, jsonLine, messageText, type OutputFormat, type StructuredOutcome } from "./headless-output.js";
import { createPlainRenderer } from "./render.js";
import { statusLines } from "./session-status.js";
import { INTERRUPTED_EXIT_CODE } from "./runtime.js";
import type { AgentFactory } from "./session.js";
import type { Mentions } from "./mentions.js";
import { createStreamJsonWriter, initLine } from "./stream-json.js";
import { checkFinalMessage, loadOutputSchema, retryPrompt, schemaInstruction, type OutputSchema } from "./structured-output.js";
import { untrustedJson, untrustedText } from "./untrusted-text.js";

export interface PipeModeDeps {
  readonly lines: AsyncIterable<string> | Iterable<string>;
  readonly makeAgent: AgentFactory;
  readonly servers: ServerStatusProvider;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Aborted on the first interrupt: the running line stops and no further line runs. */
  readonly signal: AbortSignal;
  /** `--output-format`: plain text (the default), one JSON object at the end, or JSON lines as things happen. */
  readonly outputFormat?: OutputFormat;
  /** `--include-partial-messages`: stream-json adds `stream_event` lines as the model's words arrive. */
  readonly includePartialMessages?: boolean;
  /** `--mca-events`: stream-json adds mca's own event lines (`text`, `tool_start`, `tool_end`, `turn_end`, …). */
  readonly mcaEvents?: boolean;
  /** `--output-schema <file.json>`, as given (read relative to the working directory). */
  readonly outputSchemaFile?: string;
  /** `--permission-mode`, for stream-json's init line; "default" when not given. */
  readonly permissionMode?: string;
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
  /** The clock of the run's duration_ms and duration_api_ms, in milliseconds. */
  readonly nowMs: () => number;
  /** Why no prompt can be answered (no key): slash commands still run; the first prompt ends the run with exit 2. */
  readonly promptsRefused?: string;
}

export const PIPE_OK_EXIT_CODE = 0;
export const PIPE_FAILED_EXIT_CODE = 1;
/** A prompt came and no model can answer it (no key), or a flag's file cannot be used: a usage error, as -p's. */
export const PIPE_NO_MODEL_EXIT_CODE = 2;

export async function runPipeMode(deps: PipeModeDeps): Promise<number> {
  const { out, err, signal } = deps;
  const format = deps.outputFormat ?? "text";
  const startedMs = deps.nowMs();
  let schema: OutputSchema | undefined;
  if (deps.outputSchemaFile !== undefined) {
    const loaded = await loadOutputSchema(deps.outputSchemaFile);
    if (loaded instanceof Error) {
      err(`mca: ${loaded.message}\n`);
      if (format !== "text") out(jsonLine({ ...failedBeforeRun(loaded.message), session_id: deps.sessionId }));
      return PIPE_NO_MODEL_EXIT_CODE;
    }
    schema = loaded;
  }
  const collector = createJsonCollector(deps.nowMs);
  const render = rendererFor(format, deps, collector.emit);
  // /cost counts what the chat counts: every request the model reported.
  const costs = createCostTally();
  /** The text of the model's latest message, and how the latest turn ended: what is printed, checked and retried. */
  let finalText = "";
  let lastEnd: string | null = null;
  const agent = deps.makeAgent({
    approve: createApproverWithoutTerminal((line) => err(`${line}\n`)),
    emit: (event) => {
      if (event.type === "usage") costs.add(event.model, event.usage);
      if (event.type === "message" && event.message.role === "assistant") finalText = messageText(event.message);
      if (event.type === "turn_end") lastEnd = event.reason;
      render(event);
    },
  });
  if (format === "stream-json") {
    const facts = { sessionId: deps.sessionId, cwd: deps.projectDir, model: deps.modelName(), tools: agent.tools.map((tool) => tool.name), servers: deps.servers() };
    out(jsonLine(initLine({ ...facts, permissionMode: deps.permissionMode ?? "default" })));
  }
  /** Plain text prints each prompt's final message once its line is done; with a schema, only the run's last. */
  const printFinal = (): void => {
    if (format === "text" && finalText.trim() !== "") out(`${untrustedText(finalText.replace(/\s+$/u, ""))}\n`);
    finalText = "";
  };
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
  for await (const line of deps.lines) {
    if (signal.aborted) break;
    const prompt = isPrompt(line);
    if (deps.promptsRefused !== undefined && prompt) {
      err(`mca: ${deps.promptsRefused}\n`);
      refused = true;
      break;
    }
    finalText = "";
    const outcome = await runLine(prompt && schema !== undefined ? `${line}${schemaInstruction(schema)}` : line, context);
    if (schema === undefined) printFinal();
    if (outcome === "exit") break;
    if (outcome === "failed") failed = true;
  }
  const structured = schema === undefined || lastEnd === null || signal.aborted ? undefined : await structuredOutput(schema, agent, () => finalText, () => lastEnd, signal);
  if (schema !== undefined) printFinal();
  if (format !== "text") {
    const facts = { sessionId: deps.sessionId, durationMs: Math.round(deps.nowMs() - startedMs), failed: failed || refused || signal.aborted };
    const result = collector.finish(structured === undefined ? facts : { ...facts, structured });
    out(format === "json" ? untrustedJson(result) : jsonLine(result));
  }
  if (signal.aborted) return INTERRUPTED_EXIT_CODE;
  if (refused) return PIPE_NO_MODEL_EXIT_CODE;
  return failed || structured?.kind === "invalid" ? PIPE_FAILED_EXIT_CODE : PIPE_OK_EXIT_CODE;
}

/** A line the model answers: not a slash command, not a `!command` of the person's. */
function isPrompt(line: string): boolean {
  const text = line.trim();
  return text !== "" && !text.startsWith("/") && !text.startsWith("!");
}

/**
 * The final message checked against the schema, and the model asked once more when it is not valid. Only a
 * turn that ended by itself is checked: one cut by a limit or a failure already says why the run failed.
 */
async function structuredOutput(
  schema: OutputSchema,
  agent: { prompt(text: string, signal: AbortSignal): Promise<unknown> },
  finalText: () => string,
  lastEnd: () => string | null,
  signal: AbortSignal,
): Promise<StructuredOutcome | undefined> {
  if (lastEnd() !== "done") return undefined;
  const first = await checkFinalMessage(schema, finalText());
  if (first.kind === "valid") return first;
  await agent.prompt(retryPrompt(schema, first.reason), signal);
  if (lastEnd() !== "done") return undefined;
  return checkFinalMessage(schema, finalText());
}

/** Where the agent's events go: tool lines for the person (text), gathered for the one object at the end, or also stream-json lines as they happen. */
function rendererFor(format: OutputFormat, deps: PipeModeDeps, collect: (event: AgentEvent) => void): (event: AgentEvent) => void {
  switch (format) {
    case "text": {
      // The model's words are printed whole once a line is done (its final message), never as they stream.
      const plain = createPlainRenderer({ out: deps.out, err: deps.err });
      return (event) => {
        if (event.type !== "text") plain(event);
      };
    }
    case "json":
      return collect;
    case "stream-json": {
      const write = createStreamJsonWriter({ sessionId: deps.sessionId, model: deps.modelName, write: deps.out, partialMessages: deps.includePartialMessages ?? false, mcaEvents: deps.mcaEvents ?? false });
      return (event) => {
        collect(event);
        write(event);
      };
    }
    default: {
      const unknown: never = format;
      throw new Error(`unknown output format ${JSON.stringify(unknown)}`);
    }
  }
}
