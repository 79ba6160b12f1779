// One tool call, the same path for the model's calls and the user's `/call`: loop guard, lookup,
// argument check (once), approval gate (once), snapshots, the run itself, then the one truncation site.
// Every failure becomes an error result the model can read; nothing here throws into the loop.
import { callSubject, decide, outdatedSessionAllow, sessionAllowFor, sessionAllowText, unknownToolDecision, type ApprovalAnswer, type Decision, type ProtectedFolder, type SessionAllow, type SessionAllows } from "./gate.js";
import type { Rule } from "./rule.js";
import type { LoopGuard } from "./loop-guard.js";
import type { AgentEvent, SnapshotStore, SpillStore, TranscriptEntry } from "./ports.js";
import type { Redact } from "./redaction.js";
import { describeError, settle } from "./settle.js";
import { imageInfo, parseToolArgs, type Tool, type ToolArgs, type ToolDefinition, type ToolImage, type ToolResult } from "./tool.js";

export const ABORTED_TEXT = "Aborted by the user.";

/**
 * What the model reads for a call stopped by `signal`: a stop the user asked for (no reason given) is
 * ABORTED_TEXT; one with a reason given as a sentence (a signal mca received, say) names it, so the model
 * never blames the user for it.
 */
export function abortedText(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return typeof reason === "string" && reason !== "" ? `Stopped: ${reason}.` : ABORTED_TEXT;
}

/**
 * The approver's word when there was nobody to ask (no terminal): the call is not run, and `reason` says
 * why and how the user can allow it, for the model and the transcript alike.
 */
export interface NobodyToAsk {
  readonly kind: "nobody_to_ask";
  readonly reason: string;
}

/** "Deny, and tell the model why": the user's own sentence goes into the result the model reads. */
export interface UserDenial {
  readonly kind: "denied";
  readonly because: string;
}

/** What the approver can answer: the user's answer, a denial with the user's reason, or that nobody could be asked. */
export type ApproverReply = ApprovalAnswer | NobodyToAsk | UserDenial;

export interface ApprovalRequest {
  readonly tool: Tool;
  readonly args: ToolArgs;
  readonly decision: Decision;
  /** What the choice "allow for this session" would allow; null: the choice is not offered. */
  readonly sessionAllow: SessionAllow | null;
  /** The tool's definition when the user allowed it for this session, when its server has changed it since. */
  readonly definitionBefore?: ToolDefinition;
}

/** What a call needs from the agent; `sessionAllows` grows when the user answers "session". */
export interface CallContext {
  /** The tool a name stands for: one the model was given, or one the composer supplies for a name it knows. */
  readonly findTool: (name: string) => Tool | undefined;
  readonly rules: readonly Rule[];
  readonly protectedFolders: () => readonly ProtectedFolder[];
  readonly sessionAllows: Map<string, SessionAllow>;
  readonly guard: LoopGuard;
  readonly snapshots: SnapshotStore;
  readonly approve: (request: ApprovalRequest) => Promise<ApproverReply>;
  readonly emit: (event: AgentEvent) => void;
  readonly record: (entry: TranscriptEntry) => void;
  readonly turn: number;
  /** Applied to every result text before it is truncated, so no cut can leave part of a secret. */
  readonly redact?: Redact;
  /** Where a result over the budget is kept whole (redacted); without it, the rest is only cut. */
  readonly spill?: SpillStore;
}

export interface ToolCallRequest {
  readonly id: string;
  readonly name: string;
  readonly args: ToolArgs;
}

export interface CallOutcome {
  readonly isError: boolean;
  /** The text exactly as the model receives it. */
  readonly text: string;
  readonly truncated: boolean;
  /** Images the model receives after the text; outside the text's budget. */
  readonly images: readonly ToolImage[];
  readonly decision: Decision;
  /** Set when this call ends the turn. */
  readonly stop: "loop_limit" | "aborted" | null;
}

interface Attempt {
  readonly result: ToolResult;
  readonly stop: CallOutcome["stop"];
}

