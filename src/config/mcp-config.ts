// One MCP server config file (mcp.config.json, .mcp.json, the user's mcp.json, --mcp-config) validated into a
// typed McpConfig with `${VAR}` expanded. The shape is the one other MCP hosts use: `mcpServers` (or VS Code's
// `servers` with its `inputs`), stdio `{ command, args?, env?, cwd? }`, HTTP `{ type: "http", url, headers?, oauth? }`,
// plus our own `timeoutMs`, `startupTimeoutMs`, `logLevel`, `roots` and `enabled`; comments are allowed.
// Invalid JSON and duplicate aliases stop; an entry that cannot be used is skipped, the others start.
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
  type NamedVariables,
  type Path,
  type ReadContext,
} from "./config-reader.js";
import { hostVariables, readInputs, referencedInputs, type InputAnswers, type McpInput } from "./host-variables.js";
import type { JsonNode, PathSegment } from "./json-reader.js";
import { withoutJsoncExtras } from "./jsonc-text.js";
import { readServer, unknownFieldWarnings, type ConfigPlace, type McpReadContext, type ToolLimit } from "./server-entry.js";

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

/** `mcpServers` as most hosts write it, `servers` as VS Code does (beside its `inputs`). */
const SERVERS_FIELDS = ["mcpServers", "servers"];
const ROOT_FIELDS = [...SERVERS_FIELDS, "inputs", "$schema"];

/** The project's own mcp.config.json sits in the project folder. */
function projectPlace(file: string): ConfigPlace {
  return { projectDir: dirname(resolve(file)), fromProject: true };
}

function duplicateDetail(duplicate: { readonly path: readonly PathSegment[]; readonly key: string }): string {
  const isAlias = duplicate.path.length >= 1 && SERVERS_FIELDS.includes(String(duplicate.path.at(-1)));
  return isAlias
    ? `duplicate alias "${duplicate.key}": two servers are written with the same name`
    : `duplicate key "${duplicate.key}": it is written more than once`;
}

/** Aliases become tool-name prefixes; two that sanitise alike would make one server's tools ambiguous. */
function checkAliases(servers: JsonObjectNode, path: Path, context: ReadContext): void {
  const aliasBySanitised = new Map<string, string>();
  for (const [alias, member] of servers.members) {
    if (alias === "") continue;
    const other = aliasBySanitised.get(sanitizeAlias(alias));
    if (other !== undefined) {
      const detail = `duplicate alias: "${other}" and "${alias}" both give the tool prefix ${toolPrefix(alias)}`;
      fail(context, [...path, alias], member.keyOffset, detail);
    }
    aliasBySanitised.set(sanitizeAlias(alias), alias);
  }
}

/** An entry written `"disabled": true` or `"enabled": false`, before it is read. */
function isDisabledEntry(entry: JsonNode): boolean {
  const flag = (key: string): boolean | undefined => {
    const node = entry.kind === "object" ? entry.members.get(key)?.value : undefined;
    return node?.kind === "boolean" ? node.value : undefined;
  };
  return flag("disabled") === true || flag("enabled") === false;
}

/** For a disabled entry: its inputs were never asked (it does not start), so they stand empty rather than skip it. */
function withUnaskedInputs(named: NamedVariables | undefined): NamedVariables {
  return (name) => (name.startsWith("input:") ? { ok: true, value: "" } : named?.(name));
}

/** The servers of one `mcpServers` object at `path`, each read on its own: an entry that cannot be used is skipped. */
export function readServerEntries(servers: JsonObjectNode, path: Path, context: McpReadContext): Omit<McpConfigFile, "file"> {
  checkAliases(servers, path, context);
  const read: McpServerConfig[] = [];
  const skipped: SkippedServer[] = [];
  const warnings: ConfigError[] = [];
  const toolLimits = new Map<string, ToolLimit>();
  for (const [alias, member] of servers.members) {
    const entry = readingConfig(() => {
      if (alias === "") fail(context, [...path, alias], member.keyOffset, "an alias must not be empty");
      const entryContext = isDisabledEntry(member.value) ? { ...context, named: withUnaskedInputs(context.named) } : context;
      return readServer(alias, member.value, entryContext, [...path, alias]);
    });
    if (entry instanceof ConfigError) {
      skipped.push({ alias, error: entry });
    } else {
      read.push(entry.server);
      warnings.push(...entry.warnings);
      if (entry.tools !== undefined) toolLimits.set(alias, entry.tools);
    }
  }
  return { servers: read, skipped, warnings, ...(toolLimits.size === 0 ? {} : { toolLimits }) };
}

