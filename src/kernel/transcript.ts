// The session record, written as things happen: what the kernel hands to its TranscriptSink, and how
// a message history is rebuilt from it for --resume. src/session/transcript-file.ts writes it as JSONL.
import type { ApprovalAnswer, Decision } from "./decision.js";
import { appendMessage } from "./history.js";
import type { Message } from "./model.js";
import type { ToolArgs } from "./tool.js";

export type TranscriptEntry =
  /** A user or assistant message as it entered the history. */
  | { readonly type: "message"; readonly message: Message }
  /** The history a resumed session started from, so that each file can be resumed on its own. */
  | { readonly type: "history"; readonly messages: readonly Message[] }
  | { readonly type: "clear" }
  | { readonly type: "tool_call"; readonly callId: string; readonly tool: string; readonly args: ToolArgs }
  | {
      readonly type: "decision";
      readonly callId: string;
      readonly tool: string;
      readonly decision: Decision;
      readonly answer?: ApprovalAnswer;
    }
  | {
      readonly type: "tool_result";
      readonly callId: string;
      readonly tool: string;
      readonly isError: boolean;
      readonly text: string;
      readonly truncated: boolean;
    }
  | { readonly type: "notice"; readonly message: string }
  | { readonly type: "error"; readonly message: string };

export interface TranscriptSink {
  /** Records one entry durably before returning; may throw (the kernel reports it once and goes on). */
  append(entry: TranscriptEntry): void;
}

/** The entries that shape the message history. */
export type HistoryEntry = Extract<TranscriptEntry, { readonly type: "message" | "history" | "clear" }>;

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