export async function runToolCall(context: CallContext, call: ToolCallRequest, signal: AbortSignal): Promise<CallOutcome> {
  const { id: callId, name, args } = call;
  context.emit({ type: "tool_start", callId, tool: name, args });
  context.record({ type: "tool_call", callId, tool: name, args });
  const tool = context.findTool(name);
  let decision = tool === undefined ? unknownToolDecision(name) : NOT_JUDGED;
  let attempt: Attempt;
  try {
    const judged = tool === undefined ? undefined : judgeCall(tool, args, context.rules, context.sessionAllows, context.protectedFolders);
    if (judged !== undefined) decision = judged.decision;
    attempt = await attemptCall(context, call, tool && judged && { ...judged, tool }, decision, signal);
  } catch (error) {
    // A bug or broken infrastructure (a snapshot store, an approval prompt): still a result, never a crash.
    attempt = { result: failure(`Internal error while calling ${name}: ${describeError(error)}`), stop: null };
  }
  const shown = context.redact === undefined ? attempt.result.text : context.redact(attempt.result.text);
  const spill = shown.length > MAX_RESULT_CHARS ? await spillWhole(context.spill, callId, shown) : undefined;
  const { text, truncated } = truncateResult(shown, spill);
  const isError = attempt.result.isError;
  const images = attempt.result.images ?? [];
  const told = images.length === 0 ? {} : { images: images.map(imageInfo) };
  context.emit({ type: "tool_end", callId, tool: name, isError, text, truncated, ...(spill === undefined ? {} : { spill }), ...told });
  context.record({ type: "tool_result", callId, tool: name, isError, text, truncated, ...told });
  return { isError, text, truncated, images, decision, stop: attempt.stop };
}

/** Stands in for the verdict when judging the call itself failed (a bug); the call is not run then. */
const NOT_JUDGED: Decision = { verdict: "deny", reason: "the call could not be judged" };

export interface JudgedCall {
  /** The arguments as the tool's `parse` made them, or its Error. */
  readonly parsed: ToolArgs | Error;
  readonly decision: Decision;
  /** What "allow for this session" would allow of this call; null when it is not offered. */
  readonly sessionAllow: SessionAllow | null;
  /** See ApprovalRequest. */
  readonly definitionBefore?: ToolDefinition;
}

/**
 * The arguments checked once and the gate's verdict on what the call really touches (the tool's
 * `gateSubject` when the arguments parsed). Arguments that do not parse are judged as written: the
 * call fails anyway, and the verdict is only reported.
 */
export function judgeCall(
  tool: Tool,
  args: ToolArgs,
  rules: readonly Rule[],
  sessionAllows: SessionAllows,
  protectedFolders: () => readonly ProtectedFolder[],
): JudgedCall {
  const parsed = parseToolArgs(tool, args);
  const subject = callSubject(tool, args, parsed);
  const decision = decide(tool, subject, rules, sessionAllows, protectedFolders);
  // What only a person can allow (a protected write) offers no session allow: it would cover every other write.
  const sessionAllow = decision.onlyAPersonCanAllow === true ? null : sessionAllowFor(tool, subject);
  const before = outdatedSessionAllow(tool, subject, sessionAllows)?.definition;
  return { parsed, decision, sessionAllow, ...(before === undefined ? {} : { definitionBefore: before }) };
}

interface ParsedCall extends Omit<JudgedCall, "decision"> {
  readonly tool: Tool;
}

