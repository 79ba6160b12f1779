// The Messages API's wire format both ways: the kernel's neutral conversation mapped to request pieces
// (system prompt and tool definitions marked for prompt caching), and a streamed reply assembled back
// into the kernel's AssistantMessage. Type-only imports: anthropic-model.ts loads the SDK lazily.
import type { Anthropic } from "@anthropic-ai/sdk";
import {
  describeError,
  imageLine,
  type AssistantMessage,
  type Message,
  type ModelReply,
  type StopReason,
  type ToolImage,
  type ToolResultBlock,
  type ToolSpec,
  type Usage,
  type UserMessage,
} from "../kernel/index.js";

const EPHEMERAL_CACHE: Anthropic.CacheControlEphemeral = { type: "ephemeral" };

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
 * The conversation as the API takes it. The API requires every tool_use to be answered by a tool_result
 * at the start of the next user message; the kernel's history keeps that invariant (src/kernel/history.ts
 * is its one owner), so the messages map one to one. Empty text blocks, which the API rejects, are left out.
 */
export function toApiMessages(messages: readonly Message[]): Anthropic.MessageParam[] {
  const sent = imagesToSend(messages);
  const converted = messages.flatMap((message): ApiMessage[] => {
    if (message.role === "assistant") {
      const content = assistantContent(message);
      return content.length === 0 ? [] : [{ role: "assistant", content }];
    }
    const content = userContent(message, sent);
    return content.length === 0 ? [] : [{ role: "user", content }];
  });
  return withConversationCache(converted);
}

type ApiMessage =
  | { readonly role: "user"; readonly content: UserBlockParam[] }
  | { readonly role: "assistant"; readonly content: Array<Anthropic.TextBlockParam | Anthropic.ToolUseBlockParam> };

/**
 * Prompt caching on the conversation, not only on the system prompt and the tool list: a breakpoint on the
 * newest message writes the whole history to the cache, and one on the user message before it reads what
 * the previous request wrote, however many blocks the last step added. With the system prompt's and the
 * tool list's, that is the API's limit of four.
 */
function withConversationCache(messages: readonly ApiMessage[]): ApiMessage[] {
  const marked = new Set<number>();
  if (messages.length > 0) marked.add(messages.length - 1);
  for (let index = messages.length - 2; index >= 0; index -= 1) {
    if (messages[index]?.role !== "user") continue;
    marked.add(index);
    break;
  }
  return messages.map((message, index) => (marked.has(index) ? markLastBlock(message) : message));
}

function markLastBlock(message: ApiMessage): ApiMessage {
  const last = message.content.length - 1;
  if (message.role === "user") {
    return { role: "user", content: message.content.map((block, index) => (index === last ? { ...block, cache_control: EPHEMERAL_CACHE } : block)) };
  }
  return { role: "assistant", content: message.content.map((block, index) => (index === last ? { ...block, cache_control: EPHEMERAL_CACHE } : block)) };
}

/**
 * The images a request carries: the newest, at most MAX_IMAGES_PER_REQUEST of them and
 * MAX_IMAGE_BASE64_BYTES_PER_REQUEST of base64 in all. Past 20 images in one request the API lowers its
 * per-image limit from 8000×8000 to 2000×2000 pixels, and a request may not exceed 32 MB
 * (https://docs.claude.com/en/docs/build-with-claude/vision); older images keep only their line in the text.
 */
export const MAX_IMAGES_PER_REQUEST = 20;
export const MAX_IMAGE_BASE64_BYTES_PER_REQUEST = 20 * 1024 * 1024;

const NO_LONGER_SENT = `a request carries only the newest, at most ${MAX_IMAGES_PER_REQUEST} and 20 MB`;