/** `mcpServers` or VS Code's `servers`, whichever the file writes; both written is a stop, neither too. */
function serversField(root: JsonObjectNode, context: ReadContext): { readonly key: string; readonly node: JsonNode } {
  const written = SERVERS_FIELDS.filter((key) => root.members.has(key));
  const [key, other] = written;
  if (key === undefined) return fail(context, ["mcpServers"], root.offset, 'is required (VS Code\'s "servers" is read too)');
  if (other !== undefined) fail(context, [other], root.members.get(other)?.keyOffset ?? root.offset, `write the servers in one of "${key}" and "${other}"`);
  return { key, node: root.members.get(key)?.value ?? root };
}

function readConfig(context: McpReadContext, root: JsonObjectNode, answers: InputAnswers | undefined): McpConfigFile {
  const { key, node } = serversField(root, context);
  const servers = readObject(node, [key], context);
  const inputs = readInputs(root, context);
  const named = hostVariables({ projectDir: context.place.projectDir, env: context.env, inputs, ...(answers === undefined ? {} : { answers }) });
  const warnings = unknownFieldWarnings(root, [], ROOT_FIELDS, context);
  const entries = readServerEntries(servers, [key], { ...context, named });
  return { file: context.file, ...entries, warnings: [...warnings, ...entries.warnings] };
}

/**
 * mcp.config.json validated into a typed config with its skipped entries and warnings, or the ConfigError
 * that stops it. Pure but for `roots`, whose folders are looked up (and resolved to their real paths).
 * `place` is the project's own file in its folder unless said otherwise.
 */
export function parseMcpConfig(text: string, file: string, env: Env, place: ConfigPlace = projectPlace(file), answers?: InputAnswers): McpConfigFile | ConfigError {
  return parseConfig({ file, text, env, place }, answers);
}

/**
 * The inputs (VS Code's `${input:id}`) the file's enabled entries use, to be asked before it is read with
 * their answers; none when the file cannot be read (reading it then says why).
 */
export function neededInputs(text: string, file: string): McpInput[] {
  const root = readConfigJson(withoutJsoncExtras(text), file);
  if (root instanceof ConfigError || root.kind !== "object") return [];
  const context: ReadContext = { file, text, env: {} };
  const inputs = readingConfig(() => readInputs(root, context));
  if (inputs instanceof ConfigError) return [];
  const used = new Set<string>();
  for (const key of SERVERS_FIELDS) {
    const servers = root.members.get(key)?.value;
    if (servers?.kind !== "object") continue;
    for (const { value } of servers.members.values()) {
      // A disabled server is not started, so nothing is asked for it.
      if (isDisabledEntry(value)) continue;
      for (const id of referencedInputs(value)) used.add(id);
    }
  }
  return inputs.filter((input) => used.has(input.id));
}

/**
 * The same config with every string as written (`${VAR}` kept), once it has passed every check expanded:
 * what the trust question shows; it is never what runs. It fails where parseMcpConfig fails, and also on
 * the first entry that parseMcpConfig skips: one skipped now for a variable not set would start in a later
 * run, unseen, so a file is offered for trust only when every entry of it can be shown.
 */
export function mcpConfigAsWritten(text: string, file: string, env: Env): McpConfigFile | ConfigError {
  // An input is typed when the server starts: a stand-in passes the checks, and the string shows as written.
  const standIns = new Map(neededInputs(text, file).map((input) => [input.id, input.id]));
  const config = parseConfig({ file, text, env, asWritten: true, place: projectPlace(file) }, standIns);
  return config instanceof ConfigError ? config : (config.skipped[0]?.error ?? config);
}

function parseConfig(context: McpReadContext, answers?: InputAnswers): McpConfigFile | ConfigError {
  const { text, file } = context;
  const root = readConfigJson(withoutJsoncExtras(text), file, duplicateDetail);
  if (root instanceof ConfigError) return root;
  return readingConfig(() => readConfig(context, readObject(root, [], context), answers));
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