async function attemptCall(
  context: CallContext,
  call: ToolCallRequest,
  target: ParsedCall | undefined,
  decision: Decision,
  signal: AbortSignal,
): Promise<Attempt> {
  const { name, args } = call;
  const repeat = context.guard.record(name, args);
  switch (repeat.kind) {
    case "stop":
      return { result: failure(`Stopped: ${name} was called ${repeat.count} times with the same arguments; the turn is over.`), stop: "loop_limit" };
    case "refuse":
      return {
        result: failure(
          `Not run: this is call number ${repeat.count} of ${name} with exactly these arguments in this request, ` +
            "and nothing that could change its result (a write, a command or a remote call) ran since the last one. " +
            "You are repeating yourself; the result will not change. Change your approach.",
        ),
        stop: null,
      };
    case "run":
      break;
    default: {
      const unknown: never = repeat;
      throw new Error(`unknown repeat ${JSON.stringify(unknown)}`);
    }
  }
  const { attempt, started } = await attemptPastLoopGuard(context, call, target, decision, signal);
  const mayChangeState = started && target !== undefined && target.tool.kind !== "read";
  const afterwards = context.guard.settle(name, args, { result: attempt.result, mayChangeState });
  if (afterwards.kind !== "stop" || attempt.stop !== null) return attempt;
  // Known only now: the same result again, for the last time allowed. The model still gets the result.
  const stopped = `Stopped: ${name} was called ${afterwards.count} times with the same arguments and returned the same result each time; the turn is over.`;
  return { result: { ...attempt.result, text: `${attempt.result.text}\n\n${stopped}` }, stop: "loop_limit" };
}

/** The call once the loop guard let it through; `started` says whether the tool's run began. */
async function attemptPastLoopGuard(
  context: CallContext,
  call: ToolCallRequest,
  target: ParsedCall | undefined,
  decision: Decision,
  signal: AbortSignal,
): Promise<{ readonly attempt: Attempt; readonly started: boolean }> {
  const notStarted = (attempt: Attempt) => ({ attempt, started: false });
  const { id: callId, name, args } = call;
  if (target === undefined) return notStarted({ result: failure(`Unknown tool ${JSON.stringify(name)}: call one of the tools you were given.`), stop: null });
  const { tool, parsed, sessionAllow, definitionBefore } = target;
  if (parsed instanceof Error) return notStarted({ result: failure(`Invalid arguments for ${name}: ${parsed.message}.`), stop: null });

  const before = definitionBefore === undefined ? {} : { definitionBefore };
  const permission = await askPermission(context, callId, { tool, args, decision, sessionAllow, ...before }, signal);
  if (permission !== "run") return notStarted(permission);

  const changed = tool.changes?.(parsed) ?? [];
  for (const path of changed) {
    try {
      await context.snapshots.save(context.turn, path);
    } catch (error) {
      return notStarted({ result: failure(`Not run: could not save ${path} for /undo first (${describeError(error)}).`), stop: null });
    }
  }
  // Recorded before the run: a command that is interrupted may still have changed things.
  if (tool.kind === "remote" || tool.kind === "exec") {
    try {
      await context.snapshots.note(context.turn, { kind: tool.kind === "remote" ? "remote" : "command", tool: tool.name });
    } catch (error) {
      return notStarted({ result: failure(`Not run: could not record the call for /undo first (${describeError(error)}).`), stop: null });
    }
  }

  const onProgress = (message: string): void => context.emit({ type: "tool_progress", callId, message });
  context.record({ type: "call_started", callId, tool: name });
  const settled = await settle(() => tool.run(parsed, { signal, onProgress }), signal);
  switch (settled.kind) {
    case "done":
      return { attempt: { result: settled.value, stop: null }, started: true };
    case "failed":
      return { attempt: { result: failure(`${name} failed: ${describeError(settled.error)}`), stop: null }, started: true };
    case "aborted":
      return { attempt: { result: failure(abortedText(signal)), stop: "aborted" }, started: true };
    default: {
      const unknown: never = settled;
      throw new Error(`unknown settlement ${JSON.stringify(unknown)}`);
    }
  }
}

