// The sessions of a project as a person picks among them: `mca sessions` lists them, `--resume` continues
// the newest chat (a one-shot -p or pipe run is never what "continue" means) or the one named by its id.
import { replayHistory, type Message, type TextBlock } from "../kernel/index.js";
import { isSessionId, readTranscript, sessionIdsNewestFirst, sessionsDir, transcriptPath, type SessionMode, type TranscriptContents } from "./transcript-file.js";

/** A first prompt is shown on one line, cut to this many characters. */
export const FIRST_PROMPT_CHARS = 80;

export interface SessionSummary {
  readonly id: string;
  /** ISO 8601; null for a transcript written before sessions recorded their start. */
  readonly startedAt: string | null;
  readonly mode: SessionMode | null;
  /** The session's own first prompt, on one line and cut to FIRST_PROMPT_CHARS; null when it has none. */
  readonly firstPrompt: string | null;
  /** Messages in its history at the end (a resumed session counts what it resumed). */
  readonly messageCount: number;
}

export interface ResumedSession {
  readonly id: string;
  readonly messages: readonly Message[];
  /** The folder of its /undo snapshots, which the resuming session goes on using. */
  readonly snapshots: string;
}

/** Every session of the project that holds a message, newest (last written) first. */
export function listSessions(projectDir: string): SessionSummary[] {
  return sessionIdsNewestFirst(projectDir).flatMap((id) => {
    const { start, entries } = readSession(projectDir, id);
    const messages = replayHistory(entries);
    if (messages.length === 0) return [];
    const firstPrompt = entries.flatMap((entry) => (entry.type === "message" && entry.message.role === "user" ? textOf(entry.message.content) : [])).at(0);
    return [{ id, startedAt: start?.startedAt ?? null, mode: start?.mode ?? null, firstPrompt: firstPrompt === undefined ? null : oneLine(firstPrompt), messageCount: messages.length }];
  });
}

/**
 * The session `--resume` continues: the one named by `id`, or without one the newest chat session that
 * holds a message (null when there is none). An id that names no session of the project is an Error that
 * says where to look.
 */
export function findSessionToResume(projectDir: string, id: string | undefined): ResumedSession | null | Error {
  if (id !== undefined) {
    const known = isSessionId(id) && sessionIdsNewestFirst(projectDir).includes(id);
    if (!known) return new Error(`no session ${JSON.stringify(id)} in this project; \`mca sessions\` lists them`);
    const { start, entries } = readSession(projectDir, id);
    return { id, messages: replayHistory(entries), snapshots: start?.snapshots ?? id };
  }
  for (const candidate of sessionIdsNewestFirst(projectDir)) {
    const { start, entries } = readSession(projectDir, candidate);
    if (start?.mode !== "chat") continue;
    const messages = replayHistory(entries);
    if (messages.length > 0) return { id: candidate, messages, snapshots: start.snapshots ?? candidate };
  }
  return null;
}

function readSession(projectDir: string, id: string): TranscriptContents {
  return readTranscript(transcriptPath(sessionsDir(projectDir), id));
}

function textOf(content: ReadonlyArray<{ readonly type: string }>): string[] {
  const texts = content.filter((block): block is TextBlock => block.type === "text").map((block) => block.text);
  return texts.length === 0 ? [] : [texts.join(" ")];
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= FIRST_PROMPT_CHARS ? flat : `${flat.slice(0, FIRST_PROMPT_CHARS - 1)}…`;
}
