// A server's log messages (`notifications/message`): read from whatever a server sends, kept at or above
// the level the config asks for (a server may ignore the level it was given), handed to whoever shows
// them, and the last few kept for the server's status.
import type { Redact } from "../kernel/index.js";
import { isJsonObject, type JsonObject } from "./jsonrpc.js";

/** RFC 5424 severities, least severe first (the spec's LoggingLevel). */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** What a server is asked for unless its config sets `logLevel`. */
export const DEFAULT_LOG_LEVEL: LogLevel = "info";
/** How many of a server's latest messages its status keeps. */
export const RECENT_LOG_COUNT = 5;
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
  /** The latest messages kept, oldest first, as `level logger: text`. */
  recent(): string[];
}

export function createServerLog(alias: string, minimum: LogLevel, redact: Redact, onLog?: (entry: ServerLogEntry) => void): ServerLog {
  const kept: string[] = [];
  return {
    take(params) {
      const message = readLogMessage(params);
      if (message === undefined || !atLeast(message.level, minimum)) return;
      // Redacted before the cut, so that no fragment of a secret survives it.
      const text = cut(redact(typeof message.data === "string" ? message.data : JSON.stringify(message.data)));
      const logger = message.logger === undefined ? undefined : cut(redact(message.logger));
      kept.push(`${message.level}${logger === undefined ? "" : ` ${logger}`}: ${text}`);
      if (kept.length > RECENT_LOG_COUNT) kept.shift();
      onLog?.({ alias, level: message.level, ...(logger === undefined ? {} : { logger }), text });
    },
    recent: () => [...kept],
  };
}
