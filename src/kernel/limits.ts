// How far one user prompt may go before the kernel ends the turn by itself.
import { REPEAT_REFUSE_AT, REPEAT_STOP_AT } from "./loop-guard.js";

/** Model turns per user prompt before the turn ends with "turn_limit" and a notice. */
export const MAX_TURNS_PER_PROMPT = 25;

export interface AgentLimits {
  readonly maxTurnsPerPrompt: number;
  /** The nth identical call in one prompt that is refused (see loop-guard.ts). */
  readonly repeatRefuseAt: number;
  /** The nth identical call in one prompt that ends the turn. */
  readonly repeatStopAt: number;
}

export const DEFAULT_LIMITS: AgentLimits = {
  maxTurnsPerPrompt: MAX_TURNS_PER_PROMPT,
  repeatRefuseAt: REPEAT_REFUSE_AT,
  repeatStopAt: REPEAT_STOP_AT,
};
