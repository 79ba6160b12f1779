// The approval gate's vocabulary: rules the user wrote, and the verdict for one call with its reason.

/** Ordered by strictness: when several of the user's rules match, the highest rank wins. */
export type Verdict = "allow" | "ask" | "deny";
export const VERDICT_RANK: Readonly<Record<Verdict, number>> = { allow: 0, ask: 1, deny: 2 };

export interface Rule {
  readonly verdict: Verdict;
  /** `read_file`, `mcp__notes__*`, `bash(git status*)`: a tool-name glob, optionally an argument glob. */
  readonly pattern: string;
  /** Where the rule came from, for the reason: a settings file path or a flag such as `--allow`. */
  readonly origin: string;
}

export interface Decision {
  readonly verdict: Verdict;
  /** Human-readable and stable: the winning rule and its origin, or the default for the tool's kind. */
  readonly reason: string;
}

/** The user's answer when the gate says ask; the CLI prompts, the kernel never does. */
export type ApprovalAnswer = "once" | "session" | "deny";
