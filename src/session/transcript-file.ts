// The session transcript on disk: one JSON line per entry in `<state folder>/sessions/<session-id>.jsonl`,
// appended synchronously as things happen so that a crash loses nothing, led by a line saying which
// project it belongs to and how the session ran; read back for --resume and `mca sessions` (session-list.ts).
import { appendFileSync, lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  IMAGE_MEDIA_TYPES,
  isRecord,
  type Redact,
  type AssistantMessage,
  type HistoryEntry,
  type ImageBlock,
  type ImageInfo,
  type Message,
  type TextBlock,
  type ToolImage,
  type ToolResultBlock,
  type ToolUseBlock,
  type TranscriptSink,
  type UserMessage,
} from "../kernel/index.js";
import { ensureStateFolder, PRIVATE_FILE_MODE, type ProjectState } from "./state-folder.js";

const SESSION_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const TRANSCRIPT_SUFFIX = ".jsonl";

export function sessionsDir(state: ProjectState): string {
  return join(state.dir, "sessions");
}

/** How a session was run: the chat, `-p`, pipe mode, or `mca call`. `--resume` alone continues only a chat. */
export type SessionMode = "chat" | "print" | "pipe" | "call";

/** The first line of a transcript: which session it is, how it ran, and when it started (ISO 8601). */
export interface SessionStart {
  /** The project's real path, as written by the session: a transcript is only taken for the project it names. */
  readonly project: string;
  readonly mode: SessionMode;
  readonly startedAt: string;
  /** The folder of its /undo snapshots: its own id, or the one of the session it resumed. */
  readonly snapshots: string;
}

const SESSION_MODES: readonly SessionMode[] = ["chat", "print", "pipe", "call"];

/**
 * Opens (creating its folder) the transcript of session `sessionId`: letters, digits, `.`, `_`, `-`,
 * not starting with a dot, so that it names a file inside the sessions folder and nothing else.
 * The file itself appears with the first entry, readable by the user only, led by the `session` line
 * (the project's real path, then `start`). Each line passes `redact` (the configured secrets) before it is written.
 */
export function openTranscript(state: ProjectState, sessionId: string, start: Omit<SessionStart, "project">, redact: Redact = (text) => text): TranscriptSink {
  if (!SESSION_ID.test(sessionId)) throw new Error(`invalid session id ${JSON.stringify(sessionId)}`);
  const file = transcriptPath(ensureStateFolder(state, "sessions"), sessionId);
  let lead = `${JSON.stringify({ type: "session", id: sessionId, project: state.projectDir, ...start })}\n`;
  return {
    append(entry) {
      // The marker has no character JSON escapes, so a redacted line is still the JSON of an entry.
      appendFileSync(file, `${lead}${redact(JSON.stringify(entry))}\n`, { mode: PRIVATE_FILE_MODE });
      lead = "";
    },
  };
}

/** The transcript file of `sessionId` in the sessions folder `dir`. */
export function transcriptPath(dir: string, sessionId: string): string {
  return join(dir, `${sessionId}${TRANSCRIPT_SUFFIX}`);
}

export function isSessionId(text: string): boolean {
  return SESSION_ID.test(text);
}

