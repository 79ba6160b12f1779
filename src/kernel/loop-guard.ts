// Loop detection: identical calls (same tool, same arguments as stable JSON) are counted within one
// user prompt, so that a model repeating itself is told so, and then stopped.
import { createHash } from "node:crypto";
import { stableJson } from "./stable-json.js";
import type { ToolArgs, ToolResult } from "./tool.js";

// An identical call counts as a repeat only when it cannot learn anything new:
//  - nothing that could change its result ran since the previous identical call: no call of a write,
//    exec or remote tool that was actually started (denied calls change nothing). Such a call makes every
//    other call's result uncertain, but not its own: `bash make` five times over unchanged files is
//    still a loop;
//  - or, when something did run in between, the identical call returned exactly the same result again
//    (same text, same error flag); this is known only after it ran, so it is counted then.
// So `bash cat f` → `write_file f` → `bash cat f` → … runs as long as the file keeps changing. Over
// unchanged state the 3rd identical call is refused (not run) and the 5th ends the turn. A call whose
// repeat is only known afterwards is never refused; if it is the 5th, its result is given and the turn ends.

/** The 3rd identical call in one prompt is not run; the model gets an error result telling it to change approach. */
export const REPEAT_REFUSE_AT = 3;
/** The 5th identical call in one prompt ends the turn (turn_end "loop_limit"). */
export const REPEAT_STOP_AT = 5;

export type Repeat =
  | { readonly kind: "run" }
  | { readonly kind: "refuse"; readonly count: number }
  | { readonly kind: "stop"; readonly count: number };

/** What a call that got past the guard did, for the guard to judge the next identical call by. */
export interface CallEffect {
  readonly result: ToolResult;
  /** A write, exec or remote tool was started: any other call's result may differ now. */
  readonly mayChangeState: boolean;
}

export interface LoopGuard {
  /** Before a call: counts it when it is a repeat over unchanged state, and says what to do with it. */
  record(name: string, args: ToolArgs): Repeat;
  /** After a call that `record` let through: "stop" when it proved to be the last repeat allowed. */
  settle(name: string, args: ToolArgs, effect: CallEffect): Repeat;
  /** Forgets every count: called at each user prompt (and each `/call`). */
  reset(): void;
}

export interface RepeatThresholds {
  readonly refuseAt: number;
  readonly stopAt: number;
}

interface CallHistory {
  /** Identical calls counted so far in a row of repeats (the first call counts 1). */
  count: number;
  /** Digest of the last result; undefined until a call with these arguments has settled. */
  lastResult: string | undefined;
  /** Something that could change this call's result ran since it last ran. */
  uncertain: boolean;
}

export function createLoopGuard(thresholds: RepeatThresholds = { refuseAt: REPEAT_REFUSE_AT, stopAt: REPEAT_STOP_AT }): LoopGuard {
  const calls = new Map<string, CallHistory>();
  // The name is JSON-quoted so that no name/argument split can make two different calls one key.
  const keyOf = (name: string, args: ToolArgs): string => `${JSON.stringify(name)} ${stableJson(args)}`;
  return {
    record(name, args) {
      const key = keyOf(name, args);
      const history = calls.get(key);
      if (history === undefined) {
        calls.set(key, { count: 1, lastResult: undefined, uncertain: false });
        return { kind: "run" };
      }
      // Its result may differ this time: run it, and count it in `settle` if it does not.
      if (history.uncertain) return { kind: "run" };
      history.count += 1;
      if (history.count >= thresholds.stopAt) return { kind: "stop", count: history.count };
      if (history.count >= thresholds.refuseAt) return { kind: "refuse", count: history.count };
      return { kind: "run" };
    },
    settle(name, args, { result, mayChangeState }) {
      const key = keyOf(name, args);
      // A result's images count: the same line of text may stand for a page that changed.
      const hash = createHash("sha256").update(`${result.isError} ${result.text}`);
      for (const image of result.images ?? []) hash.update(`\n${image.mediaType} ${image.data}`);
      const digest = hash.digest("hex");
      let repeat: Repeat = { kind: "run" };
      const history = calls.get(key);
      if (history !== undefined) {
        if (history.uncertain) {
          history.count = digest === history.lastResult ? history.count + 1 : 1;
          history.uncertain = false;
          if (history.count >= thresholds.stopAt) repeat = { kind: "stop", count: history.count };
        }
        history.lastResult = digest;
      }
      if (mayChangeState) for (const [other, entry] of calls) if (other !== key) entry.uncertain = true;
      return repeat;
    },
    reset() {
      calls.clear();
    },
  };
}
