// A server's log messages (`notifications/message`): read from whatever a server sends, kept at or above
// the level the config asks for (a server may ignore the level it was given), handed to whoever shows
// them, and the latest SERVER_LOG_KEPT kept for `/mcp logs <alias>` (the last few also in its status).
import type { Redact } from "../kernel/index.js";
import { isJsonObject, type JsonObject } from "./jsonrpc.js";

/** RFC 5424 severities, least severe first (the spec's LoggingLevel). */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** What a server is asked for unless its config sets `logLevel`. */
export const DEFAULT_LOG_LEVEL: LogLevel = "info";
/** How many of a server's latest messages its status keeps. */
export const RECENT_LOG_COUNT = 5;
/** How many of a server's latest messages are kept for `/mcp logs <alias>`: the oldest goes when one more comes. */
export const SERVER_LOG_KEPT = 200;
/**
 * The least severe level shown as it comes (without --verbose): a warning says something is wrong; info,
 * notice and debug are the server's own chatter, kept out of the conversation and read with /mcp logs.
 */
const LOG_SHOWN_FROM: LogLevel = "warning";
/** A message longer than this is cut where it is kept and handed on: a log line, not a document. */
const MAX_LOG_TEXT_CHARS = 500;

export interface ServerLogEntry {
  readonly alias: string;
  readonly level: LogLevel;
  readonly logger?: string;
  /** The message's `data` as text (JSON when it is not a string), redacted and cut. */
  readonly text: string;
}

export function isLogLevel(value: unknown): value is LogLevel {
  return LOG_LEVELS.some((level) => level === value);
}

function atLeast(level: LogLevel, minimum: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(minimum);
}

/** Whether a message is shown as it comes: from LOG_SHOWN_FROM on, or every one with `--verbose`. */
export function isShownAsItComes(level: LogLevel, verbose: boolean): boolean {
  return verbose || atLeast(level, LOG_SHOWN_FROM);
}

/** One line, `level logger: text`: a message's own line breaks become spaces. */
export function formatLogEntry(entry: Omit<ServerLogEntry, "alias">): string {
  return `${entry.level}${entry.logger === undefined ? "" : ` ${entry.logger}`}: ${entry.text}`.replace(/\s*[\r\n]+\s*/gu, " ").trimEnd();
}

function cut(text: string): string {
  return text.length > MAX_LOG_TEXT_CHARS ? `${text.slice(0, MAX_LOG_TEXT_CHARS)}…` : text;
}

/** `{ level, logger?, data }`, or undefined for params that are no log message. */
export function readLogMessage(params: JsonObject | undefined): { readonly level: LogLevel; readonly logger?: string; readonly data: unknown } | undefined {
  if (!isJsonObject(params) || !isLogLevel(params.level) || !("data" in params)) return undefined;
  const { level, logger, data } = params;
  return typeof logger === "string" ? { level, logger, data } : { level, data };
}

export interface ServerLog {
  /** Takes the params of one `notifications/message`; below the minimum level, or malformed, it is dropped. */
  take(params: JsonObject | undefined): void;
  /** The latest RECENT_LOG_COUNT messages, oldest first, as `level logger: text`. */
  recent(): string[];
  /** The latest SERVER_LOG_KEPT messages, oldest first, as `level logger: text`. */
  kept(): string[];
}

export function createServerLog(alias: string, minimum: LogLevel, redact: Redact, onLog?: (entry: ServerLogEntry) => void): ServerLog {
  const lines: string[] = [];
  return {
    take(params) {
      const message = readLogMessage(params);
      if (message === undefined || !atLeast(message.level, minimum)) return;
      // Redacted before the cut, so that no fragment of a secret survives it.
      const text = cut(redact(typeof message.data === "string" ? message.data : JSON.stringify(message.data)));
      const logger = message.logger === undefined ? undefined : cut(redact(message.logger));
      const entry = { alias, level: message.level, ...(logger === undefined ? {} : { logger }), text };
      lines.push(formatLogEntry(entry));
      if (lines.length > SERVER_LOG_KEPT) lines.shift();
      onLog?.(entry);
    },
    recent: () => lines.slice(-RECENT_LOG_COUNT),
    kept: () => [...lines],
  };
}
