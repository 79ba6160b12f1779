// Builders for the event sequences the real Messages API streams, for the fake API's scripts.
import type { SseEvent } from "./fake-messages-api.js";

export type ScriptedBlock =
  | { readonly type: "text"; readonly chunks: readonly string[] }
  | { readonly type: "tool_use"; readonly id: string; readonly name: string; readonly jsonChunks: readonly string[] };

/** message_start, a ping, each block's start/deltas/stop, message_delta with the stop reason, message_stop. */
export function replyEvents(model: string, blocks: readonly ScriptedBlock[], stopReason: string): SseEvent[] {
  return [
    messageStart(model),
    { event: "ping", data: { type: "ping" } },
    ...blocks.flatMap((block, index) => blockEvents(block, index)),
    {
      event: "message_delta",
      data: { type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 12 } },
    },
    { event: "message_stop", data: { type: "message_stop" } },
  ];
}

export function messageStart(model: string): SseEvent {
  return {
    event: "message_start",
    data: {
      type: "message_start",
      message: {
        id: "msg_fake_1",
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 25, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    },
  };
}

export function blockEvents(block: ScriptedBlock, index: number): SseEvent[] {
  if (block.type === "text") {
    return [
      { event: "content_block_start", data: { type: "content_block_start", index, content_block: { type: "text", text: "" } } },
      ...block.chunks.map((text) => ({
        event: "content_block_delta",
        data: { type: "content_block_delta", index, delta: { type: "text_delta", text } },
      })),
      { event: "content_block_stop", data: { type: "content_block_stop", index } },
    ];
  }
  return [
    {
      event: "content_block_start",
      data: { type: "content_block_start", index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } },
    },
    ...block.jsonChunks.map((partial_json) => ({
      event: "content_block_delta",
      data: { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } },
    })),
    { event: "content_block_stop", data: { type: "content_block_stop", index } },
  ];
}

/** The `error` event the API sends inside a stream, e.g. when it is overloaded mid-reply. */
export function errorEvent(type: string, message: string): SseEvent {
  return { event: "error", data: { type: "error", error: { type, message } } };
}