/** "run", or the result that replaces the call: denied by a rule, denied by the user, or aborted while asking. */
async function askPermission(context: CallContext, callId: string, request: ApprovalRequest, signal: AbortSignal): Promise<"run" | Attempt> {
  const { tool, decision, sessionAllow } = request;
  switch (decision.verdict) {
    case "allow":
      context.record({ type: "decision", callId, tool: tool.name, decision });
      return "run";
    case "deny":
      context.record({ type: "decision", callId, tool: tool.name, decision });
      context.emit({ type: "approval", callId, tool: tool.name, decision });
      return { result: failure(`Denied by the approval gate: ${decision.reason}.`), stop: null };
    case "ask":
      break;
    default: {
      const unknown: never = decision.verdict;
      throw new Error(`unknown verdict ${JSON.stringify(unknown)}`);
    }
  }
  const settled = await settle(() => context.approve(request), signal);
  if (settled.kind === "aborted") return { result: failure(abortedText(signal)), stop: "aborted" };
  // A prompt that fails (a closed input, say) is a no, and nobody said it: the result says what happened.
  const given: ApproverReply =
    settled.kind === "done" ? settled.value : { kind: "nobody_to_ask", reason: `the approval question failed (${describeError(settled.error)})` };
  const answer: ApprovalAnswer = typeof given === "string" ? given : "deny";
  context.record({ type: "decision", callId, tool: tool.name, decision, answer });
  context.emit({ type: "approval", callId, tool: tool.name, decision, answer });
  switch (answer) {
    case "session":
      // An answer of "session" where the choice was not offered (an approver that ignores the offer) counts once.
      if (sessionAllow !== null) context.sessionAllows.set(sessionAllowText(sessionAllow), sessionAllow);
      return "run";
    case "once":
    // Offered only for a domain's question, never for a call: given here, it counts once, as an answer not offered does.
    case "always":
      return "run";
    case "deny":
      return { result: failure(denialText(given)), stop: null };
    default: {
      const unknown: never = answer;
      throw new Error(`unknown approval answer ${JSON.stringify(unknown)}`);
    }
  }
}

function denialText(given: ApproverReply): string {
  if (typeof given === "string") return "Denied by the user.";
  if (given.kind === "denied") return `Denied by the user, who said: ${JSON.stringify(given.because)}`;
  return `Not run: ${given.reason}.`;
}

function failure(text: string): ToolResult {
  return { text, isError: true };
}

// The one truncation site: every tool result, local or remote, goes through here before the model or
// the user sees it, so they all share one budget. The budget is for text: a result's images go to the
// model whole, already checked against the model's own limits where they were received.

export const MAX_RESULT_CHARS = 8000;

export interface TruncatedText {
  readonly text: string;
  readonly truncated: boolean;
}

/**
 * At most MAX_RESULT_CHARS characters (UTF-16 code units) of body, then the sentence
 * `\n\n[<N> more characters were cut to fit the budget]`. A surrogate pair is never split: the body
 * stops one unit short instead, and that unit is counted in N. When the whole text was kept at `spill`, the
 * sentence goes on to say how to read the rest: a read_file of that path from the line the cut falls in.
 */
export function truncateResult(text: string, spill?: string): TruncatedText {
  if (text.length <= MAX_RESULT_CHARS) return { text, truncated: false };
  const end = isHighSurrogate(text.charCodeAt(MAX_RESULT_CHARS - 1)) ? MAX_RESULT_CHARS - 1 : MAX_RESULT_CHARS;
  const cut = text.length - end;
  const body = text.slice(0, end);
  const note = `${cut} more characters were cut to fit the budget`;
  if (spill === undefined) return { text: `${body}\n\n[${note}]`, truncated: true };
  const line = body.split("\n").length;
  const call = JSON.stringify({ path: spill, offset: line });
  return { text: `${body}\n\n[${note}. The whole result is kept in ${spill}: read the rest with read_file ${call} (allowed without asking)]`, truncated: true };
}

/** The path the whole text was kept at; undefined when it could not be (the result is then only cut). */
async function spillWhole(store: SpillStore | undefined, callId: string, text: string): Promise<string | undefined> {
  if (store === undefined) return undefined;
  try {
    return await store.spill(callId, text);
  } catch {
    // Keeping the rest is a help, not a condition: the model still gets the budget's worth.
    return undefined;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

