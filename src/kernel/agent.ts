// The agent loop: a user prompt, then model turns and tool calls until the model ends its turn or a
// limit is hit. Its only output is events; the CLI listens. Everything it touches arrives in AgentDeps.
import { ALWAYS_PROTECTED, unknownToolDecision, type Decision, type ProtectedFolder, type SessionAllow } from "./gate.js";
import type { Rule } from "./rule.js";
import { appendMessage, closeOpenToolUses, NEVER_STARTED_TEXT } from "./history.js";
import type { AgentEvent, ImageBlock, Message, Model, ModelReply, ModelRequest, SnapshotStore, SpillStore, StopReason, ToolResultBlock, ToolUseBlock, TranscriptEntry, TranscriptSink, ToolSpec, TurnUndo, Usage } from "./ports.js";
import type { Redact } from "./redaction.js";
import { describeError, settle } from "./settle.js";
import type { Tool, ToolArgs, ToolImage } from "./tool.js";
import { DEFAULT_LIMITS, interruptedMark, LOOP_LIMIT_NOTICE, notRunText, turnLimitNotice, type AgentLimits } from "./turn-stops.js";
import { createLoopGuard } from "./loop-guard.js";
import {
  judgeCall,
  runToolCall,
  type ApprovalRequest,
  type ApproverReply,
  type CallContext,
  type CallOutcome,
} from "./tool-call.js";
import { compactHistory, estimatedTokens } from "./compaction.js";
import { createToolOffer, DEFAULT_TOOL_SEARCH, type DeferredTool, type ToolSearchMode } from "./tool-offer.js";

export type { ApprovalRequest, NobodyToAsk, UserDenial } from "./tool-call.js";

export interface AgentDeps {
  readonly model: Model;
  readonly tools: readonly Tool[];
  /** The user's rules, from settings files and flags. */
  readonly rules: readonly Rule[];
  /**
   * Folders writes under which always ask (the project's git hooks folder among them), asked at each call
   * so that what changed during the session counts; ALWAYS_PROTECTED when not given.
   */
  readonly protectedFolders?: () => readonly ProtectedFolder[];
  readonly system: string;
  /** Called only when the gate says ask; the CLI prompts (or, without a terminal, denies). */
  readonly approve: (request: ApprovalRequest) => Promise<ApproverReply>;
  readonly snapshots: SnapshotStore;
  readonly transcript: TranscriptSink;
  readonly emit: (event: AgentEvent) => void;
  readonly limits?: Partial<AgentLimits>;
  /** A resumed session's history (--resume). */
  readonly history?: readonly Message[];
  /**
   * A tool for a name that is not among `tools`, e.g. one of an MCP server that never came up, so the call
   * gets that server's reason instead of "unknown tool". The model is never told about these.
   */
  readonly findTool?: (name: string) => Tool | undefined;
  /** Applied to every tool result before it is truncated and before the model, the user or the transcript sees it. */
  readonly redact?: Redact;
  /** When remote tools are deferred behind tool_search (DEFAULT_TOOL_SEARCH when not given). */
  readonly toolSearch?: ToolSearchMode;
  /** A server's instructions for the model, by alias: shown beside its deferred tools' names. */
  readonly serverInstructions?: (alias: string) => string | undefined;
  /** The deferred tools a resumed session had loaded (replayLoadedTools). */
  readonly loadedTools?: readonly string[];
  /** Where a tool result over the budget is kept whole for the model to read on; without it, the rest is only cut. */
  readonly spill?: SpillStore;
  /**
   * Asked before each model request of a prompt but its first: null while the prompt may spend more, else
   * the sentence that ends the turn ("budget_limit"), naming the limit and how to go on. The kernel knows
   * no prices; whoever counts the usage events does.
   */
  readonly overBudget?: () => string | null;
  /** What the user allowed for this session outside the gate's calls (the sandbox's network domains), as rules: listed with the gate's. */
  readonly otherSessionAllows?: () => readonly string[];
}

/** What the next model request will carry; `deferred`: the remote tools not sent yet (empty without tool search). */
export interface RequestPreview {
  readonly system: string;
  readonly tools: readonly ToolSpec[];
  readonly deferred: readonly DeferredTool[];
  readonly messages: readonly Message[];
}

export interface CallReport {
  readonly tool: string;
  readonly isError: boolean;
  readonly text: string;
  readonly truncated: boolean;
  readonly decision: Decision;
}

/** What /undo did to the latest undoable turn, or that there was none (its lists are then empty). */
export type UndoReport =
  | { readonly nothingToUndo: true; readonly restored: readonly []; readonly notUndoable: readonly [] }
  | ({ readonly nothingToUndo: false } & TurnUndo);

