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

/** What a tool_use that never got its result is answered with. */
export type OpenCallAnswer = (toolUseId: string) => { readonly text: string; readonly isError: boolean };

/**
 * Answers the tool_use blocks of a final assistant message that never got results (a session that
 * crashed mid-call), so that a resumed history is one the model accepts.
 */
export function closeOpenToolUses(messages: readonly Message[], answer: OpenCallAnswer): Message[] {
  const last = messages.at(-1);
  if (last?.role !== "assistant") return [...messages];
  const results: ToolResultBlock[] = [];
  for (const block of last.content) {
    if (block.type === "tool_use") results.push({ type: "tool_result", toolUseId: block.id, ...answer(block.id) });
  }
  return results.length === 0 ? [...messages] : [...messages, { role: "user", content: results }];
}

/**
 * For a call whose run began and whose session ended before it returned: the model must not take it for
 * a call that never happened and blindly run it again.
 */
export const STARTED_OUTCOME_UNKNOWN_TEXT =
  "Started, outcome unknown (the session ended while it ran): check what it did before running it again.";
export const NEVER_STARTED_TEXT = "Not run: the session ended before this call finished.";

/**
 * A result recorded but never sent (the session ended first) is rebuilt from the transcript's index of
 * it, which keeps no image data: the model is told its images are gone rather than shown less than it was.
 */
function withDroppedImages(text: string, count: number): string {
  if (count === 0) return text;
  return `${text}\n[${count === 1 ? "its image was" : `its ${count} images were`} not kept: the session ended before the result was sent]`;
}

/**
 * The history at the end of a transcript, replaying messages by the same rule the agent used. A last
 * reply whose calls did not all come back (the session died mid-call) is closed from what the transcript
 * knows of each call: its recorded result, "started, outcome unknown", or "not run".
 */
export function replayHistory(entries: Iterable<HistoryEntry>): Message[] {
  let messages: Message[] = [];
  // The calls of the latest assistant message only: ids are unique within one reply, not across sessions.
  let results = new Map<string, { readonly text: string; readonly isError: boolean }>();
  let started = new Set<string>();
  const forgetCalls = (): void => {
    results = new Map();
    started = new Set();
  };
  for (const entry of entries) {
    switch (entry.type) {
      case "message":
        messages = appendMessage(messages, entry.message);
        if (entry.message.role === "assistant") forgetCalls();
        break;
      case "history":
        messages = [...entry.messages];
        forgetCalls();
        break;
      case "clear":
        messages = [];
        forgetCalls();
        break;
      case "call_started":
        started.add(entry.callId);
        break;
      case "tool_result":
        results.set(entry.callId, { text: withDroppedImages(entry.text, entry.images?.length ?? 0), isError: entry.isError });
        break;
      case "tools_loaded":
        break;
      default: {
        const unknown: never = entry;
        throw new Error(`unknown history entry ${JSON.stringify(unknown)}`);
      }
    }
  }
  return closeOpenToolUses(messages, (id) =>
    results.get(id) ?? { text: started.has(id) ? STARTED_OUTCOME_UNKNOWN_TEXT : NEVER_STARTED_TEXT, isError: true },
  );
}
