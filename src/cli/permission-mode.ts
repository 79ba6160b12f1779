// `--permission-mode`, as Claude Code names its modes, expressed as rules the gate already judges: each mode
// adds rules whose origin names it, so the gate stays as it is and every verdict says which mode decided.
// What no rule can loosen stays: deny and ask rules (strictest wins), protected paths, the sandbox.
import { parseRule, type Rule, type Tool } from "../kernel/index.js";
import type { SandboxAvailability } from "../tools/index.js";
import type { PermissionMode } from "./program.js";

/** What each mode adds, from the session's tools as they are at start. */
interface ModeRules {
  readonly origin: string;
  readonly rules: (tools: readonly Pick<Tool, "name" | "kind" | "source">[]) => readonly { readonly verdict: "allow" | "deny"; readonly text: string }[];
}

const MODES: Readonly<Record<PermissionMode, ModeRules>> = {
  default: { origin: "--permission-mode default", rules: () => [] },
  // Every tool that is not a local reading one is denied; `mcp__*` also covers a server's tools listed later.
  plan: {
    origin: "--permission-mode plan (read-only tools only)",
    rules: (tools) => [
      ...tools.filter((tool) => tool.kind !== "read" && !tool.name.startsWith("mcp__")).map((tool) => ({ verdict: "deny" as const, text: tool.name })),
      { verdict: "deny", text: "mcp__*" },
    ],
  },
  // A path glob's allow covers only paths inside the project (see the gate's subjectTexts), and a protected
  // folder's write still asks: only a person can allow it.
  acceptEdits: {
    origin: "--permission-mode acceptEdits (file edits in the project)",
    rules: (tools) => tools.filter((tool) => tool.kind === "write" && tool.source === "local").map((tool) => ({ verdict: "allow" as const, text: `${tool.name}(*)` })),
  },
  bypassPermissions: { origin: "--permission-mode bypassPermissions", rules: () => [{ verdict: "allow", text: "*" }] },
};

/** The rules a mode adds to the session's (none for default). */
export function permissionModeRules(mode: PermissionMode, tools: readonly Pick<Tool, "name" | "kind" | "source">[]): Rule[] {
  const { origin, rules } = MODES[mode];
  return rules(tools).map(({ verdict, text }) => {
    const rule = parseRule(text, verdict, origin);
    // The texts are built above from tool names, which are valid rule names by construction.
    if (rule instanceof Error) throw new Error(`permission mode ${mode}: ${rule.message}`);
    return rule;
  });
}

/** Told to the model, so that it plans instead of trying calls that are refused. */
export function permissionModeInstructions(mode: PermissionMode): string | undefined {
  return mode === "plan"
    ? "This session is in plan mode: only tools that read are allowed. Look at what you need, then present a plan of the changes and commands you would make; do not try to make them."
    : undefined;
}

/**
 * bypassPermissions allows every call the rules do not stop, so it needs the sandbox around `bash`: refused
 * when there is none (not installed, turned off, or not working here). Probing bubblewrap runs it once, so
 * this is asked only in this mode.
 */
export async function bypassRefusal(availability: SandboxAvailability): Promise<Error | null> {
  const refuse = (why: string): Error =>
    new Error(`--permission-mode bypassPermissions needs the sandbox around bash commands, and ${why}; allow what the run needs with --allowedTools instead`);
  switch (availability.kind) {
    case "seatbelt":
      return null;
    case "none":
      return refuse(`there is none: ${availability.why}`);
    case "bubblewrap": {
      const failure = await availability.works();
      return failure === null ? null : refuse(`bubblewrap does not work here: ${failure}`);
    }
    default: {
      const unknown: never = availability;
      throw new Error(`unknown sandbox ${JSON.stringify(unknown)}`);
    }
  }
}
