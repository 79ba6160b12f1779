// The sessions of a project as a person picks among them: `mca sessions` lists them, `--resume` continues
// the newest chat (a one-shot -p or pipe run is never what "continue" means) or the one named by its id.
import { replayHistory, replayLoadedTools, type Message, type TextBlock } from "../kernel/index.js";
import type { ProjectState } from "./state-folder.js";
import { isSessionId, readTranscript, sessionIdsNewestFirst, sessionsDir, transcriptPath, type SessionMode, type SessionStart, type TranscriptContents } from "./transcript-file.js";

/** A first prompt is shown on one line, cut to this many characters. */
export const FIRST_PROMPT_CHARS = 80;

export interface SessionSummary {
  readonly id: string;
  /** ISO 8601. */
  readonly startedAt: string;
  readonly mode: SessionMode;
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
  /** The deferred tools it had loaded (tool search), sent again from the first request. */
  readonly loadedTools: readonly string[];
}

/** Every session of the project that holds a message, newest (last written) first. */
export function listSessions(state: ProjectState): SessionSummary[] {
  return sessionIdsNewestFirst(state).flatMap((id) => {
    const session = readSession(state, id);
    if (session === null) return [];
    const { start, entries } = session;
    const messages = replayHistory(entries);
    if (messages.length === 0) return [];
    const firstPrompt = entries.flatMap((entry) => (entry.type === "message" && entry.message.role === "user" ? textOf(entry.message.content) : [])).at(0);
    return [{ id, startedAt: start.startedAt, mode: start.mode, firstPrompt: firstPrompt === undefined ? null : oneLine(firstPrompt), messageCount: messages.length }];
  });
}

/**
 * The session `--resume` continues: the one named by `id`, or without one the newest chat session that
 * holds a message (null when there is none). An id that names no session of the project is an Error that
 * says where to look.
 */
export function findSessionToResume(state: ProjectState, id: string | undefined, anyMode = false): ResumedSession | null | Error {
  if (id !== undefined) {
    const session = isSessionId(id) && sessionIdsNewestFirst(state).includes(id) ? readSession(state, id) : null;
    if (session === null) return new Error(`no session ${JSON.stringify(id)} in this project; \`mca sessions\` lists them`);
    return { id, messages: replayHistory(session.entries), snapshots: session.start.snapshots, loadedTools: replayLoadedTools(session.entries) };
  }
  for (const candidate of sessionIdsNewestFirst(state)) {
    const session = readSession(state, candidate);
    // `--resume` goes on with a chat; `-c` with the newest conversation, a -p or pipe run's too (never `mca call`'s).
    if (session === null || (anyMode ? session.start.mode === "call" : session.start.mode !== "chat")) continue;
    const messages = replayHistory(session.entries);
    if (messages.length > 0) return { id: candidate, messages, snapshots: session.start.snapshots, loadedTools: replayLoadedTools(session.entries) };
  }
  return null;
}

/**
 * The transcript of session `id` in the project's state folder, or null when it is not a session mca wrote
 * for this project: its first line must name the project's real path (a transcript copied in from another
 * project, or made by hand, is nobody's session here).
 */
function readSession(state: ProjectState, id: string): { readonly start: SessionStart; readonly entries: TranscriptContents["entries"] } | null {
  const { start, entries } = readTranscript(transcriptPath(sessionsDir(state), id));
  return start !== null && start.project === state.projectDir ? { start, entries } : null;
}

function textOf(content: ReadonlyArray<{ readonly type: string }>): string[] {
  const texts = content.filter((block): block is TextBlock => block.type === "text").map((block) => block.text);
  return texts.length === 0 ? [] : [texts.join(" ")];
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= FIRST_PROMPT_CHARS ? flat : `${flat.slice(0, FIRST_PROMPT_CHARS - 1)}…`;
}
