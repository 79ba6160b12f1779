// The run's MCP servers as the CLI mounts and shows them: the config found and mounted at start-up, and
// each server's health read afresh whenever a view is drawn (`/mcp`, `mca mcp list`), so a server that
// died since start-up shows as disconnected.
import { resolve } from "node:path";
import {
  ConfigError,
  loadMcpConfig,
  loadMcpSettings,
  parseMcpConfig,
  PROJECT_MCP_CONFIG,
  projectFileRead,
  readPins,
  userSettingsFile,
  type McpConfig,
  type McpConfigFile,
} from "../config/index.js";
import {
  aliasOverlapWarnings,
  formatLogEntry,
  isLegacyVersion,
  isShownAsItComes,
  mountServers,
  pidNamespaceLauncher,
  rootsPerServer,
  type Bubblewrap,
  type InputResponder,
  type LoginDeps,
  type MountedServers,
  type ServerStatus as McpServerStatus,
  type StdioLauncher,
} from "../mcp/index.js";
import type { Tool } from "../kernel/index.js";
import { unknownAliasError, type InputAnswers } from "./input/answers-file.js";
import type { SettledTrust } from "./trust.js";
import { untrustedText } from "./untrusted-text.js";

/** A server as `/mcp` and `mca mcp list` show it: one mca started, or one its config disables. */
export type ServerStatus = Omit<McpServerStatus, "state"> & { readonly state: McpServerStatus["state"] | "disabled" };

export interface MountDeps {
  readonly projectDir: string;
  readonly configPath: string | undefined;
  /** The project's own mcp.config.json as read for the trust decision, used only when trusted; `--mcp-config` needs no trust. */
  readonly project: SettledTrust;
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

async function readMcpConfig(deps: Pick<MountDeps, "projectDir" | "configPath" | "env" | "project">): Promise<McpConfigFile | Error | null> {
  if (deps.configPath !== undefined) return loadMcpConfig(resolve(deps.projectDir, deps.configPath), deps.env, { projectDir: deps.projectDir, fromProject: false });
  const own = projectFileRead(deps.project.files, PROJECT_MCP_CONFIG);
  if (!deps.project.trusted || own === null) return null;
  return own.text instanceof ConfigError ? own.text : parseMcpConfig(own.text, own.path, deps.env);
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
 * The config of `--mcp-config <path>` (which must exist), or of `mcp.config.json` in the project folder when
 * there is one and the user trusts it; otherwise none (null). A broken config, or an `--input-responses`
 * file naming a server it lacks, is an Error for main to print and exit 2 on — before anything is spawned.
 */
export async function readConfiguredServers(deps: MountDeps): Promise<McpConfig | Error | null> {
  const config = await readMcpConfig(deps);
  if (config instanceof Error) return config;
  const aliases = [...(config?.servers ?? []), ...(config?.skipped ?? [])].map((server) => server.alias);
  const unknownAlias = deps.inputAnswers && unknownAliasError(deps.inputAnswers, aliases);
  if (unknownAlias !== undefined || config === null) return unknownAlias ?? config;
  for (const line of configNoticeLines(config)) deps.warn(line);
  for (const line of aliasOverlapWarnings(config.servers.map((server) => server.alias))) deps.warn(untrustedText(`mcp: ${line}`));
  // The cap on one server's tools is the user's own setting (settings.json `mcp.maxToolsPerServer`).
  const settings = loadMcpSettings(userSettingsFile(deps.env));
  return settings instanceof Error ? settings : { ...config, ...settings };
}

/** What reading the config found beside its servers, one line each, before any server starts: the file's words, shown, never obeyed. */
export function configNoticeLines(config: McpConfigFile): string[] {
  return [
    ...config.warnings.map((warning) => untrustedText(`mcp: ${warning.message}`)),
    ...config.skipped.map(({ alias, error }) => untrustedText(`mcp: ${error.message} (so server ${JSON.stringify(alias)} is skipped; the others start)`)),
  ];
}

/**
 * Mounts the servers of a config read by readConfiguredServers; each server's warnings go to `warn`. The
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

/** Called each time a view is drawn, so a server that died since start-up shows as disconnected. */
export type ServerStatusProvider = () => readonly ServerStatus[];

/** `/mcp reconnect <alias>`: the server closed and connected again; its status, and every remote tool offered now. */
export type ServerReconnect = (alias: string, signal: AbortSignal) => Promise<{ readonly status: ServerStatus; readonly remoteTools: readonly Tool[] } | Error>;

export const NO_SERVERS_MESSAGE = "no MCP servers configured";

/** Plain-text lines for `/mcp` and `mca mcp list`: one line per server, its error and stderr tail indented. */
export function formatServerStatus(servers: readonly ServerStatus[]): string[] {
  if (servers.length === 0) return [NO_SERVERS_MESSAGE];
  const lines: string[] = [];
  for (const server of servers) {
    // A server mca fell back to the initialize handshake with says so: "legacy 2025-11-25".
    const version = server.protocolVersion === null ? "-" : `${isLegacyVersion(server.protocolVersion) ? "legacy " : ""}${server.protocolVersion}`;
    const transport = `${server.transport}${server.transportDetected === true ? " (legacy, detected)" : ""}`;
    lines.push(`${server.alias}  ${transport}  ${server.state}  protocol ${version}  ${server.tools} tools`);
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
