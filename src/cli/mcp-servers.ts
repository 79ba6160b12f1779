// The run's MCP servers as the CLI mounts and shows them: the config found (every scope, or --mcp-config)
// and mounted at start-up, and each server's health read afresh whenever a view is drawn (`/mcp`,
// `mca mcp list`), so a server that died since start-up shows as disconnected.
import { join, relative, resolve } from "node:path";
import {
  ConfigError,
  loadMcpSettings,
  mergeScopes,
  neededInputs,
  projectReadOrder,
  readConfigText,
  readPins,
  readScopeSource,
  unreadHostFiles,
  userScopeSources,
  userSettingsFile,
  type InputAnswers as TypedAnswers,
  type McpConfig,
  type McpConfigFile,
  type McpInput,
  type ScopeSource,
  type ServerOrigin,
  type ServerScope,
} from "../config/index.js";
import {
  aliasOverlapWarnings,
  formatLogEntry,
  isLegacyVersion,
  isShownAsItComes,
  mountServers,
  pidNamespaceLauncher,
  rootsPerServer,
  sanitizeAlias,
  type Bubblewrap,
  type InputResponder,
  type LoginDeps,
  type MountedServers,
  type ServerStatus as McpServerStatus,
  type StdioLauncher,
} from "../mcp/index.js";
import { unknownAliasError, type InputAnswers } from "./input/answers-file.js";
import type { SettledTrust } from "./trust.js";
import { untrustedText } from "./untrusted-text.js";

/** A server as `/mcp` and `mca mcp list` show it: one mca started, or one its config disables, with where it is written. */
export type ServerStatus = Omit<McpServerStatus, "state"> & {
  readonly state: McpServerStatus["state"] | "disabled";
  readonly scope?: ServerScope;
  readonly file?: string;
};

/** The run's config, with where each of its servers is written. */
export interface ScopedMcpConfig extends McpConfigFile {
  readonly origins: ReadonlyMap<string, ServerOrigin>;
}

/** What start-up found: the servers (null when none is configured), the files it looked at, and what the user typed for inputs. */
export interface ConfiguredServerFiles {
  readonly config: ScopedMcpConfig | null;
  /** Every file read or looked for, so that "no MCP servers configured" can name them. */
  readonly lookedAt: readonly string[];
  /** The answers typed for VS Code inputs: secrets, for the redactor. */
  readonly typed: readonly string[];
}

/** Asks for one input in the terminal, hidden when it is a password; undefined when the user gives none. */
export type InputAsker = (input: McpInput, file: string) => Promise<string | undefined>;

export interface MountDeps {
  readonly projectDir: string;
  /** `--mcp-config` (repeatable): only these files' servers run; none given, the scopes'. */
  readonly configPaths: readonly string[];
  /** The project's own mcp.config.json and .mcp.json as read for the trust decision, used only when trusted; `--mcp-config` needs no trust. */
  readonly project: SettledTrust;
  /** Asks for the VS Code inputs a config uses; absent without a terminal, where an entry using one is skipped naming it. */
  readonly askInput?: InputAsker;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly clientVersion: string;
  readonly warn: (text: string) => void;
  /** Answers the servers' input requests; what it supports is what every request declares. */
  readonly inputResponder?: InputResponder;
  /** `--input-responses`: each alias it names must be a server of the config. */
  readonly inputAnswers?: InputAnswers;
  /** MCP authorization for HTTP servers that answer 401: stored logins, and how new tokens join the redaction set. */
  readonly logins?: LoginDeps;
  /** What runs each stdio server (a PID namespace of its own, stdioLauncher below); absent: the command as it is. */
  readonly stdioLauncher?: StdioLauncher;
  /** `--verbose`: every log message of the servers shown as it comes, not only warnings and above. */
  readonly verbose?: boolean;
}

type ReadDeps = Pick<MountDeps, "projectDir" | "configPaths" | "env" | "project" | "askInput" | "warn">;

/**
 * The files this run reads: `--mcp-config` alone when it is given (only the servers it names run, as with
 * Claude Code's --strict-mcp-config); otherwise the local scope's, the project's two when trusted, and the user's.
 */
