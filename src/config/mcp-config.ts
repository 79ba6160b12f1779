// The MCP server config: mcp.config.json (or --mcp-config) validated into a typed McpConfig with `${VAR}`
// expanded. The shape is the one other MCP hosts use: stdio `{ command, args?, env?, cwd? }`, HTTP
// `{ type: "http", url, headers?, oauth? }`, plus our own `timeoutMs`, `startupTimeoutMs`, `logLevel`, `roots`
// and `enabled`. Invalid JSON and duplicate aliases stop; an entry that cannot be used is skipped, the others start.
import { dirname, resolve } from "node:path";
import { MODEL_KEY_VARIABLES, secretsIn } from "../kernel/index.js";
import { sanitizeAlias, toolPrefix, type McpConfig, type McpServerConfig } from "../mcp/index.js";
import {
  ConfigError,
  fail,
  readConfigJson,
  readConfigText,
  readingConfig,
  readObject,
  requiredField,
  type Env,
  type JsonObjectNode,
  type ReadContext,
} from "./config-reader.js";
import type { PathSegment } from "./json-reader.js";
import { readServer, unknownFieldWarnings, type ConfigPlace, type McpReadContext } from "./server-entry.js";

export type { ConfigPlace } from "./server-entry.js";

/** An entry of `mcpServers` that is not started, and why: the error at its place in the file. */
export interface SkippedServer {
  readonly alias: string;
  readonly error: ConfigError;
}

/** The config as read from its file: the servers, and what the user is told about the rest of it. */
export interface McpConfigFile extends McpConfig {
  /** Entries that cannot be used (a wrong type, no command or url, a variable not set); the others start. */
  readonly skipped: readonly SkippedServer[];
  /** Fields read and not applied (the top level's, then each entry's): each at its place, never a stop. */
  readonly warnings: readonly ConfigError[];
}

const ROOT_FIELDS = ["mcpServers"];

/** The project's own mcp.config.json sits in the project folder. */
function projectPlace(file: string): ConfigPlace {
  return { projectDir: dirname(resolve(file)), fromProject: true };
}

function duplicateDetail(duplicate: { readonly path: readonly PathSegment[]; readonly key: string }): string {
  const isAlias = duplicate.path.length === 1 && duplicate.path[0] === "mcpServers";
  return isAlias
    ? `duplicate alias "${duplicate.key}": two servers are written with the same name`
    : `duplicate key "${duplicate.key}": it is written more than once`;
}

/** Aliases become tool-name prefixes; two that sanitise alike would make one server's tools ambiguous. */
function checkAliases(servers: JsonObjectNode, context: ReadContext): void {
  const aliasBySanitised = new Map<string, string>();
  for (const [alias, member] of servers.members) {
    if (alias === "") continue;
    const other = aliasBySanitised.get(sanitizeAlias(alias));
    if (other !== undefined) {
      const detail = `duplicate alias: "${other}" and "${alias}" both give the tool prefix ${toolPrefix(alias)}`;
      fail(context, ["mcpServers", alias], member.keyOffset, detail);
    }
    aliasBySanitised.set(sanitizeAlias(alias), alias);
  }
}

function readConfig(context: McpReadContext, root: JsonObjectNode): McpConfigFile {
  const servers = readObject(requiredField(root, "mcpServers", [], context), ["mcpServers"], context);
  checkAliases(servers, context);
  const warnings = unknownFieldWarnings(root, [], ROOT_FIELDS, context);
  const read: McpServerConfig[] = [];
  const skipped: SkippedServer[] = [];
  for (const [alias, member] of servers.members) {
    const entry = readingConfig(() => {
      if (alias === "") fail(context, ["mcpServers", alias], member.keyOffset, "an alias must not be empty");
      return readServer(alias, member.value, context);
    });
    if (entry instanceof ConfigError) {
      skipped.push({ alias, error: entry });
    } else {
      read.push(entry.server);
      warnings.push(...entry.warnings);
    }
  }
  return { file: context.file, servers: read, skipped, warnings };
}

/**
 * mcp.config.json validated into a typed config with its skipped entries and warnings, or the ConfigError
 * that stops it. Pure but for `roots`, whose folders are looked up (and resolved to their real paths).
 * `place` is the project's own file in its folder unless said otherwise.
 */
export function parseMcpConfig(text: string, file: string, env: Env, place: ConfigPlace = projectPlace(file)): McpConfigFile | ConfigError {
  return parseConfig({ file, text, env, place });
}

/**
 * The same config with every string as written (`${VAR}` kept), once it has passed every check expanded:
 * what the trust question shows; it is never what runs. It fails where parseMcpConfig fails, and also on
 * the first entry that parseMcpConfig skips: one skipped now for a variable not set would start in a later
 * run, unseen, so a file is offered for trust only when every entry of it can be shown.
 */
export function mcpConfigAsWritten(text: string, file: string, env: Env): McpConfigFile | ConfigError {
  const config = parseConfig({ file, text, env, asWritten: true, place: projectPlace(file) });
  return config instanceof ConfigError ? config : (config.skipped[0]?.error ?? config);
}

function parseConfig(context: McpReadContext): McpConfigFile | ConfigError {
  const { text, file } = context;
  const root = readConfigJson(text, file, duplicateDetail);
  if (root instanceof ConfigError) return root;
  return readingConfig(() => readConfig(context, readObject(root, [], context)));
}

/** Reads and validates an MCP config file: the config, or a ConfigError (the file cannot be read, or is not valid). */
export async function loadMcpConfig(path: string, env: Env, place?: ConfigPlace): Promise<McpConfigFile | ConfigError> {
  const text = readConfigText(path, "cannot read the file");
  if (text === null) return new ConfigError(path, "", "cannot read the file: ENOENT: no such file or directory");
  return text instanceof ConfigError ? text : parseMcpConfig(text, path, env, place);
}

/**
 * Every secret a session must keep out of what it prints, records and gives the model: each header and env
 * value of the config (enabled servers or not, with `${VAR}` expanded) and the model's credentials from the
 * environment. Feed it to the kernel's createRedactor, which ignores the values too short to be secrets.
 */
export function configuredSecrets(config: McpConfig | null, env: Env): string[] {
  const values: string[] = [];
  for (const server of config?.servers ?? []) {
    values.push(...Object.values(server.transport === "stdio" ? server.env : server.headers));
    if (server.transport !== "stdio" && server.oauth?.clientSecret !== undefined) values.push(server.oauth.clientSecret);
  }
  for (const name of MODEL_KEY_VARIABLES) {
    const value = env[name];
    if (value !== undefined && value !== "") values.push(value);
  }
  return secretsIn(values);
}
