// Pipe mode (stdin is not a terminal) and `-p`: each line is a slash command or a prompt, run in order. Out
// goes each prompt's final message (as `claude -p` prints it), or the JSON formats of headless-output and
// stream-json; the exit status says whether any line failed.
import type { AgentEvent } from "../kernel/index.js";
import { createApproverWithoutTerminal } from "./approval.js";
import { isCommandLine, runLine } from "./commands.js";
import { createJsonCollector, failedBeforeRun, jsonLine, messageText, type OutputFormat, type StructuredOutcome } from "./headless-output.js";
import { createPlainRenderer } from "./render.js";
import { INTERRUPTED_EXIT_CODE } from "./runtime.js";
import { plainView, type Session } from "./session-seam.js";
import { createStreamJsonWriter, initLine, messageIds } from "./stream-json.js";
import { checkFinalMessage, loadOutputSchema, retryPrompt, schemaInstruction, type OutputSchema } from "./structured-output.js";
import { untrustedJson, untrustedText } from "./untrusted-text.js";

/** What the command line asked of a run without a terminal: how its output is shaped. */
export interface HeadlessFlags {
  /** `--output-format`: plain text (the default), one JSON object at the end, or JSON lines as things happen. */
  readonly outputFormat: OutputFormat;
  /** `--include-partial-messages`: stream-json adds `stream_event` lines as the model's words arrive. */
  readonly includePartialMessages: boolean;
  /** `--mca-events`: stream-json adds mca's own event lines (`text`, `tool_start`, `tool_end`, `turn_end`, …). */
  readonly mcaEvents: boolean;
  /** `--output-schema <file.json>`, as given (read relative to the working directory). */
  readonly outputSchemaFile: string | undefined;
  /** `--permission-mode`, for stream-json's init line. */
  readonly permissionMode: string;
}

export const PIPE_OK_EXIT_CODE = 0;
export const PIPE_FAILED_EXIT_CODE = 1;
/** A prompt came and no model can answer it (no key), or a flag's file cannot be used: a usage error, as -p's. */
export const PIPE_NO_MODEL_EXIT_CODE = 2;

/**
 * Runs `lines` in `session`, attached to it while they run. An interrupt (the runtime's) stops the running line
 * and no further line runs. `ids` names stream-json's messages: a session answering in several runs gives each the same.
 */
export async function runPipeMode(session: Session, lines: AsyncIterable<string> | Iterable<string>, flags: HeadlessFlags, ids = messageIds(session.id)): Promise<number> {
  const { writeOut: out, writeErr: err, interrupt: signal, now } = session.runtime;
  const format = flags.outputFormat;
  const startedMs = now();
  let schema: OutputSchema | undefined;
  if (flags.outputSchemaFile !== undefined) {
    const loaded = await loadOutputSchema(flags.outputSchemaFile);
    if (loaded instanceof Error) {
      err(`mca: ${loaded.message}\n`);
      if (format !== "text") out(jsonLine(failedBeforeRun(loaded.message, session.id)));
      return PIPE_NO_MODEL_EXIT_CODE;
    }
    schema = loaded;
  }
  const collector = createJsonCollector(now);
  const render = rendererFor(format, session, flags, ids, collector.emit);
  /** The text of the model's latest message, and how the latest turn ended: what is printed, checked and retried. */
  let finalText = "";
  let lastEnd: string | null = null;
  const { agent } = session;
  const detach = session.attach({
    approve: createApproverWithoutTerminal((line) => err(`${line}\n`)),
    emit: (event) => {
      if (event.type === "message" && event.message.role === "assistant") finalText = messageText(event.message);
      if (event.type === "turn_end") lastEnd = event.reason;
      render(event);
    },
  });
  try {
    if (format === "stream-json") {
      const facts = { sessionId: session.id, cwd: session.projectDir, model: session.model.answering.name, tools: agent.tools.map((tool) => tool.name), servers: session.servers.statuses() };
      out(jsonLine(initLine({ ...facts, permissionMode: flags.permissionMode })));
    }
    /** Plain text prints each prompt's final message once its line is done; with a schema, only the run's last. */
    const printFinal = (): void => {
      if (format === "text" && finalText.trim() !== "") out(`${untrustedText(finalText.replace(/\s+$/u, ""))}\n`);
      finalText = "";
    };
    // In a JSON format stdout carries the JSON alone: what a slash command prints goes to stderr.
    const view = plainView((text) => (format === "text" ? out : err)(text.endsWith("\n") ? text : `${text}\n`), (text) => err(`${text}\n`));
    let failed = false;
    let refused = false;
    for await (const line of lines) {
      if (signal.aborted) break;
      const prompt = isPrompt(line);
      if (session.model.refusal !== null && prompt) {
        err(`mca: ${session.model.refusal}\n`);
        refused = true;
        break;
      }
      finalText = "";
      const outcome = await runLine(prompt && schema !== undefined ? `${line}${schemaInstruction(schema)}` : line, { session, view, signal });
      if (schema === undefined) printFinal();
      if (outcome === "exit") break;
      if (outcome === "failed") failed = true;
    }
    const structured = schema === undefined || lastEnd === null || signal.aborted ? undefined : await structuredOutput(schema, agent, () => finalText, () => lastEnd, signal);
    if (schema !== undefined) printFinal();
    if (format !== "text") {
      const facts = { sessionId: session.id, durationMs: Math.round(now() - startedMs), failed: failed || refused || signal.aborted };
      const result = collector.finish(structured === undefined ? facts : { ...facts, structured });
      out(format === "json" ? untrustedJson(result) : jsonLine(result));
    }
    if (signal.aborted) return INTERRUPTED_EXIT_CODE;
    if (refused) return PIPE_NO_MODEL_EXIT_CODE;
    return failed || structured?.kind === "invalid" ? PIPE_FAILED_EXIT_CODE : PIPE_OK_EXIT_CODE;
  } finally {
    detach();
  }
}

/** A line the model answers: not a slash command, not a `!command` of the person's. */
function isPrompt(line: string): boolean {
  const text = line.trim();
  return text !== "" && !isCommandLine(text);
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
function rendererFor(format: OutputFormat, session: Session, flags: HeadlessFlags, nextId: () => string, collect: (event: AgentEvent) => void): (event: AgentEvent) => void {
  const { writeOut, writeErr } = session.runtime;
  switch (format) {
    case "text": {
      // The model's words are printed whole once a line is done (its final message), never as they stream.
      const plain = createPlainRenderer({ out: writeOut, err: writeErr });
      return (event) => {
        if (event.type !== "text") plain(event);
      };
    }
    case "json":
      return collect;
    case "stream-json": {
      const model = (): string => session.model.answering.name;
      const write = createStreamJsonWriter({ sessionId: session.id, nextId, model, write: writeOut, partialMessages: flags.includePartialMessages, mcaEvents: flags.mcaEvents });
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