function sources(deps: ReadDeps): { readonly read: ScopeSource[]; readonly notRead: ScopeSource[]; readonly lookedAt: string[] } {
  const { user, local } = userScopeSources(deps);
  if (deps.configPaths.length > 0) {
    const flagged = deps.configPaths.map((path): ScopeSource => {
      const file = resolve(deps.projectDir, path);
      const text = readConfigText(file, "cannot read the file") ?? new ConfigError(file, "", "cannot read the file: ENOENT: no such file or directory");
      return { scope: "flag", file, text };
    });
    return { read: flagged, notRead: [user, local], lookedAt: flagged.map((source) => source.file) };
  }
  const files = deps.project.files;
  const project =
    files === null || !deps.project.trusted
      ? []
      : projectReadOrder(files.projectDir).flatMap((file): ScopeSource[] => {
          const text = files.texts.get(file);
          return text === undefined ? [] : [{ scope: "project", file, text }];
        });
  return { read: [local, ...project, user], notRead: [], lookedAt: [local.file, ...projectReadOrder(deps.projectDir), user.file] };
}

/** Each input a file's enabled entries use, asked once; none without a terminal. */
async function answersFor(source: ScopeSource, ask: InputAsker | undefined, typed: string[]): Promise<TypedAnswers | undefined> {
  if (typeof source.text !== "string" || ask === undefined) return undefined;
  const answers = new Map<string, string>();
  for (const input of neededInputs(source.text, source.file)) {
    const answer = await ask(input, source.file);
    if (answer === undefined) continue;
    answers.set(input.id, answer);
    typed.push(answer);
  }
  return answers;
}

async function readMcpConfig(deps: ReadDeps): Promise<ConfiguredServerFiles | Error> {
  const { read, notRead, lookedAt } = sources(deps);
  const typed: string[] = [];
  const configs: { source: ScopeSource; config: McpConfigFile }[] = [];
  for (const source of read) {
    const config = readScopeSource(source, deps, await answersFor(source, deps.askInput, typed));
    if (config instanceof Error) return config;
    if (config !== null) configs.push({ source, config });
  }
  const unread = notRead.flatMap((source) => {
    const config = readScopeSource(source, deps);
    return config === null || config instanceof Error ? [] : [...config.servers, ...config.skipped].map((server) => server.alias);
  });
  if (unread.length > 0) deps.warn(untrustedText(`mcp: --mcp-config names this run's servers: the user's and local scope's (${unread.join(", ")}) are not started`));
  const twice = aliasInTwoFlagFiles(configs);
  if (twice !== undefined) return twice;
  const merged = mergeScopes(configs);
  for (const line of merged.overrides) deps.warn(untrustedText(`mcp: ${line}`));
  const configured = new Set([...merged.config.servers, ...merged.config.skipped].map((server) => server.alias));
  for (const host of unreadHostFiles(deps.projectDir, configured)) {
    deps.warn(untrustedText(`mcp: ${relative(deps.projectDir, host.file)} has MCP servers mca does not read (${host.aliases.join(", ")}): bring them in with \`mca mcp import ${host.host}\``));
  }
  const empty = configured.size === 0;
  return { config: empty ? null : { ...merged.config, origins: merged.origins }, lookedAt, typed };
}

/**
 * Two `--mcp-config` files naming one server (or two names giving the same tool names): the user gave both on
 * the command line, so neither wins quietly — an Error naming the alias and both files.
 */
function aliasInTwoFlagFiles(configs: readonly { readonly source: ScopeSource; readonly config: McpConfigFile }[]): ConfigError | undefined {
  const seen = new Map<string, { readonly alias: string; readonly file: string }>();
  for (const { source, config } of configs) {
    if (source.scope !== "flag") continue;
    for (const { alias } of [...config.servers, ...config.skipped]) {
      const before = seen.get(sanitizeAlias(alias));
      if (before !== undefined && before.file !== source.file) {
        return new ConfigError(source.file, `mcpServers.${alias}`, `server "${alias}" is also in ${before.file} ("${before.alias}"), given with --mcp-config too: keep it in one of them`);
      }
      seen.set(sanitizeAlias(alias), { alias, file: source.file });
    }
  }
  return undefined;
}

