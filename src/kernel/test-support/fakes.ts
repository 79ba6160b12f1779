// Fakes for kernel tests, passed in as arguments: a scripted model, in-memory snapshots and transcript,
// and small tool factories.
import type { ApprovalAnswer } from "../gate.js";
import type { AgentEvent } from "../ports.js";
import type { AssistantMessage, Message, Model, ModelReply, ModelRequest, StopReason, TextBlock, ToolUseBlock } from "../ports.js";
import type { NotUndoable, SnapshotStore } from "../ports.js";
import type { Tool, ToolArgs, ToolContext, ToolKind, ToolResult } from "../tool.js";
import type { TranscriptEntry, TranscriptSink } from "../ports.js";

export type ScriptStep = (request: ModelRequest) => ModelReply | Promise<ModelReply>;

export interface ScriptedModel extends Model {
  /** The messages of every request, copied when the request was made. */
  readonly seen: Message[][];
}

/** Plays its steps in order; asking for more than it has is a test bug and rejects. */
export function scriptedModel(steps: readonly ScriptStep[]): ScriptedModel {
  const seen: Message[][] = [];
  return {
    name: "scripted",
    seen,
    async complete(request) {
      seen.push([...request.messages]);
      const step = steps[seen.length - 1];
      if (step === undefined) throw new Error(`the script has no step ${seen.length}`);
      return step(request);
    },
  };
}

export function text(value: string): TextBlock {
  return { type: "text", text: value };
}

export function use(id: string, name: string, input: ToolArgs = {}): ToolUseBlock {
  return { type: "tool_use", id, name, input };
}

export function reply(...content: Array<TextBlock | ToolUseBlock>): ModelReply {
  const stopReason: StopReason = content.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn";
  const message: AssistantMessage = { role: "assistant", content };
  return { message, stopReason };
}

/** A step that streams its text through onText, as a real model does. */
export function streamed(...content: Array<TextBlock | ToolUseBlock>): ScriptStep {
  return (request) => {
    for (const block of content) if (block.type === "text") request.onText(block.text);
    return reply(...content);
  };
}

export interface ToolSpec {
  readonly name: string;
  readonly kind?: ToolKind;
  readonly inputSchema?: Tool["inputSchema"];
  readonly changes?: (args: ToolArgs) => readonly string[];
  readonly run?: (args: ToolArgs, context: ToolContext) => Promise<ToolResult>;
}

export function fakeTool(spec: ToolSpec): Tool {
  const kind = spec.kind ?? "read";
  return {
    name: spec.name,
    description: `fake ${spec.name}`,
    inputSchema: spec.inputSchema ?? { type: "object" },
    kind,
    // A remote tool's source is its server's alias, as the namespace makes it (`mcp__<alias>__<tool>`).
    source: kind === "remote" ? (/^mcp__(.+?)__/u.exec(spec.name)?.[1] ?? "fake") : "local",
    originalName: spec.name,
    ...(kind === "remote" ? { serverRuleName: spec.name } : {}),
    ...(spec.changes === undefined ? {} : { changes: spec.changes }),
    run: spec.run ?? (async (args) => ({ text: `${spec.name} ${JSON.stringify(args)}`, isError: false })),
  };
}

export interface MemorySnapshots extends SnapshotStore {
  readonly log: string[];
}

/**
 * Records what the kernel asks of the store, in the log; `undoLatest` takes the latest turn that saved
 * or noted anything and reports every path saved for it as restored.
 */
export function memorySnapshots(): MemorySnapshots {
  const log: string[] = [];
  const turns = new Map<number, { paths: string[]; notUndoable: NotUndoable[] }>();
  const turnOf = (turn: number) => turns.get(turn) ?? { paths: [], notUndoable: [] };
  return {
    log,
    async save(turn, path) {
      log.push(`save ${turn} ${path}`);
      const record = turnOf(turn);
      if (!record.paths.includes(path)) turns.set(turn, { ...record, paths: [...record.paths, path] });
    },
    async note(turn, what) {
      log.push(`note ${turn} ${what.kind} ${what.tool}`);
      const record = turnOf(turn);
      if (!record.notUndoable.some((known) => known.tool === what.tool)) turns.set(turn, { ...record, notUndoable: [...record.notUndoable, what] });
    },
    async seal(turn) {
      if (turns.has(turn)) log.push(`seal ${turn}`);
    },
    async undoLatest() {
      const latest = Math.max(...turns.keys());
      const record = turns.get(latest);
      if (record === undefined) return null;
      log.push(`undo ${latest}`);
      turns.delete(latest);
      return { restored: record.paths, removed: [], leftAlone: [], notUndoable: record.notUndoable, commandCheckpoint: null };
    },
  };
}

export interface MemoryTranscript extends TranscriptSink {
  readonly entries: TranscriptEntry[];
}

export function memoryTranscript(): MemoryTranscript {
  const entries: TranscriptEntry[] = [];
  return { entries, append: (entry) => void entries.push(entry) };
}

export function eventLog(): { readonly events: AgentEvent[]; readonly emit: (event: AgentEvent) => void } {
  const events: AgentEvent[] = [];
  return { events, emit: (event) => void events.push(event) };
}

export function answering(...answers: ApprovalAnswer[]): { readonly asked: string[]; readonly approve: (request: { tool: Tool }) => Promise<ApprovalAnswer> } {
  const asked: string[] = [];
  return {
    asked,
    async approve(request) {
      asked.push(request.tool.name);
      const answer = answers[asked.length - 1];
      if (answer === undefined) throw new Error(`no answer scripted for approval ${asked.length}`);
      return answer;
    },
  };
}
