// Where MCP servers are configured, as Claude Code has it (https://code.claude.com/docs/en/mcp#mcp-installation-scopes):
// the user scope (every project, the user's own file), the project scope (the repository's mcp.config.json and
// .mcp.json, under project trust) and the local scope (one project's private entries, kept in the user's config
// folder; the places are mcp-edit.ts's, where `mca mcp add` writes them). The same alias in two scopes is taken from the narrower one, and one line says so; each file is read
// on its own, so a duplicate alias inside one file stays that file's error.
import { dirname, join } from "node:path";
import { sanitizeAlias } from "../mcp/index.js";
import { ConfigError, optionalField, projectKey, readConfigJson, readConfigText, readingConfig, readObject, type Env } from "./config-reader.js";
import { hostFileAliases, projectHostFiles, type HostName } from "./host-servers.js";
import { hostVariables, readInputs, type InputAnswers } from "./host-variables.js";
import { withoutJsoncExtras } from "./jsonc-text.js";
import { parseMcpConfig, readServerEntries, type McpConfigFile, type SkippedServer } from "./mcp-config.js";
import { localMcpFile, PROJECT_MCP_FILES, userMcpFile, type EditContext, type McpScope } from "./mcp-edit.js";
import type { ConfigPlace, McpReadContext, ToolLimit } from "./server-entry.js";

/** A scope, or `--mcp-config`: the file the run was told to use instead of the scopes. */
export type ServerScope = McpScope | "flag";

/** Of the same alias in both project files, mca's own file's entry is used: the reverse of the order `add` writes them in. */
const PROJECT_READ_ORDER = [...PROJECT_MCP_FILES].reverse();

/** One file to read for the run: its scope, and its text as read (null: absent). The project's come from the trust decision's read. */
export interface ScopeSource {
  readonly scope: ServerScope;
  readonly file: string;
  readonly text: string | ConfigError | null;
}

/** The user's and the local scope's files as they are now (they need no trust: they are the user's own). */
export function userScopeSources(context: EditContext): { readonly user: ScopeSource; readonly local: ScopeSource } {
  const read = (scope: McpScope, file: string): ScopeSource => ({ scope, file, text: readConfigText(file, "cannot read the file") });
  return { user: read("user", userMcpFile(context.env)), local: read("local", localMcpFile(context.env)) };
}

/** The project files in the order their entries are preferred. */
export function projectReadOrder(projectDir: string): string[] {
  return PROJECT_READ_ORDER.map((name) => join(projectDir, name));
}

/** Where a scope's servers run and their roots start: the project folder, whatever the file's own folder. */
function placeOf(source: ScopeSource, projectDir: string): ConfigPlace {
  switch (source.scope) {
    case "project":
      return { projectDir, fromProject: true, runsIn: dirname(source.file) };
    case "flag":
      return { projectDir, fromProject: false, runsIn: dirname(source.file) };
    case "user":
    case "local":
      return { projectDir, fromProject: false, runsIn: projectDir };
    default: {
      const unknown: never = source.scope;
      throw new Error(`unknown scope ${String(unknown)}`);
    }
  }
}

/**
 * The local file's entry for this project (`projects["<real path>"].mcpServers`), read as any config's
 * servers are; null when it has none for this project. Other projects' entries are not read.
 */
function parseLocalMcpConfig(text: string, file: string, env: Env, place: ConfigPlace, answers?: InputAnswers): McpConfigFile | ConfigError | null {
  const root = readConfigJson(withoutJsoncExtras(text), file);
  if (root instanceof ConfigError) return root;
  // The store's key for this project, as `mca mcp add -s local` writes it.
  const key = projectKey(place.projectDir);
  const base: McpReadContext = { file, text, env, place };
  return readingConfig(() => {
    const projects = optionalField(readObject(root, [], base), "projects");
    const project = projects === undefined ? undefined : optionalField(readObject(projects, ["projects"], base), key);
    if (project === undefined) return null;
    const path = ["projects", key];
    const entry = readObject(project, path, base);
    const servers = optionalField(entry, "mcpServers");
    if (servers === undefined) return null;
    const inputs = readInputs(entry, base);
    const named = hostVariables({ projectDir: place.projectDir, env, inputs, ...(answers === undefined ? {} : { answers }) });
    return { file, ...readServerEntries(readObject(servers, [...path, "mcpServers"], base), [...path, "mcpServers"], { ...base, named }) };
  });
}

