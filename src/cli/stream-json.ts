// `--output-format stream-json` in Claude Code's message schema (the Agent SDK's SDKMessage types:
// https://docs.claude.com/en/docs/agent-sdk/typescript): a `system`/`init` line, an `assistant` line for each
// message of the model, a `user` line for each batch of tool results, and (pipe-mode writes it) the result.
// `--include-partial-messages` adds `stream_event` lines in the Messages API's streaming shapes, rebuilt from
// the kernel's events; mca's own event lines come back with `--mca-events`.
import type { AgentEvent, AssistantMessage, Message, StopReason, ToolResultBlock } from "../kernel/index.js";
import { NO_USAGE } from "./cost.js";
import { apiUsage, jsonLine, type ApiUsage } from "./headless-output.js";
import type { ServerStatus } from "./mcp-servers.js";

/** stream-json's first line: what the run works with, before anything happens. */
export interface InitLine {
  readonly type: "system";
  readonly subtype: "init";
  readonly session_id: string;
  readonly cwd: string;
  readonly model: string;
  readonly tools: readonly string[];
  readonly mcp_servers: ReadonlyArray<{ readonly name: string; readonly status: InitServerStatus }>;
  readonly permissionMode: string;
}

/** Claude's words for a server's state. */
export type InitServerStatus = "connected" | "failed" | "needs-auth" | "disabled";

const SERVER_STATUS: Readonly<Record<ServerStatus["state"], InitServerStatus>> = {
  connected: "connected",
  failed: "failed",
  // Claude's list has no word for a server that was up and went away: it cannot be used now.
  disconnected: "failed",
  "needs login": "needs-auth",
  disabled: "disabled",
};

export interface InitFacts {
  readonly sessionId: string;
  readonly cwd: string;
  readonly model: string;
  readonly tools: readonly string[];
  readonly servers: readonly ServerStatus[];
  readonly permissionMode: string;
}

export function initLine(facts: InitFacts): InitLine {
  const servers = facts.servers.map((server) => ({ name: server.alias, status: SERVER_STATUS[server.state] }));
  return { type: "system", subtype: "init", session_id: facts.sessionId, cwd: facts.cwd, model: facts.model, tools: facts.tools, mcp_servers: servers, permissionMode: facts.permissionMode };
}

type ApiContent = { readonly type: "text"; readonly text: string } | { readonly type: "tool_use"; readonly id: string; readonly name: string; readonly input: unknown };

/** The Messages API's message, as the `assistant` line carries it. */
export interface ApiAssistantMessage {
  readonly id: string;
  readonly type: "message";
  readonly role: "assistant";
  readonly model: string;
  readonly content: readonly ApiContent[];
  readonly stop_reason: ApiStopReason | null;
  readonly stop_sequence: null;
  readonly usage: ApiUsage;
}

type ApiStopReason = Exclude<StopReason, "other">;

export interface StreamJsonOptions {
  readonly sessionId: string;
  /** Gives each assistant message its id (messageIds): one for the session, however many runs write its lines. */
  readonly nextId: () => string;
  /** The model answering now: a message_start names it before the message itself does. */
  readonly model: () => string;
  readonly write: (line: string) => void;
  /** `--include-partial-messages`: `stream_event` lines as the model's words arrive. */
  readonly partialMessages: boolean;
  /** `--mca-events`: mca's own event lines too (`text`, `tool_start`, `tool_end`, `turn_end`, …), as before 0.x. */
  readonly mcaEvents: boolean;
}

/** A stream_event's index of each content block, and whether the text block is still open. */
interface PartialMessage {
  readonly id: string;
  textIndex: number | null;
  nextIndex: number;
}

/**
 * The ids of a session's assistant messages, in order: `msg_mca_<session>_<n>`. Unique within the session
 * only (the kernel is not told the API's own message ids), across every answer of `--input-format stream-json`.
 */
export function messageIds(sessionId: string): () => string {
  let count = 0;
  return () => `msg_mca_${sessionId}_${(count += 1)}`;
}

