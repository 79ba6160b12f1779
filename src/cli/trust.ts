// The trust step as the user meets it. A project's own mcp.config.json and .mca/settings.json start
// programs and widen what mca may do (allow rules, the sandbox, any settings key that is not a deny or ask
// rule), so they take effect only once the user has seen what they would do and trusted the folder for
// these contents: the chat asks once; without a terminal they are skipped with one
// line naming `mca trust` (which shows the same summary and records the trust) and `--trust-project`.
// Files that cannot be read are never offered: what the user cannot be shown cannot be trusted.
import { PROJECT_FILES, projectTrust, recordTrust, type ProjectFiles } from "../config/index.js";
import type { Asker, Choice } from "./terminal.js";
import { summarise } from "./trust-summary.js";
import { untrustedText } from "./untrusted-text.js";

type Env = Readonly<Record<string, string | undefined>>;

/** What an untrusted project's files do not do; its deny and ask rules apply all the same. */
const NOT_APPLIED = "its MCP servers are not started, and its allow rules and other settings that widen (sandbox, toolSearch, …) are not applied";

export interface TrustDeps {
  readonly projectDir: string;
  readonly env: Env;
  /** `--mcp-config`: the user's own choice, which replaces the project's mcp.config.json. */
  readonly mcpConfigFlag: string | undefined;
  /** `--trust-project`: trusted for this run, nothing recorded. */
  readonly trustFlag: boolean;
  /** The chat's terminal, to ask on; undefined without one. */
  readonly asker: Asker | undefined;
  readonly warn: (line: string) => void;
  readonly now: () => Date;
}

/**
 * Whether this run applies the project's own files (starts its servers, applies its settings that widen), and
 * the files as they were read for that decision: the run takes them from here, never from a later read.
 */
export interface SettledTrust {
  readonly trusted: boolean;
  /** Null when the project has none of its own files. */
  readonly files: ProjectFiles | null;
}

export async function settleProjectTrust(deps: TrustDeps): Promise<SettledTrust | Error> {
  const state = projectTrust(deps.projectDir, deps.env);
  if (state instanceof Error) return state;
  if (state.kind === "no-project-files") return { trusted: true, files: null };
  const settled = (trusted: boolean): SettledTrust => ({ trusted, files: state.files });
  if (state.kind === "trusted" || deps.trustFlag) return settled(true);
  const summary = summarise(state.files, deps);
  // What cannot be read cannot be shown, so it is not offered: a trust recorded for it would cover what was never seen.
  if (summary.unreadable.length > 0) {
    deps.warn(`mca: ${notOffered(state.files, summary.unreadable)}: ${NOT_APPLIED}`);
    return settled(false);
  }
  // Nothing that would start or widen anything (say, only deny and ask rules): nothing to ask about.
  if (summary.widens === 0) return settled(true);
  if (deps.asker === undefined) {
    deps.warn(
      `mca: ${untrustedText(state.files.projectDir)} ${state.changed ? "changed since you trusted it" : "is not trusted"}: ` +
        `${NOT_APPLIED}; review and trust it with \`mca trust\`, or pass --trust-project for this run`,
    );
    return settled(false);
  }
  deps.asker.say(summary.lines.join("\n"));
  const answer = await deps.asker.select(state.changed ? "These files changed since you trusted them. Trust them now?" : "Trust this folder?", TRUST_CHOICES, 2);
  switch (answer) {
    case "remember": {
      const recorded = await recordTrust(state.files, deps.env, deps.now());
      if (recorded instanceof Error) deps.warn(`mca: ${recorded.message} (trusted for this session only)`);
      return settled(true);
    }
    case "session":
      return settled(true);
    case "no":
    case undefined:
      deps.warn("mca: not trusted: starting without the project's MCP servers, allow rules and other settings that widen");
      return settled(false);
    default: {
      const unknown: never = answer;
      throw new Error(`unknown trust answer ${JSON.stringify(unknown)}`);
    }
  }
}

const TRUST_CHOICES: ReadonlyArray<Choice<"remember" | "session" | "no">> = [
  { title: "Trust, and remember until these files change", value: "remember" },
  { title: "Trust for this session only", value: "session" },
  { title: "Do not trust: start without its servers, allow rules and other settings that widen", value: "no" },
];

export interface TrustCommandDeps {
  readonly projectDir: string;
  readonly env: Env;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly now: () => Date;
}

/** `mca trust`: shows what the project's files would do, then records the trust for exactly these contents. */
export async function runTrustCommand(deps: TrustCommandDeps): Promise<number> {
  const state = projectTrust(deps.projectDir, deps.env);
  if (state instanceof Error) {
    deps.err(`mca: ${state.message}\n`);
    return 1;
  }
  if (state.kind === "no-project-files") {
    deps.out(`nothing to trust: ${untrustedText(deps.projectDir)} has no ${PROJECT_FILES.join(" or ")}\n`);
    return 0;
  }
  const summary = summarise(state.files, { ...deps, mcpConfigFlag: undefined });
  deps.out(`${summary.lines.join("\n")}\n`);
  if (summary.unreadable.length > 0) {
    deps.err(`mca: ${notOffered(state.files, summary.unreadable)}; nothing is recorded\n`);
    return 1;
  }
  if (state.kind === "trusted") {
    deps.out("already trusted for these contents\n");
    return 0;
  }
  const recorded = await recordTrust(state.files, deps.env, deps.now());
  if (recorded instanceof Error) {
    deps.err(`mca: ${recorded.message}\n`);
    return 1;
  }
  deps.out("trusted: these files take effect until they change\n");
  return 0;
}

function notOffered(files: ProjectFiles, unreadable: readonly string[]): string {
  return `${untrustedText(files.projectDir)} is not offered for trust until its files can be read (${untrustedText(unreadable.join("; "))})`;
}