export interface Agent {
  /**
   * One user prompt, with the images it carries after its text (a resource the user attached); emits
   * turn_end and resolves to how the turn ended. Never rejects for tool or model failures.
   */
  prompt(text: string, signal: AbortSignal, images?: readonly ToolImage[]): Promise<TurnEnd>;
  /** `/call` and `mca call`: one tool call through the same path as the model's; counts as its own prompt. */
  call(name: string, args: ToolArgs, signal: AbortSignal): Promise<CallReport>;
  /**
   * The person's own call (`!command` in the chat): the path of `call`, except that a verdict of "ask" runs
   * without a question, since the person asked; a deny rule still refuses. `told(report)` is then added to the
   * history as the person's message, which the next request carries; null adds nothing.
   */
  callAsPerson(name: string, args: ToolArgs, signal: AbortSignal, told: (report: CallReport) => string | null): Promise<CallReport>;
  /** Whether a call of this name reaches a tool: one offered, or one of a server that never came up. */
  hasTool(name: string): boolean;
  /** The gate's verdict for a tool (args default {}), with its reason. */
  decide(name: string, args?: ToolArgs): Decision;
  /** What the user allowed for this session, each as the rule it reads as (`write_file`, `bash(git status*)`). */
  sessionAllows(): readonly string[];
  /**
   * Undoes the latest turn that changed files or ran a command or remote tool: restores the files it
   * changed that still hold what it left, and names what it cannot undo.
   */
  undo(): Promise<UndoReport>;
  /** Forgets the conversation (approvals for this session and undo stay). */
  clear(): void;
  /** `/compact`, and by itself near the context window: older turns replaced by the model's summary of them. */
  compact(signal: AbortSignal): Promise<string>;
  /**
   * Replaces the tools offered, from the next model request on (`/mcp reconnect`: a server's tools may have
   * changed). Called between turns; a call already under way keeps the tool it started with.
   */
  setTools(tools: readonly Tool[]): void;
  /** How full the context is after the latest request; null before one (and after /clear or a compaction). */
  contextUse(): ContextUse | null;
  /** What the next model request will carry, as it stands now. */
  requestPreview(): RequestPreview;
  readonly tools: readonly Tool[];
  readonly messages: readonly Message[];
}

/**
 * How full the context is: the input tokens of the latest request as the API counted them (cached ones
 * included), or, for a model that reports no usage, an estimate from the characters of what it was sent.
 */
export interface ContextUse {
  readonly tokens: number;
  readonly estimated: boolean;
}

export type TurnEnd = Extract<AgentEvent, { type: "turn_end" }>["reason"];

/** A history handed in already closed (replayHistory) is left as it is; this answers only what is still open. */
const unfinished = (): { text: string; isError: boolean } => ({ text: NEVER_STARTED_TEXT, isError: true });

