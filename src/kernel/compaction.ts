// The context never overflows: when the conversation nears the model's window, the older turns are
// summarised through the model itself and replaced by that summary; the recent turns stay word for word.
// The cut is always at the start of a turn (a user message with the user's own words), so every tool_use
// kept has its tool_result kept too.
import type { Message, Model, ToolSpec } from "./ports.js";
import { describeError } from "./settle.js";
import { imageLine } from "./tool.js";

/** The context window of the Claude models mca talks to. */
export const CONTEXT_WINDOW_TOKENS = 200_000;
/** Compaction starts at three quarters of the window: 150,000 tokens. */
export const COMPACT_AT_TOKENS = (CONTEXT_WINDOW_TOKENS * 3) / 4;
/** How many of the latest turns are kept as they are. */
export const KEPT_TURNS = 2;

/** About four characters a token: the usual rule of thumb for English and code. */
export const CHARS_PER_TOKEN = 4;

/**
 * The tokens a request would take, for a model that reports no usage (the offline mock, a scripted model),
 * so that the threshold still applies to it: its characters over CHARS_PER_TOKEN.
 */
export function estimatedTokens(system: string, messages: readonly Message[], tools: readonly ToolSpec[]): number {
  let chars = system.length + JSON.stringify(tools).length;
  for (const message of messages) {
    for (const block of message.content) chars += blockChars(block);
  }
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** An image counts as its line of text: what it costs the model is not known from here. */
function blockChars(block: Message["content"][number]): number {
  switch (block.type) {
    case "tool_use":
      return block.name.length + JSON.stringify(block.input).length;
    case "image":
      return imageLine(block.image).length;
    default:
      return block.text.length;
  }
}

export const SUMMARY_HEADER = "[Summary of the earlier conversation, made by mca to keep the context small]";

const SUMMARY_SYSTEM =
  "You summarise a coding session so that it can continue from your summary alone. Keep: the user's goals and " +
  "decisions, what was changed (files, commands) and why, what was found, what is still open. Be concise and concrete.";
const SUMMARY_REQUEST = "Summarise the conversation above for your own continuation, as instructed.";

/** The older turns to summarise and the recent ones to keep; null when there is nothing older to fold. */
export function splitForCompaction(messages: readonly Message[], keptTurns: number = KEPT_TURNS): { older: Message[]; recent: Message[] } | null {
  const turnStarts = messages.flatMap((message, index) =>
    message.role === "user" && message.content.some((block) => block.type === "text") && message.content.every((block) => block.type !== "tool_result") ? [index] : [],
  );
  const cut = turnStarts.at(-keptTurns);
  if (cut === undefined || cut === 0) return null;
  return { older: messages.slice(0, cut), recent: messages.slice(cut) };
}

/** The compacted history, or the Error that kept it from being made (the history is then left as it was). */
export async function compactHistory(model: Model, messages: readonly Message[], signal: AbortSignal, keptTurns: number = KEPT_TURNS): Promise<Message[] | Error | null> {
  const split = splitForCompaction(messages, keptTurns);
  if (split === null) return null;
  const request: Message = { role: "user", content: [{ type: "text", text: SUMMARY_REQUEST }] };
  // The summary request closes the older turns; a last user message (an interrupted turn) takes it in.
  const last = split.older.at(-1);
  const asked: Message[] =
    last?.role === "user" ? [...split.older.slice(0, -1), { role: "user", content: [...last.content, ...request.content] }] : [...split.older, request];
  let summary: string;
  try {
    const reply = await model.complete({ system: SUMMARY_SYSTEM, messages: asked, tools: [], signal, onText: () => undefined });
    summary = reply.message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n").trim();
  } catch (error) {
    return new Error(`the summary could not be made: ${describeError(error)}`);
  }
  if (summary === "") return new Error("the model gave an empty summary");
  return [
    { role: "user", content: [{ type: "text", text: `${SUMMARY_HEADER}\n${summary}` }] },
    { role: "assistant", content: [{ type: "text", text: "Understood: I continue from that summary." }] },
    ...split.recent,
  ];
}