/** "no MCP servers configured", naming the files looked at (the project's relative to it, `~` for the home folder). */
export function noServersLine(lookedAt: readonly string[], places: { readonly projectDir: string; readonly home: string | undefined }): string {
  if (lookedAt.length === 0) return NO_SERVERS_MESSAGE;
  const { projectDir, home } = places;
  const under = (file: string, dir: string | undefined): boolean => dir !== undefined && dir !== "" && file.startsWith(join(dir, "/"));
  const shown = lookedAt.map((file) => (under(file, projectDir) ? relative(projectDir, file) : under(file, home) && home !== undefined ? join("~", relative(home, file)) : file));
  return untrustedText(`${NO_SERVERS_MESSAGE} (looked at ${shown.join(", ")})`);
}

/** A status with the scope and file its server is written in, when the config says. */
export function withOrigin(status: ServerStatus, config: ScopedMcpConfig | null): ServerStatus {
  const origin = config?.origins.get(status.alias);
  return origin === undefined ? status : { ...status, scope: origin.scope, file: origin.file };
}

/** One line per server that did not come up, so the user knows before the first prompt. */
export function startupFailureLines(mounted: MountedServers): string[] {
  return mounted
    .statuses()
    .filter((status) => status.state !== "connected")
    // "needs login" says itself in its reason ("needs a login (…): run `mca mcp login x`").
    .map((status) => {
      const state = status.state === "needs login" ? "" : ` ${status.state}`;
      return untrustedText(`mcp: ${status.alias} (${status.transport})${state}: ${status.error ?? "no reason given"}`);
    });
}

/**
 * The config of `--mcp-config <path>` (which must exist), or of every scope: the user's mcp.json, the local
 * scope's entries for this project, and the project's mcp.config.json and .mcp.json when the user trusts
 * them; no config when none has a server. A broken file, or an `--input-responses` file naming a server none
 * has, is an Error for main to print and exit 2 on — before anything is spawned.
 */
export async function readConfiguredServerFiles(deps: MountDeps): Promise<ConfiguredServerFiles | Error> {
  const read = await readMcpConfig(deps);
  if (read instanceof Error) return read;
  const { config } = read;
  const aliases = [...(config?.servers ?? []), ...(config?.skipped ?? [])].map((server) => server.alias);
  const unknownAlias = deps.inputAnswers && unknownAliasError(deps.inputAnswers, aliases);
  if (unknownAlias !== undefined) return unknownAlias;
  if (config === null) return read;
  for (const line of configNoticeLines(config)) deps.warn(line);
  for (const line of aliasOverlapWarnings(config.servers.map((server) => server.alias))) deps.warn(untrustedText(`mcp: ${line}`));
  // The cap on one server's tools is the user's own setting (settings.json `mcp.maxToolsPerServer`).
  const settings = loadMcpSettings(userSettingsFile(deps.env));
  return settings instanceof Error ? settings : { ...read, config: { ...config, ...settings } };
}

/** What reading the config found beside its servers, one line each, before any server starts: the file's words, shown, never obeyed. */
export function configNoticeLines(config: Pick<McpConfigFile, "warnings" | "skipped">): string[] {
  return [
    ...config.warnings.map((warning) => untrustedText(`mcp: ${warning.message}`)),
    ...config.skipped.map(({ alias, error }) => untrustedText(`mcp: ${error.message} (so server ${JSON.stringify(alias)} is skipped; the others start)`)),
  ];
}

/**
 * Mounts the servers of a config read by readConfiguredServerFiles; each server's warnings go to `warn`. The
 * definitions the user pinned for this project are read here, only when there are servers to compare.
 */