function imagesToSend(messages: readonly Message[]): ReadonlySet<ToolImage> {
  const sent = new Set<ToolImage>();
  let bytes = 0;
  const newestFirst = messages.flatMap((message) => (message.role === "user" ? message.content : [])).flatMap(blockImages);
  for (const image of newestFirst.reverse()) {
    if (sent.size === MAX_IMAGES_PER_REQUEST || bytes + image.data.length > MAX_IMAGE_BASE64_BYTES_PER_REQUEST) break;
    sent.add(image);
    bytes += image.data.length;
  }
  return sent;
}

/** The images of a user message's block: a result's, or the one the user attached. */
function blockImages(block: UserMessage["content"][number]): readonly ToolImage[] {
  switch (block.type) {
    case "tool_result":
      return block.images ?? [];
    case "image":
      return [block.image];
    default:
      return [];
  }
}

function imageParam(image: ToolImage): Anthropic.ImageBlockParam {
  return { type: "image", source: { type: "base64", media_type: image.mediaType, data: image.data } };
}

/** A result's text, then its images (those still sent): the API takes either a string or such a list. */
function toolResultContent(block: ToolResultBlock, sent: ReadonlySet<ToolImage>): Anthropic.ToolResultBlockParam["content"] {
  const images = block.images ?? [];
  if (images.length === 0) return block.text;
  const kept = images.filter((image) => sent.has(image));
  const dropped = images.length - kept.length;
  const note = dropped === 0 ? "" : `\n[${dropped} of ${images.length} images no longer sent: ${NO_LONGER_SENT}]`;
  const text = `${block.text}${note}`;
  const textBlocks: Anthropic.TextBlockParam[] = text === "" ? [] : [{ type: "text", text }];
  return [
    ...textBlocks,
    ...kept.map(imageParam),
  ];
}

type UserBlockParam = Anthropic.TextBlockParam | Anthropic.ImageBlockParam | Anthropic.ToolResultBlockParam;