/** The agent's events as stream-json lines (all but the first and the last). */
export function createStreamJsonWriter(options: StreamJsonOptions): (event: AgentEvent) => void {
  const { sessionId, write, nextId } = options;
  let partial: PartialMessage | null = null;
  const streamEvent = (event: object): void => write(jsonLine({ type: "stream_event", event, parent_tool_use_id: null, session_id: sessionId }));
  const openMessage = (model: string): PartialMessage => {
    if (partial !== null) return partial;
    partial = { id: nextId(), textIndex: null, nextIndex: 0 };
    const start: ApiAssistantMessage = { id: partial.id, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: apiUsage(NO_USAGE) };
    streamEvent({ type: "message_start", message: start });
    return partial;
  };
  const closeText = (open: PartialMessage): void => {
    if (open.textIndex === null) return;
    streamEvent({ type: "content_block_stop", index: open.textIndex });
    open.textIndex = null;
  };
  /** A message that ended without a reply (a model error, an interrupt before the message): its stream still ends. */
  const abandon = (): void => {
    if (partial === null) return;
    closeText(partial);
    streamEvent({ type: "message_stop" });
    partial = null;
  };
  const assistant = (message: AssistantMessage, event: Extract<AgentEvent, { type: "message" }>): void => {
    const model = event.model ?? options.model();
    let id: string;
    if (options.partialMessages) {
      const open = openMessage(model);
      id = open.id;
      closeText(open);
      for (const block of message.content) {
        if (block.type !== "tool_use") continue;
        const index = open.nextIndex++;
        streamEvent({ type: "content_block_start", index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } });
        streamEvent({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } });
        streamEvent({ type: "content_block_stop", index });
      }
      streamEvent({ type: "message_delta", delta: { stop_reason: apiStopReason(event.stopReason), stop_sequence: null }, usage: { output_tokens: event.usage?.outputTokens ?? 0 } });
      streamEvent({ type: "message_stop" });
      partial = null;
    } else id = nextId();
    const apiMessage: ApiAssistantMessage = {
      id,
      type: "message",
      role: "assistant",
      model,
      content: message.content.map((block): ApiContent => (block.type === "text" ? { type: "text", text: block.text } : { type: "tool_use", id: block.id, name: block.name, input: block.input })),
      stop_reason: apiStopReason(event.stopReason),
      stop_sequence: null,
      // The offline models report no tokens: their messages count none.
      usage: apiUsage(event.usage ?? NO_USAGE),
    };
    write(jsonLine({ type: "assistant", message: apiMessage, parent_tool_use_id: null, session_id: sessionId }));
  };
  /** Only a batch of tool results is written: Claude does not repeat the prompt it was given. */
  const user = (message: Message): void => {
    const results = message.content.filter((block): block is ToolResultBlock => block.type === "tool_result");
    if (results.length === 0) return;
    const content = results.map((block) => ({ type: "tool_result", tool_use_id: block.toolUseId, content: block.text, is_error: block.isError }));
    write(jsonLine({ type: "user", message: { role: "user", content }, parent_tool_use_id: null, session_id: sessionId }));
  };
  const partialText = (delta: string): void => {
    if (!options.partialMessages || delta === "") return;
    const open = openMessage(options.model());
    if (open.textIndex === null) {
      open.textIndex = open.nextIndex++;
      streamEvent({ type: "content_block_start", index: open.textIndex, content_block: { type: "text", text: "" } });
    }
    streamEvent({ type: "content_block_delta", index: open.textIndex, delta: { type: "text_delta", text: delta } });
  };
  return (event) => {
    if (options.mcaEvents && event.type !== "message") write(jsonLine(event));
    switch (event.type) {
      case "text":
        partialText(event.delta);
        return;
      case "message":
        if (event.message.role === "assistant") assistant(event.message, event);
        else user(event.message);
        return;
      case "error":
      case "turn_end":
        abandon();
        return;
      case "tool_start":
      case "tool_progress":
      case "tool_end":
      case "approval":
      case "notice":
      case "usage":
        return;
      default: {
        const unknown: never = event;
        throw new Error(`unknown event ${JSON.stringify(unknown)}`);
      }
    }
  };
}

/** "other" (a reason mca does not know) and an interrupted message have none. */
function apiStopReason(reason: StopReason | undefined): ApiStopReason | null {
  return reason === undefined || reason === "other" ? null : reason;
}
