// The session transcript on disk: one JSON line per entry in `<project>/.mca/sessions/<session-id>.jsonl`,
// appended synchronously as things happen so that a crash loses nothing; read back for --resume.
import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../kernel/index.js";
import { replayHistory, type HistoryEntry, type TranscriptSink } from "../kernel/index.js";
import { parseHistoryEntry } from "./history-entry.js";

const SESSION_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const TRANSCRIPT_SUFFIX = ".jsonl";

export function sessionsDir(projectDir: string): string {
  return join(projectDir, ".mca", "sessions");
}

/**
 * Opens (creating its folder) the transcript of session `sessionId`: letters, digits, `.`, `_`, `-`,
 * not starting with a dot, so that it names a file inside the sessions folder and nothing else.
 * The file itself appears with the first entry.
 */
export function openTranscript(projectDir: string, sessionId: string): TranscriptSink {
  if (!SESSION_ID.test(sessionId)) throw new Error(`invalid session id ${JSON.stringify(sessionId)}`);
  const dir = sessionsDir(projectDir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${sessionId}${TRANSCRIPT_SUFFIX}`);
  return {
    append(entry) {
      appendFileSync(file, `${JSON.stringify(entry)}\n`);
    },
  };
}

/**
 * The message history of the newest session (by modification time) that has any, for --resume; null
 * when there is none. Sessions without messages (opened and left) are passed over, so that the
 * transcript of the session doing the resuming is never what it resumes. Lines that do not parse (a
 * torn last line after a crash) are ignored.
 */
export function loadLastSession(projectDir: string): Message[] | null {
  for (const file of newestFirst(sessionsDir(projectDir))) {
    const entries = readHistoryEntries(file);
    if (entries.length > 0) return replayHistory(entries);
  }
  return null;
}

function newestFirst(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(TRANSCRIPT_SUFFIX));
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return [];
    throw error;
  }
  return names
    .map((name) => ({ path: join(dir, name), modified: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.modified - a.modified || (a.path < b.path ? 1 : a.path > b.path ? -1 : 0))
    .map((file) => file.path);
}

function readHistoryEntries(file: string): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const entry = parseHistoryEntry(value);
    if (entry !== null) entries.push(entry);
  }
  return entries;
}