function userContent(message: UserMessage, sent: ReadonlySet<ToolImage>): UserBlockParam[] {
  return message.content.flatMap((block): UserBlockParam[] => {
    switch (block.type) {
      case "text":
        return block.text === "" ? [] : [{ type: "text", text: block.text }];
      case "image":
        return sent.has(block.image) ? [imageParam(block.image)] : [{ type: "text", text: `${imageLine(block.image)} [no longer sent: ${NO_LONGER_SENT}]` }];
      case "tool_result":
        return [{ type: "tool_result", tool_use_id: block.toolUseId, content: toolResultContent(block, sent), is_error: block.isError }];
      default: {
        const unexpected: never = block;
        return unexpected;
      }
    }
  });
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

// The reply: text deltas are forwarded as they arrive, tool_use input is collected from its JSON
// fragments and parsed at the end.

type Block =
  | { readonly kind: "text"; text: string }
  | { readonly kind: "tool_use"; readonly id: string; readonly name: string; json: string }
  /** Thinking, server tools and other blocks the kernel has no use for. */
  | { readonly kind: "ignored" };

export interface ReplyProblem {
  readonly problem: "incomplete" | "malformed";
  readonly message: string;
}

export interface ReplyAssembler {
  accept(event: Anthropic.RawMessageStreamEvent): void;
  /** True once any text reached onText: from then on the attempt cannot be retried invisibly. */
  readonly forwardedText: boolean;
  /** The tokens the API reported so far (message_start's, then message_delta's); undefined before any. */
  readonly usage: Usage | undefined;
  /** The reply, or what is wrong with the stream: it ended early, or a tool's input is not a JSON object. */
  finish(): ModelReply | ReplyProblem;
}

export function createReplyAssembler(onText: (delta: string) => void): ReplyAssembler {
  const blocks = new Map<number, Block>();
  let stopReason: Anthropic.StopReason | null = null;
  let stopped = false;
  let forwardedText = false;
  let usage: Usage | undefined;

  const forward = (text: string): void => {
    if (text === "") return;
    forwardedText = true;
    onText(text);
  };

  return {
    get forwardedText() {
      return forwardedText;
    },
    get usage() {
      return usage;
    },
    accept(event) {
      switch (event.type) {
        case "message_start":
          usage = readUsage(event.message.usage, usage);
          return;
        case "content_block_stop":
          return;
        case "content_block_start": {
          const block = event.content_block;
          if (block.type === "text") {
            blocks.set(event.index, { kind: "text", text: block.text });
            forward(block.text);
          } else if (block.type === "tool_use") {
            blocks.set(event.index, { kind: "tool_use", id: block.id, name: block.name, json: "" });
          } else {
            blocks.set(event.index, { kind: "ignored" });
          }
          return;
        }
        case "content_block_delta": {
          const block = blocks.get(event.index);
          if (event.delta.type === "text_delta" && block?.kind === "text") {
            block.text += event.delta.text;
            forward(event.delta.text);
          } else if (event.delta.type === "input_json_delta" && block?.kind === "tool_use") {
            block.json += event.delta.partial_json;
          }
          return;
        }
        case "message_delta":
          stopReason = event.delta.stop_reason ?? stopReason;
          // message_delta's counts are cumulative for the request: they replace message_start's.
          usage = readUsage(event.usage, usage);
          return;
        case "message_stop":
          stopped = true;
          return;
        default: {
          // A newer API may send event types this SDK version does not know; they carry nothing we use.
          const unknown: never = event;
          return unknown;
        }
      }
    },
    finish() {
      if (!stopped) return { problem: "incomplete", message: "the reply stream ended before message_stop" };
      const content: Array<AssistantMessage["content"][number]> = [];
      for (const index of [...blocks.keys()].sort((a, b) => a - b)) {
        const block = blocks.get(index);
        if (block?.kind === "text" && block.text !== "") content.push({ type: "text", text: block.text });
        if (block?.kind !== "tool_use") continue;
        const input = parseInput(block.json);
        // Cut off by max_tokens, the last call's JSON is incomplete: drop the call, keep the rest.
        if (input instanceof Error && stopReason === "max_tokens") continue;
        if (input instanceof Error) {
          return { problem: "malformed", message: `tool_use ${block.name} (${block.id}): ${input.message}` };
        }
        content.push({ type: "tool_use", id: block.id, name: block.name, input });
      }
      return { message: { role: "assistant", content }, stopReason: toStopReason(stopReason), ...(usage === undefined ? {} : { usage }) };
    },
  };
}

function parseInput(json: string): Record<string, unknown> | Error {
  if (json.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return new Error(`input is not valid JSON (${describeError(error)})`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return new Error("input is not a JSON object");
  return Object.fromEntries(Object.entries(value));
}

function toStopReason(reason: Anthropic.StopReason | null): StopReason {
  switch (reason) {
    case "end_turn":
    case "tool_use":
    case "max_tokens":
    case "refusal":
      return reason;
    case "stop_sequence":
    case "pause_turn":
    case "model_context_window_exceeded":
    case null:
      return "other";
    default: {
      // A stop reason newer than this SDK version: the turn ended for a reason the kernel cannot name.
      const newer: never = reason;
      void newer;
      return "other";
    }
  }
}

/** The API's usage counts over the ones known so far; a count it leaves out (or null) keeps the earlier one. */
function readUsage(reported: unknown, known: Usage | undefined): Usage {
  const count = (key: string, fallback: number): number => {
    if (typeof reported !== "object" || reported === null || !(key in reported)) return fallback;
    const value: unknown = Reflect.get(reported, key);
    return typeof value === "number" && Number.isFinite(value) ? value : fallback;
  };
  return {
    inputTokens: count("input_tokens", known?.inputTokens ?? 0),
    cacheReadTokens: count("cache_read_input_tokens", known?.cacheReadTokens ?? 0),
    cacheWriteTokens: count("cache_creation_input_tokens", known?.cacheWriteTokens ?? 0),
    outputTokens: count("output_tokens", known?.outputTokens ?? 0),
  };
}