/** The ids of the transcripts in the project's state folder, newest (last written) first. */
export function sessionIdsNewestFirst(state: ProjectState): string[] {
  const dir = sessionsDir(state);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(TRANSCRIPT_SUFFIX) && isSessionId(name.slice(0, -TRANSCRIPT_SUFFIX.length)));
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return [];
    throw error;
  }
  return names
    .map((name) => ({ id: name.slice(0, -TRANSCRIPT_SUFFIX.length), modified: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.modified - a.modified || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .map((file) => file.id);
}

export interface TranscriptContents {
  /** Null when the first line is not a session line mca writes: such a file is nobody's session. */
  readonly start: SessionStart | null;
  readonly entries: readonly HistoryEntry[];
}

/**
 * What a transcript holds that --resume and `mca sessions` need. Lines that do not parse (a torn last
 * line after a crash) and entries of other kinds are passed over.
 */
export function readTranscript(file: string): TranscriptContents {
  // Only a regular file of the sessions folder is read: a symlink or a pipe there is no transcript of mca's.
  if (!lstatSync(file).isFile()) return { start: null, entries: [] };
  const [first = "", ...rest] = readFileSync(file, "utf8").split("\n");
  const start = parseSessionStart(parseLine(first));
  if (start === null) return { start, entries: [] };
  const entries: HistoryEntry[] = [];
  for (const line of rest) {
    const entry = parseHistoryEntry(parseLine(line));
    if (entry !== null) entries.push(entry);
  }
  return { start, entries };
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function parseSessionStart(value: unknown): SessionStart | null {
  if (!isRecord(value) || value.type !== "session" || typeof value.startedAt !== "string" || typeof value.project !== "string") return null;
  const mode = SESSION_MODES.find((known) => known === value.mode);
  if (mode === undefined || typeof value.snapshots !== "string" || !isSessionId(value.snapshots)) return null;
  return { project: value.project, mode, startedAt: value.startedAt, snapshots: value.snapshots };
}

// Reading a transcript line back: the entries that shape the message history, validated field by
// field (a transcript is a file, and files get edited, torn and truncated).

/** The entry, or null for any other kind of entry and for anything malformed. */
function parseHistoryEntry(value: unknown): HistoryEntry | null {
  if (!isRecord(value)) return null;
  switch (value.type) {
    case "clear":
      return { type: "clear" };
    case "message": {
      const message = parseMessage(value.message);
      return message === null ? null : { type: "message", message };
    }
    case "history": {
      const messages = parseAll(value.messages, parseMessage);
      return messages === null ? null : { type: "history", messages };
    }
    case "tools_loaded": {
      const names = Array.isArray(value.names) ? value.names.filter((name): name is string => typeof name === "string") : [];
      return names.length === 0 ? null : { type: "tools_loaded", names };
    }
    case "call_started":
      return typeof value.callId === "string" && typeof value.tool === "string" ? { type: "call_started", callId: value.callId, tool: value.tool } : null;
    case "tool_result": {
      const { callId, tool, isError, text, truncated } = value;
      if (typeof callId !== "string" || typeof tool !== "string" || typeof isError !== "boolean" || typeof text !== "string" || typeof truncated !== "boolean") return null;
      const images = readImages(value.images, parseImageInfo);
      return { type: "tool_result", callId, tool, isError, text, truncated, ...(images.kept.length === 0 ? {} : { images: images.kept }) };
    }
    default:
      return null;
  }
}

function parseMessage(value: unknown): Message | null {
  if (!isRecord(value)) return null;
  if (value.role === "user") {
    const content = parseAll(value.content, parseUserBlock);
    const message: UserMessage | null = content === null ? null : { role: "user", content };
    return message;
  }
  if (value.role === "assistant") {
    const content = parseAll(value.content, parseAssistantBlock);
    const message: AssistantMessage | null = content === null ? null : { role: "assistant", content };
    return message;
  }
  return null;
}

function parseUserBlock(value: unknown): TextBlock | ImageBlock | ToolResultBlock | null {
  if (!isRecord(value)) return null;
  if (value.type === "text") return parseText(value);
  if (value.type === "image") return parseAttachedImage(value.image);
  if (value.type !== "tool_result") return null;
  const { toolUseId, text, isError } = value;
  if (typeof toolUseId !== "string" || typeof text !== "string" || typeof isError !== "boolean") return null;
  const { kept, unreadable } = readImages(value.images, parseToolImage);
  const note = unreadable === 0 ? "" : `\n[${unreadable} of its images could not be read back from the transcript]`;
  return { type: "tool_result", toolUseId, text: `${text}${note}`, isError, ...(kept.length === 0 ? {} : { images: kept }) };
}

// A result's images: what could not be read back (a hand-edited file, data a secret's redaction changed)
// is left out and counted, so that the model is told rather than sent an image the API would refuse.

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function readImages<T>(value: unknown, parse: (item: unknown) => T | null): { readonly kept: T[]; readonly unreadable: number } {
  if (value === undefined) return { kept: [], unreadable: 0 };
  const items: unknown[] = Array.isArray(value) ? value : [value];
  const kept = items.flatMap((item) => {
    const image = parse(item);
    return image === null ? [] : [image];
  });
  return { kept, unreadable: items.length - kept.length };
}

function parseImageInfo(value: unknown): ImageInfo | null {
  if (!isRecord(value)) return null;
  const mediaType = IMAGE_MEDIA_TYPES.find((known) => known === value.mediaType);
  const { bytes, width, height } = value;
  const counts = [bytes, width, height].every((count) => typeof count === "number" && Number.isSafeInteger(count) && count > 0);
  if (mediaType === undefined || !counts || typeof bytes !== "number" || typeof width !== "number" || typeof height !== "number") return null;
  return { mediaType, bytes, width, height };
}

function parseToolImage(value: unknown): ToolImage | null {
  const info = parseImageInfo(value);
  if (info === null || !isRecord(value) || typeof value.data !== "string" || value.data.length % 4 !== 0 || !BASE64.test(value.data)) return null;
  return { ...info, data: value.data };
}

/** An image the user attached that no longer reads is said in words: the turn keeps its place in the history. */
function parseAttachedImage(value: unknown): ImageBlock | TextBlock {
  const image = parseToolImage(value);
  return image === null ? { type: "text", text: "[an attached image could not be read back from the transcript]" } : { type: "image", image };
}

function parseAssistantBlock(value: unknown): TextBlock | ToolUseBlock | null {
  if (!isRecord(value)) return null;
  if (value.type === "text") return parseText(value);
  if (value.type !== "tool_use") return null;
  const { id, name, input } = value;
  if (typeof id !== "string" || typeof name !== "string" || !isRecord(input)) return null;
  return { type: "tool_use", id, name, input };
}

function parseText(value: Record<string, unknown>): TextBlock | null {
  return typeof value.text === "string" ? { type: "text", text: value.text } : null;
}

/** Every item parsed, or null when the value is not an array or any item is malformed. */
function parseAll<T>(value: unknown, parse: (item: unknown) => T | null): T[] | null {
  if (!Array.isArray(value)) return null;
  const parsed: T[] = [];
  for (const item of value) {
    const one = parse(item);
    if (one === null) return null;
    parsed.push(one);
  }
  return parsed;
}

