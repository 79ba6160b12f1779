// The kernel's ports: the Model it asks, the events it reports, the snapshot store that makes a turn
// undoable and the transcript sink that records the session. src/model, src/session and the CLI
// implement or listen to them; the kernel itself never prints, reads a file or calls an API.
import type { ApprovalAnswer, Decision } from "./gate.js";
import type { JsonSchema, ToolArgs } from "./tool.js";

// The Model interface is the kernel's need; `src/model/` implements it (Anthropic, mock). Messages are
// the kernel's own neutral shape; each implementation maps them to its wire format.

export type TextBlock = { readonly type: "text"; readonly text: string };
export type ToolUseBlock = {
  readonly type: "tool_use";
  readonly id: string;
  readonly name: string;
  readonly input: ToolArgs;
};
export type ToolResultBlock = {
  readonly type: "tool_result";
  readonly toolUseId: string;
  readonly text: string;
  readonly isError: boolean;
};

export type UserMessage = { readonly role: "user"; readonly content: ReadonlyArray<TextBlock | ToolResultBlock> };
export type AssistantMessage = {
  readonly role: "assistant";
  readonly content: ReadonlyArray<TextBlock | ToolUseBlock>;
};
export type Message = UserMessage | AssistantMessage;

/** What the model is told about a tool: name, description, schema — nothing else. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

export type StopReason = "end_turn" | "tool_use" | "max_tokens" | "refusal" | "other";

export interface ModelRequest {
  readonly system: string;
  readonly messages: readonly Message[];
  readonly tools: readonly ToolSpec[];
  readonly signal: AbortSignal;
  /** Streamed text as it arrives; the final reply repeats it whole. */
  readonly onText: (delta: string) => void;
}

export interface ModelReply {
  readonly message: AssistantMessage;
  readonly stopReason: StopReason;
}

export interface Model {
  readonly name: string;
  /** Rejects only for failures the user must see (after the implementation's own retries). */
  complete(request: ModelRequest): Promise<ModelReply>;
}

// Everything the agent loop reports happens as one of these events; the CLI renders them.

export type AgentEvent =
  | { readonly type: "text"; readonly delta: string }
  | { readonly type: "tool_start"; readonly callId: string; readonly tool: string; readonly args: ToolArgs }
  | { readonly type: "tool_progress"; readonly callId: string; readonly message: string }
  | {
      readonly type: "tool_end";
      readonly callId: string;
      readonly tool: string;
      readonly isError: boolean;
      /** The text exactly as the model receives it, after truncation. */
      readonly text: string;
      readonly truncated: boolean;
    }
  | { readonly type: "approval"; readonly callId: string; readonly tool: string; readonly decision: Decision; readonly answer?: string }
  | { readonly type: "notice"; readonly message: string }
  | { readonly type: "error"; readonly message: string }
  | { readonly type: "turn_end"; readonly reason: "done" | "aborted" | "turn_limit" | "loop_limit" | "model_error" };

// What the kernel needs to make a turn undoable: file contents saved before a tool changes them, put
// back on /undo. src/session keeps them on disk; tests pass a map.

export interface SnapshotStore {
  /**
   * Saves the current content of `path` (absolute), or the fact that it does not exist, as it was
   * before `turn` first changed it. Saving a path again in the same turn keeps the first copy.
   * Rejects when the copy cannot be made; the kernel then does not run the change.
   */
  save(turn: number, path: string): Promise<void>;
  /**
   * Puts every file saved for `turn` back as it was (rewriting changed files, deleting created ones),
   * forgets the turn, and returns the restored paths in the order they were saved.
   */
  restore(turn: number): Promise<string[]>;
}

// The session record, written as things happen; src/session writes it as JSONL.

export type TranscriptEntry =
  /** A user or assistant message as it entered the history. */
  | { readonly type: "message"; readonly message: Message }
  /** The history a resumed session started from, so that each file can be resumed on its own. */
  | { readonly type: "history"; readonly messages: readonly Message[] }
  | { readonly type: "clear" }
  | { readonly type: "tool_call"; readonly callId: string; readonly tool: string; readonly args: ToolArgs }
  /** Written just before the tool's run begins (approved, snapshots taken): on resume, a call with this and no result may have done anything. */
  | { readonly type: "call_started"; readonly callId: string; readonly tool: string }
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

/** The entries that shape the message history (the last two close the calls of a session that died mid-call). */
export type HistoryEntry = Extract<TranscriptEntry, { readonly type: "message" | "history" | "clear" | "call_started" | "tool_result" }>;
