// A `sampling/createMessage` request mapped onto the session's Model, and its reply mapped back to a
// CreateMessageResult `{ role, content, model, stopReason }` (spec §3). mca samples text only: a message
// holding an image, audio or tool blocks is refused rather than silently shortened.
import type { Message, ModelReply, StopReason, TextBlock } from "../kernel/index.js";
import { isJsonObject, type JsonObject } from "../mcp/index.js";

export interface SamplingPrompt {
  readonly system: string;
  readonly messages: readonly Message[];
}

/** Stop reasons as MCP names them; `other` has no MCP name and is left out. */
const MCP_STOP_REASON: Readonly<Record<StopReason, string | undefined>> = {
  end_turn: "endTurn",
  max_tokens: "maxTokens",
  tool_use: "toolUse",
  refusal: "refusal",
  other: undefined,
};

function textBlocks(content: unknown, where: string): TextBlock[] | Error {
  const blocks = Array.isArray(content) ? content : [content];
  const texts: TextBlock[] = [];
  for (const block of blocks) {
    if (!isJsonObject(block)) return new Error(`${where}: a content block is not an object`);
    if (block.type !== "text") return new Error(`${where} holds ${JSON.stringify(block.type)} content, and mca samples text only`);
    if (typeof block.text !== "string") return new Error(`${where}: a text block has no text`);
    texts.push({ type: "text", text: block.text });
  }
  return texts;
}

/** The request's system prompt and messages in the kernel's shape, or an Error naming the message that does not fit. */
export function samplingPrompt(params: JsonObject, messages: readonly JsonObject[]): SamplingPrompt | Error {
  const mapped: Message[] = [];
  for (const [index, message] of messages.entries()) {
    const where = `message ${index + 1}`;
    const content = textBlocks(message.content, where);
    if (content instanceof Error) return content;
    if (message.role === "user") mapped.push({ role: "user", content });
    else if (message.role === "assistant") mapped.push({ role: "assistant", content });
    else return new Error(`${where} has the role ${JSON.stringify(message.role)}`);
  }
  return { system: typeof params.systemPrompt === "string" ? params.systemPrompt : "", messages: mapped };
}

/** The text of a message, its blocks joined. */
export function messageText(message: Message): string {
  const parts: string[] = [];
  for (const block of message.content) if (block.type === "text") parts.push(block.text);
  return parts.join("");
}

/** The CreateMessageResult for `reply` from the model called `model` (no `resultType`: it goes in inputResponses). */
export function createMessageResult(reply: ModelReply, model: string): JsonObject {
  const stopReason = MCP_STOP_REASON[reply.stopReason];
  return {
    role: "assistant",
    content: { type: "text", text: messageText(reply.message) },
    model,
    ...(stopReason === undefined ? {} : { stopReason }),
  };
}
