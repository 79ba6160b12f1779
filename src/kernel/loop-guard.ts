// Loop detection: counts identical calls (same tool, same arguments as stable JSON) within one user
// prompt, so that a model repeating itself is told so, and then stopped.
import { stableJson } from "./stable-json.js";
import type { ToolArgs } from "./tool.js";

/** The 3rd identical call in one prompt is not run; the model gets an error result telling it to change approach. */
export const REPEAT_REFUSE_AT = 3;
/** The 5th identical call in one prompt ends the turn (turn_end "loop_limit"). */
export const REPEAT_STOP_AT = 5;

export type Repeat =
  | { readonly kind: "run" }
  | { readonly kind: "refuse"; readonly count: number }
  | { readonly kind: "stop"; readonly count: number };

export interface LoopGuard {
  /** Counts this call and says what to do with it. */
  record(name: string, args: ToolArgs): Repeat;
  /** Forgets every count: called at each user prompt (and each `/call`). */
  reset(): void;
}

export interface RepeatThresholds {
  readonly refuseAt: number;
  readonly stopAt: number;
}

export function createLoopGuard(thresholds: RepeatThresholds = { refuseAt: REPEAT_REFUSE_AT, stopAt: REPEAT_STOP_AT }): LoopGuard {
  const counts = new Map<string, number>();
  return {
    record(name, args) {
      // The name is JSON-quoted so that no name/argument split can make two different calls one key.
      const key = `${JSON.stringify(name)} ${stableJson(args)}`;
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      if (count >= thresholds.stopAt) return { kind: "stop", count };
      if (count >= thresholds.refuseAt) return { kind: "refuse", count };
      return { kind: "run" };
    },
    reset() {
      counts.clear();
    },
  };
}
