// Maps the kernel's neutral conversation to the Messages API's request pieces: system prompt and tool
// definitions marked for prompt caching, tool results paired with the tool_use that asked for them.
// Type-only imports: the SDK itself is loaded lazily by anthropic-model.ts.
import type { Anthropic } from "@anthropic-ai/sdk";
import type { AssistantMessage, Message, ToolResultBlock, ToolSpec } from "../kernel/index.js";

const EPHEMERAL_CACHE: Anthropic.CacheControlEphemeral = { type: "ephemeral" };
/** What the API receives for a tool_use whose result never came (the turn was aborted mid-call). */
export const MISSING_RESULT_TEXT = "(no result: the call did not complete)";

/** The system prompt as one cached block; an empty prompt sends none. */
export function toApiSystem(system: string): Anthropic.TextBlockParam[] {
  return system === "" ? [] : [{ type: "text", text: system, cache_control: EPHEMERAL_CACHE }];
}

/** Tool definitions; the last carries the cache breakpoint, which caches the whole tool list. */
export function toApiTools(tools: readonly ToolSpec[]): Anthropic.Tool[] {
  return tools.map((tool, index) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { ...tool.inputSchema, type: "object" },
    ...(index === tools.length - 1 ? { cache_control: EPHEMERAL_CACHE } : {}),
  }));
}

/**
 * The API requires every tool_use to be answered by a tool_result with its id at the start of the next
 * user message, and rejects results that answer nothing. So each user message following an assistant
 * message is rebuilt from the assistant's tool_use ids: results in call order (missing ones filled in
 * as errors), then the user's text; results answering no call are dropped.
 */
export function toApiMessages(messages: readonly Message[]): Anthropic.MessageParam[] {
  const out: Anthropic.MessageParam[] = [];
  let pendingCalls: readonly string[] = [];
  for (const message of messages) {
    if (message.role === "assistant") {
      if (pendingCalls.length > 0) out.push({ role: "user", content: answer(pendingCalls, []) });
      const content = assistantContent(message);
      pendingCalls = message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : []));
      if (content.length > 0) out.push({ role: "assistant", content });
      continue;
    }
    const results = message.content.flatMap((block) => (block.type === "tool_result" ? [block] : []));
    const text = message.content.flatMap((block): Anthropic.TextBlockParam[] =>
      block.type === "text" && block.text !== "" ? [{ type: "text", text: block.text }] : [],
    );
    const content = [...answer(pendingCalls, results), ...text];
    pendingCalls = [];
    if (content.length > 0) out.push({ role: "user", content });
  }
  if (pendingCalls.length > 0) out.push({ role: "user", content: answer(pendingCalls, []) });
  return out;
}

function assistantContent(message: AssistantMessage): Array<Anthropic.TextBlockParam | Anthropic.ToolUseBlockParam> {
  return message.content.flatMap((block): Array<Anthropic.TextBlockParam | Anthropic.ToolUseBlockParam> => {
    switch (block.type) {
      case "text":
        return block.text === "" ? [] : [{ type: "text", text: block.text }];
      case "tool_use":
        return [{ type: "tool_use", id: block.id, name: block.name, input: block.input }];
      default: {
        const unexpected: never = block;
        return unexpected;
      }
    }
  });
}

function answer(
  callIds: readonly string[],
  results: readonly ToolResultBlock[],
): Anthropic.ToolResultBlockParam[] {
  return callIds.map((id) => {
    const result = results.find((candidate) => candidate.toolUseId === id);
    if (result === undefined) return { type: "tool_result", tool_use_id: id, content: MISSING_RESULT_TEXT, is_error: true };
    return { type: "tool_result", tool_use_id: id, content: result.text, is_error: result.isError };
  });
}
