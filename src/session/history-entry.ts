// Reading a transcript line back: the entries that shape the message history, validated field by
// field (a transcript is a file, and files get edited, torn and truncated).
import type { AssistantMessage, Message, TextBlock, ToolResultBlock, ToolUseBlock, UserMessage } from "../kernel/index.js";
import type { HistoryEntry } from "../kernel/index.js";

/** The entry, or null for any other kind of entry and for anything malformed. */
export function parseHistoryEntry(value: unknown): HistoryEntry | null {
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
    default:
      return null;
  }
}

export function parseMessage(value: unknown): Message | null {
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

function parseUserBlock(value: unknown): TextBlock | ToolResultBlock | null {
  if (!isRecord(value)) return null;
  if (value.type === "text") return parseText(value);
  if (value.type !== "tool_result") return null;
  const { toolUseId, text, isError } = value;
  if (typeof toolUseId !== "string" || typeof text !== "string" || typeof isError !== "boolean") return null;
  return { type: "tool_result", toolUseId, text, isError };
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