export function createAgent(deps: AgentDeps): Agent {
  const limits: AgentLimits = { ...DEFAULT_LIMITS, ...deps.limits };
  let transcriptBroken = false;
  const record = (entry: TranscriptEntry): void => {
    try {
      deps.transcript.append(entry);
    } catch (error) {
      if (transcriptBroken) return;
      transcriptBroken = true;
      deps.emit({ type: "error", message: `Could not write the transcript (${describeError(error)}); the session goes on.` });
    }
  };
  let tools: readonly Tool[] = [];
  let toolsByName = new Map<string, Tool>();
  const toolOffer = createToolOffer({
    mode: deps.toolSearch ?? DEFAULT_TOOL_SEARCH,
    ...(deps.serverInstructions === undefined ? {} : { instructions: deps.serverInstructions }),
    loaded: deps.loadedTools ?? [],
    onLoad: record,
  });
  const offer = (next: readonly Tool[]): void => {
    tools = next;
    toolsByName = new Map();
    for (const tool of next) if (!toolsByName.has(tool.name)) toolsByName.set(tool.name, tool);
    toolOffer.setTools(next);
  };
  offer(deps.tools);
  const findTool = (name: string): Tool | undefined => toolsByName.get(name) ?? (name === toolOffer.searchTool()?.name ? toolOffer.searchTool() : undefined) ?? deps.findTool?.(name);
  const guard = createLoopGuard({ refuseAt: limits.repeatRefuseAt, stopAt: limits.repeatStopAt });
  const sessionAllows = new Map<string, SessionAllow>();
  const protectedFolders = deps.protectedFolders ?? ((): readonly ProtectedFolder[] => ALWAYS_PROTECTED);
  let messages: Message[] = closeOpenToolUses(deps.history ?? [], unfinished);
  let turn = 0;
  let callCount = 0;

  const notice = (message: string): void => {
    deps.emit({ type: "notice", message });
    record({ type: "notice", message });
  };
  /** `reply`: for the model's message, what the event tells with it (its model is the one asked now). */
  const addMessage = (message: Message, reply?: { stopReason?: StopReason; usage?: Usage }): void => {
    messages = appendMessage(messages, message);
    record({ type: "message", message });
    deps.emit(message.role === "assistant" ? { type: "message", message, model: deps.model.name, ...reply } : { type: "message", message });
  };
  const startTurn = (): CallContext => {
    turn += 1;
    guard.reset();
    const { approve, emit, snapshots, redact, spill } = deps;
    return { findTool, rules: deps.rules, protectedFolders, sessionAllows, guard, snapshots, approve, emit, record, turn, redact, spill };
  };
  /** At a turn's end, what its files hold now; without it, /undo leaves that turn's files alone. */
  const sealTurn = async (context: CallContext): Promise<void> => {
    try {
      await deps.snapshots.seal(context.turn);
    } catch (error) {
      deps.emit({ type: "error", message: `Could not record what this turn left for /undo (${describeError(error)}); /undo will leave its files alone.` });
    }
  };

  if (messages.length > 0) record({ type: "history", messages });
  // Like the history: a resumed session's file holds what it goes on with.
  if (toolOffer.loaded().length > 0) record({ type: "tools_loaded", names: toolOffer.loaded() });

  /** The system prompt and tool definitions of the next request: the deferred tools' names go in the system prompt. */
  const requestHead = (): { system: string; tools: readonly ToolSpec[]; deferred: readonly DeferredTool[] } => {
    const { tools: sent, deferred, deferredList } = toolOffer.offered();
    return { system: deferredList === "" ? deps.system : `${deps.system}\n\n${deferredList}`, tools: sent, deferred };
  };

  /** How full the context is; null before the first request, and again after /clear or a compaction. */
  let contextUse: ContextUse | null = null;

  // Every request the model is sent is counted, whatever became of it: the answered one, the compaction's,
  // and the attempts the model retried or that were interrupted (billed as far as they got).
  const counted = (usage: Usage): void => deps.emit({ type: "usage", model: deps.model.name, usage });
  const countingModel: Model = {
    get name() {
      return deps.model.name;
    },
    async complete(request: ModelRequest): Promise<ModelReply> {
      const reply = await deps.model.complete({ ...request, onSpentUsage: counted });
      if (reply.usage !== undefined) counted(reply.usage);
      return reply;
    },
  };

  /** Replaces the older turns by their summary; says what happened, for the screen and the transcript. */
  async function compact(signal: AbortSignal): Promise<string> {
    const compacted = await compactHistory(countingModel, messages, signal);
    if (compacted === null) return "nothing to compact: the conversation is only its latest turns";
    if (compacted instanceof Error) return `context not compacted: ${compacted.message}`;
    const folded = messages.length - (compacted.length - 2);
    messages = compacted;
    contextUse = null;
    // Recorded whole, so that --resume continues from the compacted form.
    record({ type: "history", messages });
    return `context compacted: ${folded} earlier messages replaced by a summary; the latest turns are kept as they were`;
  }

  /** One call the user made (`/call`, `!command`), its own prompt: run through the model's path, then the turn sealed. */
  async function userCall(context: CallContext, name: string, args: ToolArgs, signal: AbortSignal): Promise<CallReport> {
    callCount += 1;
    const outcome = await runToolCall(context, { id: `user-call-${callCount}`, name, args }, signal);
    await sealTurn(context);
    return { tool: name, isError: outcome.isError, text: outcome.text, truncated: outcome.truncated, decision: outcome.decision };
  }

  async function runTurns(context: CallContext, signal: AbortSignal): Promise<TurnEnd> {
    const cap = limits.maxTurnsPerPrompt;
    for (let step = 0; cap === null || step < cap; step++) {
      const spent = step === 0 ? null : (deps.overBudget?.() ?? null);
      if (spent !== null) {
        notice(spent);
        return "budget_limit";
      }
      let streamed = "";
      const onText = (delta: string): void => {
        streamed += delta;
        deps.emit({ type: "text", delta });
      };
      const onRetry = (message: string): void => deps.emit({ type: "notice", message });
      const { system, tools: toolSpecs } = requestHead();
      const request = { system, messages, tools: toolSpecs, signal, onText, onRetry };
      const reply = await settle(() => countingModel.complete(request), signal);
      if (reply.kind === "aborted" || (reply.kind === "failed" && signal.aborted)) {
        // The answer as far as it got stays in the history, marked, so the model knows it was cut there.
        const mark = interruptedMark(signal);
        addMessage({ role: "assistant", content: [{ type: "text", text: streamed === "" ? mark : `${streamed}\n\n${mark}` }] });
        return "aborted";
      }
      if (reply.kind === "failed") {
        const message = `Model error: ${describeError(reply.error)}`;
        deps.emit({ type: "error", message });
        record({ type: "error", message });
        return "model_error";
      }
      const { message, stopReason, usage } = reply.value;
      // A model that does not stream still shows its text once.
      if (streamed === "") for (const block of message.content) if (block.type === "text") deps.emit({ type: "text", delta: block.text });
      if (message.content.length > 0) addMessage(message, usage === undefined ? { stopReason } : { stopReason, usage });
      contextUse =
        usage === undefined
          ? { tokens: estimatedTokens(system, messages, toolSpecs), estimated: true }
          : { tokens: usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens, estimated: false };
      const uses = message.content.filter((block): block is ToolUseBlock => block.type === "tool_use");
      if (uses.length === 0) {
        if (stopReason === "max_tokens") notice("The model's reply was cut off at its output limit.");
        if (stopReason === "refusal") notice("The model declined to continue.");
        return "done";
      }
      const stop = await runCalls(context, uses, signal);
      if (stop === "aborted") return "aborted";
      if (stop === "loop_limit") {
        notice(LOOP_LIMIT_NOTICE);
        return "loop_limit";
      }
    }
    notice(turnLimitNotice(cap));
    return "turn_limit";
  }

  /** Runs the calls in order; once one ends the turn, the rest get a "not run" result. */
  async function runCalls(context: CallContext, uses: readonly ToolUseBlock[], signal: AbortSignal): Promise<CallOutcome["stop"]> {
    const results: ToolResultBlock[] = [];
    let stop: CallOutcome["stop"] = null;
    for (const use of uses) {
      if (stop === null && signal.aborted) stop = "aborted";
      if (stop !== null) {
        results.push({ type: "tool_result", toolUseId: use.id, text: notRunText(stop, signal), isError: true });
        continue;
      }
      const outcome = await runToolCall(context, { id: use.id, name: use.name, args: use.input }, signal);
      // A deferred tool the model calls by its name is one it knows now: sent from the next request on
      // (unless a rule denies it: its definition would only take room).
      if (outcome.decision.verdict !== "deny") toolOffer.load([use.name]);
      const images = outcome.images.length === 0 ? {} : { images: outcome.images };
      results.push({ type: "tool_result", toolUseId: use.id, text: outcome.text, isError: outcome.isError, ...images });
      stop = outcome.stop;
    }
    addMessage({ role: "user", content: results });
    return stop;
  }

  return {
    async prompt(text, signal, images = []) {
      if ((contextUse?.tokens ?? 0) >= limits.compactAtTokens) notice(await compact(signal));
      const context = startTurn();
      addMessage({ role: "user", content: [{ type: "text", text }, ...images.map((image): ImageBlock => ({ type: "image", image }))] });
      let reason: TurnEnd;
      try {
        reason = await runTurns(context, signal);
      } catch (error) {
        // Only a bug gets here (a listener that throws, say); the session still goes on.
        deps.emit({ type: "error", message: `Internal error: ${describeError(error)}` });
        messages = closeOpenToolUses(messages, unfinished);
        reason = "model_error";
      }
      await sealTurn(context);
      deps.emit({ type: "turn_end", reason });
      return reason;
    },
    call: (name, args, signal) => userCall(startTurn(), name, args, signal),
    async callAsPerson(name, args, signal, told) {
      // The person's "once" is given for them, and no approval line is shown: they typed the call themselves.
      const context: CallContext = { ...startTurn(), approve: async () => "once", emit: (event) => {
        if (event.type !== "approval") deps.emit(event);
      } };
      const report = await userCall(context, name, args, signal);
      const text = told(report);
      if (text !== null) addMessage({ role: "user", content: [{ type: "text", text }] });
      return report;
    },
    decide(name, args = {}) {
      const tool = findTool(name);
      return tool === undefined ? unknownToolDecision(name) : judgeCall(tool, args, deps.rules, sessionAllows, protectedFolders).decision;
    },
    sessionAllows: () => [...sessionAllows.keys(), ...(deps.otherSessionAllows?.() ?? [])],
    async undo() {
      const undone = await deps.snapshots.undoLatest();
      if (undone === null) return { nothingToUndo: true, restored: [], notUndoable: [] };
      record({ type: "notice", message: `undo: ${JSON.stringify(undone)}` });
      return { nothingToUndo: false, ...undone };
    },
    clear() {
      messages = [];
      contextUse = null;
      record({ type: "clear" });
    },
    compact,
    setTools: offer,
    hasTool: (name) => findTool(name) !== undefined,
    contextUse: () => contextUse,
    requestPreview: () => ({ ...requestHead(), messages }),
    get tools() {
      return tools;
    },
    get messages() {
      return messages;
    },
  };
}
