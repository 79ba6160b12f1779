// The kernel's ports: the Model it asks, the events it reports, the snapshot store that makes a turn
// undoable and the transcript sink that records the session. src/model, src/session and the CLI
// implement or listen to them; the kernel itself never prints, reads a file or calls an API.
import type { ApprovalAnswer, Decision } from "./gate.js";
import type { ImageInfo, JsonSchema, ToolArgs, ToolImage } from "./tool.js";

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
  /** Sent to the model after the text; absent when the result has none. */
  readonly images?: readonly ToolImage[];
};

/**
 * An image the user's turn carries (a resource attached with `@alias:uri`), sent after the prompt's text,
 * which keeps a line where it stands. Recorded whole, like a result's images, so that --resume sends it again.
 */
export type ImageBlock = { readonly type: "image"; readonly image: ToolImage };

export type UserMessage = { readonly role: "user"; readonly content: ReadonlyArray<TextBlock | ImageBlock | ToolResultBlock> };
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
  /** Said while the model waits to try again (a rate limit, an overload): shown to the user, never to the model. */
  readonly onRetry?: (message: string) => void;
  /**
   * The tokens of an attempt that did not become the reply — one retried, broken mid-stream or interrupted —
   * as far as the API reported them: they are billed all the same. The reply's own are in `ModelReply.usage`.
   */
  readonly onSpentUsage?: (usage: Usage) => void;
}

export interface ModelReply {
  readonly message: AssistantMessage;
  readonly stopReason: StopReason;
  /** What the request cost in tokens, when the model reports it (the offline models do not). */
  readonly usage?: Usage;
}

/** Tokens of one model request: input not from the cache, cache reads and writes, and output. */
export interface Usage {
  readonly inputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly outputTokens: number;
}

/** What a token count is asked for: a request as it would be sent. */
export type TokenCountRequest = Pick<ModelRequest, "system" | "messages" | "tools" | "signal">;

export interface Model {
  readonly name: string;
  /** Rejects only for failures the user must see (after the implementation's own retries). */
  complete(request: ModelRequest): Promise<ModelReply>;
  /** The input tokens the API counts for such a request (`/context`); absent where there is no API to ask. */
  countTokens?(request: TokenCountRequest): Promise<number>;
}

// Everything the agent loop reports happens as one of these events; the CLI renders them.

export type AgentEvent =
  | { readonly type: "text"; readonly delta: string }
  /**
   * A message as it entered the history: the user's prompt, a batch of tool results, or the model's reply —
   * which names its model, how it stopped (absent when it was interrupted) and its tokens (when reported).
   */
  | { readonly type: "message"; readonly message: Message; readonly model?: string; readonly stopReason?: StopReason; readonly usage?: Usage }
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
      /** Where the whole text was kept when it was cut (see SpillStore); absent when it was not cut, or could not be kept. */
      readonly spill?: string;
      /** The images the model receives with it (their data stays out of events); absent when none. */
      readonly images?: readonly ImageInfo[];
    }
  | { readonly type: "approval"; readonly callId: string; readonly tool: string; readonly decision: Decision; readonly answer?: string }
  | { readonly type: "notice"; readonly message: string }
  /** After each model request that reported its tokens: for the cost line, never for the model. */
  | { readonly type: "usage"; readonly model: string; readonly usage: Usage }
  | { readonly type: "error"; readonly message: string }
  | { readonly type: "turn_end"; readonly reason: "done" | "aborted" | "turn_limit" | "budget_limit" | "loop_limit" | "model_error" };

// What the kernel needs to make a turn undoable: file contents saved before a tool changes them, what
// each file held when the turn ended, and what the turn did that cannot be undone. src/session keeps them
// on disk, per session (a resumed session goes on with the one it resumed); tests pass a map.

/** What a turn did that /undo cannot take back: a command's effects, or a remote tool's. */
export interface NotUndoable {
  readonly kind: "command" | "remote";
  readonly tool: string;
}

/** One undone turn: what happened to each file it changed, in the order it first changed them. */
export interface TurnUndo {
  /** Put back to their content before the turn. */
  readonly restored: readonly string[];
  /** Created by the turn, and deleted. */
  readonly removed: readonly string[];
  /** Not touched, and why: most often, the file changed after the turn ended and that work is kept. */
  readonly leftAlone: ReadonlyArray<{ readonly path: string; readonly reason: string }>;
  readonly notUndoable: readonly NotUndoable[];
  /**
   * For a turn that ran commands: whether the project's tree was checkpointed around them (what they
   * changed in the files the checkpoint sees is then in the lists above), or why not; null when it ran none.
   */
  readonly commandCheckpoint: { readonly taken: true } | { readonly taken: false; readonly why: string } | null;
}

export interface SnapshotStore {
  /**
   * Saves the current content of `path` (absolute), or the fact that it does not exist, as it was
   * before `turn` first changed it. Saving a path again in the same turn keeps the first copy.
   * Rejects when the copy cannot be made; the kernel then does not run the change.
   */
  save(turn: number, path: string): Promise<void>;
  /** Records something `turn` did that undo cannot take back (each kind and tool once). */
  note(turn: number, what: NotUndoable): Promise<void>;
  /** At the end of `turn`: records what each file it saved holds now, so undo can tell later changes. */
  seal(turn: number): Promise<void>;
  /**
   * Undoes the latest turn that saved a file or noted something, restoring only files that still hold
   * what the turn left, and forgets it; null when there is none.
   */
  undoLatest(): Promise<TurnUndo | null>;
}

/**
 * Where a tool result longer than the budget is kept whole, so that nothing is out of reach: the model reads
 * the rest from it (read_file, with offsets) and /last shows all of it. src/session keeps it with the session.
 */
export interface SpillStore {
  /** Keeps `text` whole for the call `callId`; resolves to the absolute path it can be read at, rejects when it cannot be kept. */
  spill(callId: string, text: string): Promise<string>;
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
      /** What the result's images were (their data is in the message entry that follows); absent when none. */
      readonly images?: readonly ImageInfo[];
    }
  | { readonly type: "notice"; readonly message: string }
  | { readonly type: "error"; readonly message: string }
  /** Deferred remote tools whose definitions are sent from now on (found by tool_search, or called by name); --resume sends them again. */
  | { readonly type: "tools_loaded"; readonly names: readonly string[] };

export interface TranscriptSink {
  /** Records one entry durably before returning; may throw (the kernel reports it once and goes on). */
  append(entry: TranscriptEntry): void;
}

/**
 * The entries that shape what a resumed session sends: the message history (call_started and tool_result
 * close the calls of a session that died mid-call) and the tools loaded.
 */
export type HistoryEntry = Extract<TranscriptEntry, { readonly type: "message" | "history" | "clear" | "call_started" | "tool_result" | "tools_loaded" }>;