/** One source read: its config (null when absent or empty for this project), or why it cannot be. */
export function readScopeSource(source: ScopeSource, context: EditContext, answers?: InputAnswers): McpConfigFile | ConfigError | null {
  const { text, file } = source;
  if (text === null || text instanceof ConfigError) return text;
  // Codex keeps its servers in TOML; read as JSON it would only say "unexpected character".
  if (file.endsWith(".toml")) return new ConfigError(file, "", "is TOML (as Codex's config.toml is), and mca's config is JSON: bring its servers in with `mca mcp import codex`");
  const place = placeOf(source, context.projectDir);
  return source.scope === "local" ? parseLocalMcpConfig(text, file, context.env, place, answers) : parseMcpConfig(text, file, context.env, place, answers);
}

/** Where a server of the run is written. */
export interface ServerOrigin {
  readonly scope: ServerScope;
  readonly file: string;
}

/** The run's servers from every scope, and where each is written. */
export interface ScopedConfig {
  readonly config: McpConfigFile;
  /** By alias: the scope and file each server (and each skipped entry) is taken from. */
  readonly origins: ReadonlyMap<string, ServerOrigin>;
  /** One line for each alias a narrower scope takes from a broader one. */
  readonly overrides: readonly string[];
}

const SCOPE_RANK: Readonly<Record<ServerScope, number>> = { local: 0, flag: 1, project: 1, user: 2 };

/**
 * The configs read, merged: each alias from the narrowest scope that has it (of the two project files, the
 * first in `read`'s order), an entry skipped there shadowing a broader one all the same. Two aliases that
 * give the same tool prefix count as the same. The merged file's `file` names every file that has servers.
 */
export function mergeScopes(read: readonly { readonly source: ScopeSource; readonly config: McpConfigFile }[]): ScopedConfig {
  const ordered = [...read].sort((a, b) => SCOPE_RANK[a.source.scope] - SCOPE_RANK[b.source.scope]);
  const taken = new Map<string, { readonly alias: string; readonly origin: ServerOrigin }>();
  const origins = new Map<string, ServerOrigin>();
  const overrides: string[] = [];
  const servers: McpConfigFile["servers"][number][] = [];
  const skipped: SkippedServer[] = [];
  const toolLimits = new Map<string, ToolLimit>();
  const take = (alias: string, origin: ServerOrigin): boolean => {
    const before = taken.get(sanitizeAlias(alias));
    if (before !== undefined) {
      const named = before.alias === alias ? `"${alias}"` : `"${before.alias}" (and "${alias}", the same tool names)`;
      overrides.push(`server ${named}: the ${before.origin.scope} scope's entry (${before.origin.file}) is used, not the ${origin.scope} scope's (${origin.file})`);
      return false;
    }
    taken.set(sanitizeAlias(alias), { alias, origin });
    origins.set(alias, origin);
    return true;
  };
  for (const { source, config } of ordered) {
    const origin = { scope: source.scope, file: source.file };
    // Valid and skipped entries in the file's own order, so the first written is the first taken.
    for (const server of config.servers) {
      if (!take(server.alias, origin)) continue;
      servers.push(server);
      const limit = config.toolLimits?.get(server.alias);
      if (limit !== undefined) toolLimits.set(server.alias, limit);
    }
    for (const entry of config.skipped) if (take(entry.alias, origin)) skipped.push(entry);
  }
  const files = ordered.filter(({ config }) => config.servers.length + config.skipped.length > 0).map(({ source }) => source.file);
  const config: McpConfigFile = {
    file: files.join(", "),
    servers,
    skipped,
    warnings: ordered.flatMap(({ config: each }) => each.warnings),
    ...(toolLimits.size === 0 ? {} : { toolLimits }),
  };
  return { config, origins, overrides };
}

/** The hosts whose project files start-up looks into: Claude Code's .mcp.json is mca's own project scope. */
const HINTED_HOSTS: readonly HostName[] = ["cursor", "vscode"];

/** A project file of another host with servers mca's scopes do not have. */
export interface UnreadHostFile {
  readonly host: string;
  readonly file: string;
  readonly aliases: readonly string[];
}

/**
 * The project's `.cursor/mcp.json` and `.vscode/mcp.json` whose servers (each read as `mca mcp import` reads
 * it) are not all among `configured`: start-up names each with its import command rather than skip it unsaid.
 */
export function unreadHostFiles(projectDir: string, configured: ReadonlySet<string>): UnreadHostFile[] {
  return projectHostFiles(projectDir).flatMap((hostFile) => {
    if (!HINTED_HOSTS.includes(hostFile.host)) return [];
    const text = readConfigText(hostFile.path, "cannot read the file");
    if (typeof text !== "string") return [];
    const aliases = hostFileAliases(hostFile, text, projectDir);
    if (aliases instanceof ConfigError) return [];
    const missing = aliases.filter((alias) => !configured.has(alias));
    return missing.length === 0 ? [] : [{ host: hostFile.host, file: hostFile.path, aliases: missing }];
  });
}
