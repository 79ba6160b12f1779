// Remembers how the last turn ended, so a prompt line can count as failed in pipe mode and `-p`.
import type { AgentEvent } from "../kernel/index.js";

export type TurnEndReason = Extract<AgentEvent, { type: "turn_end" }>["reason"];

export interface TurnTracker {
  readonly observe: (event: AgentEvent) => void;
  readonly lastEnd: () => TurnEndReason | undefined;
}

export function createTurnTracker(): TurnTracker {
  let last: TurnEndReason | undefined;
  return {
    observe(event) {
      if (event.type === "turn_end") last = event.reason;
    },
    lastEnd: () => last,
  };
}
