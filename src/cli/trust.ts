// The trust step as the user meets it. A project's own mcp.config.json and .mca/settings.json start
// programs and widen permissions, so they take effect only once the user has seen what they would do and
// trusted the folder for these contents: the chat asks once; without a terminal they are skipped with one
// line naming `mca trust` (which shows the same summary and records the trust) and `--trust-project`.
import {
  PROJECT_FILES,
  PROJECT_MCP_CONFIG,
  PROJECT_SETTINGS,
  parseMcpConfig,
  parseSettings,
  projectFileRead,
  projectTrust,
  recordTrust,
  type ProjectFiles,
} from "../config/index.js";
import type { McpServerConfig } from "../mcp/index.js";
import type { Asker, Choice } from "./terminal.js";
import { untrustedText } from "./untrusted-text.js";

type Env = Readonly<Record<string, string | undefined>>;

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
 * Whether this run applies the project's own files (starts its servers, applies its allow rules), and the
 * files as they were read for that decision: the run takes them from here, never from a later read.
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
  // Nothing that would start or widen a permission (say, only deny rules): nothing to ask about.
  if (summary.widens === 0) return settled(true);
  if (deps.asker === undefined) {
    deps.warn(
      `mca: ${untrustedText(state.files.projectDir)} ${state.changed ? "changed since you trusted it" : "is not trusted"}: ` +
        "its MCP servers are not started and its allow rules are not applied; review and trust it with `mca trust`, or pass --trust-project for this run",
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
      deps.warn("mca: not trusted: starting without the project's MCP servers and allow rules");
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
  { title: "Do not trust: start without its servers and allow rules", value: "no" },
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

interface TrustSummary {
  readonly lines: readonly string[];
  /** How many servers would start and allow rules would apply. */
  readonly widens: number;
}

/**
 * What trusting the folder would do, as the user must see it before saying yes: each server's command and
 * arguments or URL, with the names (never the values) of its env and headers; each allow rule. Every word
 * comes from the repository, so each is printed through untrustedText.
 */
function summarise(files: ProjectFiles, deps: Pick<TrustDeps, "projectDir" | "env" | "mcpConfigFlag">): TrustSummary {
  const lines = [`This folder has its own mca configuration: ${untrustedText(files.projectDir)}`];
  let widens = 0;
  const config = projectFileRead(files, PROJECT_MCP_CONFIG);
  // Shown with --mcp-config too: the trust recorded covers the file, and it takes effect in the next run without the flag.
  if (config !== null) {
    const servers = projectServers(config.text, config.path, deps.env);
    if (servers instanceof Error) {
      lines.push(`  ${PROJECT_MCP_CONFIG} cannot be read: ${untrustedText(servers.message)}`);
      widens += 1;
    } else {
      const enabled = servers.filter((server) => server.enabled);
      widens += enabled.length;
      const notNow = deps.mcpConfigFlag === undefined ? "" : " (not in this run: --mcp-config replaces it)";
      lines.push(`  ${PROJECT_MCP_CONFIG} would start ${enabled.length === 0 ? "no servers" : "these MCP servers"}${notNow}${enabled.length === 0 ? "" : ":"}`);
      for (const server of enabled) lines.push(`    ${describeServer(server)}`);
    }
  }
  const settings = projectFileRead(files, PROJECT_SETTINGS);
  if (settings !== null) {
    const rules = settings.text instanceof Error ? settings.text : parseSettings(settings.text, settings.path);
    if (rules instanceof Error) {
      lines.push(`  ${PROJECT_SETTINGS} cannot be read: ${untrustedText(rules.message)}`);
    } else {
      const allows = rules.filter((rule) => rule.verdict === "allow");
      widens += allows.length;
      lines.push(`  ${PROJECT_SETTINGS} would allow without asking ${allows.length === 0 ? "nothing" : "these calls:"}`);
      for (const rule of allows) lines.push(`    ${untrustedText(rule.pattern.text)}`);
      lines.push("  (its deny and ask rules apply whether or not you trust it)");
    }
  }
  return { lines, widens };
}

/**
 * The servers as written: each `${VAR}` the environment defines stays a `${VAR}` placeholder, so no value of
 * the user's environment is shown, while a variable that is not set fails here as it would in the real run.
 */
function projectServers(text: string | Error, file: string, env: Env): readonly McpServerConfig[] | Error {
  if (text instanceof Error) return text;
  const placeholders = Object.fromEntries(Object.keys(env).map((name) => [name, `\${${name}}`]));
  const config = parseMcpConfig(text, file, placeholders);
  return config instanceof Error ? config : config.servers;
}

function describeServer(server: McpServerConfig): string {
  const shown = (text: string): string => untrustedText(JSON.stringify(text));
  switch (server.transport) {
    case "stdio": {
      const env = Object.keys(server.env);
      const command = [server.command, ...server.args].map(shown).join(" ");
      return `${untrustedText(server.alias)} (stdio): ${command}${env.length === 0 ? "" : `  env: ${env.map(untrustedText).join(", ")}`}`;
    }
    case "http": {
      const headers = Object.keys(server.headers);
      return `${untrustedText(server.alias)} (http): ${shown(server.url)}${headers.length === 0 ? "" : `  headers: ${headers.map(untrustedText).join(", ")}`}`;
    }
    default: {
      const unknown: never = server;
      throw new Error(`unknown server ${JSON.stringify(unknown)}`);
    }
  }
}
