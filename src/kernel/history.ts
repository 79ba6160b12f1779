// The conversation history kept valid for the model, and its one owner: user and assistant messages
// alternate, and every tool_use is answered by a tool_result in the next message. A resumed session's
// history is rebuilt from the transcript by the same rules.
import type { HistoryEntry, Message, ToolResultBlock } from "./ports.js";

/**
 * Appends one message. A user message that follows a user message (a new prompt after an aborted or
 * failed turn, after tool results at a limit) is merged into it, results first, so roles still alternate.
 */
export function appendMessage(messages: readonly Message[], message: Message): Message[] {
  const last = messages.at(-1);
  if (last?.role === "user" && message.role === "user") {
    return [...messages.slice(0, -1), { role: "user", content: [...last.content, ...message.content] }];
  }
  return [...messages, message];
}

/**
 * Answers the tool_use blocks of a final assistant message that never got results (a session that
 * crashed mid-call), so that a resumed history is one the model accepts.
 */
export function closeOpenToolUses(messages: readonly Message[], text: string): Message[] {
  const last = messages.at(-1);
  if (last?.role !== "assistant") return [...messages];
  const results: ToolResultBlock[] = [];
  for (const block of last.content) {
    if (block.type === "tool_use") results.push({ type: "tool_result", toolUseId: block.id, text, isError: true });
  }
  return results.length === 0 ? [...messages] : [...messages, { role: "user", content: results }];
}

/** The history at the end of a transcript, replaying messages by the same rule the agent used. */
export function replayHistory(entries: Iterable<HistoryEntry>): Message[] {
  let messages: Message[] = [];
  for (const entry of entries) {
    switch (entry.type) {
      case "message":
        messages = appendMessage(messages, entry.message);
        break;
      case "history":
        messages = [...entry.messages];
        break;
      case "clear":
        messages = [];
        break;
      default: {
        const unknown: never = entry;
        throw new Error(`unknown history entry ${JSON.stringify(unknown)}`);
      }
    }
  }
  return messages;
}
