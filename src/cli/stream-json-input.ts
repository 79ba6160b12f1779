// `--input-format stream-json`, as agent SDKs drive `claude -p`: each line of stdin is a user message
// (`{"type":"user","message":{"role":"user","content":"…" | [{"type":"text","text":"…"}]}}`), answered in
// turn in one session. Each answer is one run of pipe mode over the same agent, so it ends with its own
// result line, and the conversation goes on across messages.
import { describeError, isRecord } from "../kernel/index.js";
import { failedBeforeRun, jsonLine } from "./headless-output.js";
import { PIPE_FAILED_EXIT_CODE, PIPE_NO_MODEL_EXIT_CODE, PIPE_OK_EXIT_CODE, runPipeMode, type HeadlessFlags } from "./pipe-mode.js";
import { INTERRUPTED_EXIT_CODE } from "./runtime.js";
import { messageIds } from "./stream-json.js";
import type { Session } from "./session-seam.js";

/** A longer message line is refused: it is more than a model's whole window. */
export const MAX_MESSAGE_LINE_CHARS = 4 * 1024 * 1024;

/** The prompt of one stdin line, or why the line is no user message mca can answer. */
export function userMessageText(line: string): string | Error {
  if (line.length > MAX_MESSAGE_LINE_CHARS) return new Error(`a line of over ${MAX_MESSAGE_LINE_CHARS} characters`);
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return new Error(`not JSON (${describeError(error)})`);
  }
  if (!isRecord(value) || value.type !== "user") return new Error('expected a user message: {"type":"user","message":{"role":"user","content":…}} (control requests are not supported)');
  const message = value.message;
  if (!isRecord(message) || message.role !== "user") return new Error('"message" must be {"role":"user","content":…}');
  const content = message.content;
  if (typeof content === "string") return content.trim() === "" ? new Error('"message.content" is empty') : content;
  if (!Array.isArray(content)) return new Error('"message.content" must be a string or an array of content blocks');
  const texts: string[] = [];
  for (const [index, block] of content.entries()) {
    if (!isRecord(block) || block.type !== "text" || typeof block.text !== "string") {
      const type = isRecord(block) && typeof block.type === "string" ? `a ${JSON.stringify(block.type)} block` : "not a content block";
      return new Error(`"message.content[${index}]" is ${type}: mca reads text blocks only`);
    }
    texts.push(block.text);
  }
  const text = texts.join("\n");
  return text.trim() === "" ? new Error('"message.content" has no text') : text;
}

/**
 * Answers each user message of `lines` in turn, one pipe-mode run each in the one session, so that every
 * answer has its result line and the conversation goes on. A line that is no user message gets a result line
 * with `is_error` and its reason, so a driver waiting for one answer a message never hangs; the run then exits
 * 1. An interrupt, or no model to answer, ends the session at once.
 */
export async function runStreamJsonInput(session: Session, lines: AsyncIterable<string>, flags: HeadlessFlags): Promise<number> {
  const { writeOut, writeErr, interrupt } = session.runtime;
  const ids = messageIds(session.id);
  let code = PIPE_OK_EXIT_CODE;
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (interrupt.aborted) return INTERRUPTED_EXIT_CODE;
    if (line.trim() === "") continue;
    const prompt = userMessageText(line);
    if (prompt instanceof Error) {
      const reason = `stdin line ${lineNumber}: ${prompt.message}`;
      writeErr(`mca: ${reason}\n`);
      writeOut(jsonLine(failedBeforeRun(reason, session.id)));
      code = PIPE_FAILED_EXIT_CODE;
      continue;
    }
    const answered = await runPipeMode(session, [prompt], flags, ids);
    if (answered === INTERRUPTED_EXIT_CODE || answered === PIPE_NO_MODEL_EXIT_CODE) return answered;
    if (answered !== PIPE_OK_EXIT_CODE) code = PIPE_FAILED_EXIT_CODE;
  }
  return interrupt.aborted ? INTERRUPTED_EXIT_CODE : code;
}

