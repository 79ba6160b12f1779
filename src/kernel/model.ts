// The Model interface is the kernel's need; `src/model/` implements it (Anthropic, mock).
// Messages are the kernel's own neutral shape; each implementation maps them to its wire format.
import type { JsonSchema, ToolArgs } from "./tool.js";

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
