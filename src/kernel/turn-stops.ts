// How far one user prompt may go before the kernel ends the turn by itself, and what the person and the model
// are told when a turn is stopped early. A prompt has no turn cap of its own: it runs until the model ends its
// turn, the loop guard stops it, the person interrupts, or a limit the user set (a turn count, a budget) is reached.
import { COMPACT_AT_TOKENS } from "./compaction.js";
import { REPEAT_REFUSE_AT, REPEAT_STOP_AT } from "./loop-guard.js";
import { abortedText, type CallOutcome } from "./tool-call.js";

export interface AgentLimits {
  /** Model turns per user prompt before the turn ends with "turn_limit" and a notice; null: no cap. */
  readonly maxTurnsPerPrompt: number | null;
  /** The nth identical call in one prompt that is refused (see createLoopGuard). */
  readonly repeatRefuseAt: number;
  /** The nth identical call in one prompt that ends the turn. */
  readonly repeatStopAt: number;
  /** Input tokens of the latest request from which the older turns are summarised before the next prompt. */
  readonly compactAtTokens: number;
}

export const DEFAULT_LIMITS: AgentLimits = {
  maxTurnsPerPrompt: null,
  repeatRefuseAt: REPEAT_REFUSE_AT,
  repeatStopAt: REPEAT_STOP_AT,
  compactAtTokens: COMPACT_AT_TOKENS,
};

/** The notice of a turn the loop guard stopped. */
export const LOOP_LIMIT_NOTICE = "Turn stopped: the model repeated the same tool call with the same arguments (loop limit).";

/** The notice of a prompt that reached the user's cap on model turns. */
export function turnLimitNotice(cap: number): string {
  return `Turn stopped after ${cap} model turns (the turn limit); send a message to continue, or raise the limit (--max-turns, "maxTurns").`;
}

/** The result of a call not run because an earlier one of the same reply ended the turn. */
export function notRunText(stop: NonNullable<CallOutcome["stop"]>, signal: AbortSignal): string {
  return stop === "aborted" ? `Not run: ${abortedText(signal)}` : "Not run: the turn was stopped because a call was repeated too often.";
}

/**
 * What the model reads at the end of an answer it was stopped in: the user's interrupt, or the reason given
 * (a signal mca received), so that it knows its words stop there and why.
 */
export function interruptedMark(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return typeof reason === "string" && reason !== "" ? `[interrupted: ${reason}]` : INTERRUPTED_MARK;
}

const INTERRUPTED_MARK = "[interrupted by the user]";