export function mountConfiguredServers(config: McpConfig, deps: MountDeps): Promise<MountedServers> {
  const pins = readPins(deps.projectDir, deps.env);
  if (pins instanceof Error) deps.warn(`mca: ${untrustedText(pins.message)}: pinned tool definitions are not checked in this run`);
  return mountServers(config, {
    ...(pins instanceof Error ? {} : { pins }),
    clientVersion: deps.clientVersion,
    baseEnv: deps.env,
    // A warning quotes what the server sent (a stray line, a tool's name): shown, never obeyed.
    onWarning: (message) => deps.warn(`mcp: ${untrustedText(message)}`),
    // A server's warnings and errors are shown as they come, one line each (every level with --verbose);
    // all are kept for `/mcp logs <alias>`.
    onLog: (entry) => {
      if (isShownAsItComes(entry.level, deps.verbose === true)) deps.warn(untrustedText(`mcp: ${entry.alias} ${formatLogEntry(entry)}`));
    },
    // Each server's roots are its config's: the answer goes out with the roots of the server that asked.
    ...(deps.inputResponder === undefined ? {} : { inputResponder: rootsPerServer(deps.inputResponder, config.servers) }),
    ...(deps.logins === undefined ? {} : { logins: deps.logins }),
    ...(deps.stdioLauncher === undefined ? {} : { stdioLauncher: deps.stdioLauncher }),
  });
}

/**
 * One per run, shared by every mount (`mca mcp doctor` mounts each server alone): each stdio server in a
 * PID namespace of its own where bubblewrap works, found as the bash sandbox finds it (on the PATH) and
 * probed once, when the first server starts; otherwise said once, on `warn`.
 */
export function stdioLauncher(env: Readonly<Record<string, string | undefined>>, warn: (text: string) => void): StdioLauncher {
  return pidNamespaceLauncher({
    findBubblewrap: async (): Promise<Bubblewrap> => {
      const { findSandbox } = await import("../tools/index.js");
      const found = findSandbox(process.platform, env);
      if (found.kind === "bubblewrap") return { kind: "installed", program: found.program };
      return process.platform === "linux" ? { kind: "missing" } : { kind: "unsupported" };
    },
    notify: warn,
  });
}

/** The servers the config disables (`"enabled": false` or `"disabled": true`), listed after the others so `/mcp` names them. */
export function disabledStatuses(config: McpConfig): ServerStatus[] {
  return config.servers
    .filter((server) => !server.enabled)
    .map((server) => ({ alias: server.alias, transport: server.transport, state: "disabled", protocolVersion: null, tools: 0, error: null, stderrTail: null }));
}

export const NO_SERVERS_MESSAGE = "no MCP servers configured";

/** Plain-text lines for `/mcp` and `mca mcp list`: one line per server, its error and stderr tail indented. */
export function formatServerStatus(servers: readonly ServerStatus[], noServers: string = NO_SERVERS_MESSAGE): string[] {
  if (servers.length === 0) return [noServers];
  const lines: string[] = [];
  for (const server of servers) {
    // A server mca fell back to the initialize handshake with says so: "legacy 2025-11-25".
    const version = server.protocolVersion === null ? "-" : `${isLegacyVersion(server.protocolVersion) ? "legacy " : ""}${server.protocolVersion}`;
    const transport = `${server.transport}${server.transportDetected === true ? " (legacy, detected)" : ""}`;
    lines.push(`${server.alias}  ${transport}  ${server.state}  protocol ${version}  ${server.tools} tools`);
    if (server.scope !== undefined) lines.push(`  ${server.scope === "flag" ? "from --mcp-config" : `${server.scope} scope`}: ${server.file ?? ""}`);
    if (server.endpoint !== undefined) lines.push(`  ${server.transport === "stdio" ? "command" : "url"}: ${server.endpoint}`);
    if (server.toolNames !== undefined && server.toolNames.length > 0) lines.push(`  tools: ${server.toolNames.join(", ")}`);
    if (server.error !== null) lines.push(`  error: ${server.error}`);
    if ((server.sessionRenewals ?? 0) > 0) lines.push(`  session renewed ${server.sessionRenewals}× (the server had lost it)`);
    for (const log of server.recentLogs ?? []) lines.push(`  log| ${log}`);
    if (server.stderrTail !== null && server.stderrTail.trim() !== "") {
      for (const line of server.stderrTail.trimEnd().split(/\r?\n/)) lines.push(`  stderr| ${line}`);
    }
  }
  // A server wrote its error and stderr; the config, its alias. Each line is shown, never obeyed.
  return lines.map(untrustedText);
}
