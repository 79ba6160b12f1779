// One entry of `mcpServers`, validated into a typed server config. Entries copied from other hosts' files
// are read too: their spellings of the same thing (`httpUrl`, `serverUrl`, `disabled`, `timeout`) are taken,
// their limits on a server's tools (`includeTools`, `disabled_tools`, …) are kept, what they would let run
// without asking (`alwaysAllow`, `autoApprove`, `trust`) never is, and a field mca does not know is a warning
// — unless it looks like a limit: ignoring that would widen what the user wrote, so the entry is skipped.
import { realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { serverSideName } from "../kernel/index.js";
import {
  isLogLevel,
  LOG_LEVELS,
  type HttpServerConfig,
  type LogLevel,
  type McpServerConfig,
  type ServerRoots,
  type McpConfig,
  type StdioServerConfig,
} from "../mcp/index.js";
import {
  ConfigError,
  fail,
  formatPath,
  optionalField,
  readBoolean,
  readExpandedString,
  readExpandedStringArray,
  readExpandedStringMap,
  readNonEmptyExpandedString,
  readObject,
  readPositiveInteger,
  readString,
  requiredField,
  type JsonObjectNode,
  type Path,
  type ReadContext,
} from "./config-reader.js";
import { positionAt, type JsonNode } from "./json-reader.js";
import { readOAuth } from "./oauth-entry.js";

/**
 * Where a config is read for: the project folder its relative `roots` start from, and whether the file is
 * the project's own (it may come with a repository: a root outside the project is warned of).
 */
/** The tools a server's entry lets mca offer (src/mcp's ToolLimit, as McpConfig carries it). */
export type ToolLimit = NonNullable<McpConfig["toolLimits"]> extends ReadonlyMap<string, infer Limit> ? Limit : never;

export interface ConfigPlace {
  readonly projectDir: string;
  readonly fromProject: boolean;
  /**
   * The folder the file's stdio servers run in when it is not the file's own (the user's and local scopes'
   * servers run in the project folder): their `cwd` is then resolved against it, absent or relative.
   */
  readonly runsIn?: string;
}

export interface McpReadContext extends ReadContext {
  readonly place: ConfigPlace;
}

type Transport = McpServerConfig["transport"];

/** Values of `type`: other hosts spell Streamable HTTP in several ways; all mean our "http". "sse" is the old HTTP+SSE transport. */
const TRANSPORT_BY_TYPE = new Map<string, Transport>([
  ["stdio", "stdio"],
  ["http", "http"],
  ["streamable-http", "http"],
  ["streamableHttp", "http"],
  ["sse", "sse"],
  // GitHub Copilot's portable .mcp.json names a stdio server "local".
  ["local", "stdio"],
]);
const TYPE_CHOICES = [...TRANSPORT_BY_TYPE.keys()].map((name) => JSON.stringify(name)).join(", ");

/** RFC 9110 token characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What fetch accepts as a header value: Latin-1 text without NUL, CR or LF. */
const HEADER_VALUE = /^[^\0\r\n\u0100-\uffff]*$/;
const URL_PROTOCOLS = ["http:", "https:"];
/** `url` as mca and most hosts write it, `httpUrl` as Gemini CLI does, `serverUrl` as Windsurf does. */
const URL_FIELDS = ["url", "httpUrl", "serverUrl"];
/** Other hosts' ways to let a server's tools run without asking: read only to say they are not applied. */
const AUTO_APPROVE_FIELDS = ["alwaysAllow", "autoApprove"];
const TRUST_FIELD = "trust";

/** Each host's spelling of the tools a server may offer (Gemini CLI's, Codex's, Copilot's) and of those it may not (Gemini CLI's, Codex's, Windsurf's). */
const INCLUDE_FIELDS = ["includeTools", "enabled_tools", "tools"];
const EXCLUDE_FIELDS = ["excludeTools", "disabled_tools", "disabledTools"];
/** A field mca does not know that looks like one of those: `allowedTools`, `blocked_tools`, `disabledPrompts`, `enabledOnly`. */
const LIMIT_LIKE = /(?:Tools|_tools)$|^(?:disabled|enabled)/i;
/** Gemini CLI's `timeout` is milliseconds, as our `timeoutMs`. */
const TIMEOUT_FIELDS = ["timeoutMs", "timeout"];

const COMMON_FIELDS = [
  "type",
  ...TIMEOUT_FIELDS,
  "startupTimeoutMs",
  "logLevel",
  "roots",
  "enabled",
  "disabled",
  ...INCLUDE_FIELDS,
  ...EXCLUDE_FIELDS,
  ...AUTO_APPROVE_FIELDS,
  TRUST_FIELD,
];

/** What every transport's entry shares: spread as it is into the server config. */
interface Common {
  readonly alias: string;
  readonly timeoutMs?: number;
  readonly startupTimeoutMs?: number;
  readonly logLevel?: LogLevel;
  readonly roots?: ServerRoots;
  readonly enabled: boolean;
}

function transportOf(server: JsonObjectNode, path: Path, context: ReadContext): Transport {
  const type = optionalField(server, "type");
  if (type === undefined) return URL_FIELDS.some((field) => server.members.has(field)) && !server.members.has("command") ? "http" : "stdio";
  const name = readString(type, [...path, "type"], context);
  const transport = TRANSPORT_BY_TYPE.get(name);
  if (transport !== undefined) return transport;
  return fail(context, [...path, "type"], type.offset, `must be one of ${TYPE_CHOICES}`);
}

function readLogLevel(node: JsonNode, path: Path, context: ReadContext): LogLevel {
  const level = readString(node, path, context);
  if (isLogLevel(level)) return level;
  return fail(context, path, node.offset, `must be one of ${LOG_LEVELS.map((name) => JSON.stringify(name)).join(", ")}`);
}

/** A folder as a root promises it: its real path, so that a symlink cannot be pointed elsewhere later; or why it is none. */
function realFolder(path: string): string | Error {
  try {
    const real = realpathSync(path);
    return statSync(real).isDirectory() ? real : new Error("is not a folder");
  } catch (error) {
    return new Error(error instanceof Error && "code" in error && error.code === "ENOENT" ? "does not exist" : `cannot be read (${String(error)})`);
  }
}

function isInside(folder: string, parent: string): boolean {
  const path = relative(parent, folder);
  return path === "" || (path !== ".." && !path.startsWith(`..${sep}`) && !isAbsolute(path));
}

/**
 * `roots: false`, or a list of folders (relative to the project folder, or absolute), each resolved to its
 * real path. A folder that is not there is left out with a warning, not a stop; from the project's own
 * config, a folder outside the project is kept and warned of.
 */
function readRoots(node: JsonNode, path: Path, context: McpReadContext): { readonly roots: ServerRoots; readonly warnings: ConfigError[] } {
  if (node.kind === "boolean" && !node.value) return { roots: false, warnings: [] };
  if (node.kind !== "array") return fail(context, path, node.offset, "must be false or a list of folders (without it, the root is the project folder)");
  const { projectDir, fromProject } = context.place;
  const project = realFolder(projectDir);
  const roots: string[] = [];
  const warnings: ConfigError[] = [];
  node.items.forEach((item, index) => {
    const written = readString(item, [...path, index], context);
    if (written === "") fail(context, [...path, index], item.offset, "must not be empty (the project folder is \".\")");
    const real = realFolder(resolve(projectDir, written));
    if (real instanceof Error) {
      warnings.push(warning(context, [...path, index], item.offset, `${JSON.stringify(written)} ${real.message}, so it is left out of the roots`));
      return;
    }
    if (fromProject && typeof project === "string" && !isInside(real, project)) {
      const detail = `${JSON.stringify(written)} is outside the project folder: this project's own config offers ${JSON.stringify(real)} to the server as a folder to work in`;
      warnings.push(warning(context, [...path, index], item.offset, detail));
    }
    if (!roots.includes(real)) roots.push(real);
  });
  return { roots, warnings };
}

/** `enabled: false` is ours, `disabled: true` other hosts'; both written, they must agree. */
function readEnabled(server: JsonObjectNode, path: Path, context: ReadContext): boolean {
  const enabledNode = optionalField(server, "enabled");
  const disabledNode = optionalField(server, "disabled");
  const enabled = enabledNode === undefined ? undefined : readBoolean(enabledNode, [...path, "enabled"], context);
  const disabled = disabledNode === undefined ? undefined : readBoolean(disabledNode, [...path, "disabled"], context);
  if (disabledNode !== undefined && enabled !== undefined && enabled === disabled) {
    fail(context, [...path, "disabled"], disabledNode.offset, `contradicts "enabled": ${String(enabled)} beside it`);
  }
  return enabled ?? disabled !== true;
}

function checkHeader(name: string, value: string): string | undefined {
  if (!HEADER_NAME.test(name)) return "is not a valid HTTP header name";
  if (!HEADER_VALUE.test(value)) return "must be plain header text (no line breaks, nothing beyond U+00FF)";
  return undefined;
}

/** Judged once expanded: `http://127.0.0.1:${TICKETS_PORT}/mcp` is a URL when the port is filled in. */
function urlProblem(url: string): string | undefined {
  return URL.canParse(url) && URL_PROTOCOLS.includes(new URL(url).protocol) ? undefined : "must be an http:// or https:// URL";
}

/** The server's URL under any of its names; two names that give different URLs leave it unknown. */
function readUrl(server: JsonObjectNode, path: Path, context: ReadContext): string {
  const written = [...server.members].filter(([field]) => URL_FIELDS.includes(field));
  const urls = written.map(([field, member]) => readExpandedString(member.value, [...path, field], context, urlProblem));
  const [first] = written;
  if (first === undefined) return fail(context, [...path, "url"], server.offset, `is required (${URL_FIELDS.slice(1).join(" and ")} are read as url too)`);
  written.forEach(([field, member], index) => {
    if (urls[index] !== urls[0]) fail(context, [...path, field], member.keyOffset, `names another URL than "${first[0]}" does; keep one of them`);
  });
  return urls[0] ?? "";
}

/** `cwd` as written, or resolved against the folder the file's servers run in when that is not the file's own. */
function readCwd(server: JsonObjectNode, path: Path, context: McpReadContext): string | undefined {
  const node = optionalField(server, "cwd");
  const written = node === undefined ? undefined : readString(node, [...path, "cwd"], context);
  const { runsIn } = context.place;
  return runsIn === undefined ? written : resolve(runsIn, written ?? ".");
}

function readStdio(common: Common, server: JsonObjectNode, path: Path, context: McpReadContext): StdioServerConfig {
  const args = optionalField(server, "args");
  const env = optionalField(server, "env");
  const cwd = readCwd(server, path, context);
  const maxLineBytes = optionalField(server, "maxLineBytes");
  const inheritEnv = optionalField(server, "inheritEnv");
  const pidNamespace = optionalField(server, "pidNamespace");
  return {
    ...common,
    transport: "stdio",
    command: readNonEmptyExpandedString(requiredField(server, "command", path, context), [...path, "command"], context),
    args: args === undefined ? [] : readExpandedStringArray(args, [...path, "args"], context),
    env: env === undefined ? {} : readExpandedStringMap(env, [...path, "env"], context),
    ...(inheritEnv === undefined ? {} : { inheritEnv: readBoolean(inheritEnv, [...path, "inheritEnv"], context) }),
    ...(pidNamespace === undefined ? {} : { pidNamespace: readBoolean(pidNamespace, [...path, "pidNamespace"], context) }),
    ...(cwd === undefined ? {} : { cwd }),
    ...(maxLineBytes === undefined ? {} : { maxLineBytes: readPositiveInteger(maxLineBytes, [...path, "maxLineBytes"], context, "bytes") }),
  };
}

function readHttp(common: Common, server: JsonObjectNode, path: Path, context: ReadContext, transport: "http" | "sse" = "http"): HttpServerConfig {
  const headers = optionalField(server, "headers");
  const oauth = optionalField(server, "oauth");
  return {
    ...common,
    transport,
    url: readUrl(server, path, context),
    headers: headers === undefined ? {} : readExpandedStringMap(headers, [...path, "headers"], context, checkHeader),
    ...(oauth === undefined ? {} : { oauth: readOAuth(oauth, [...path, "oauth"], context) }),
  };
}

interface TransportEntry {
  readonly fields: readonly string[];
  readonly read: (common: Common, server: JsonObjectNode, path: Path, context: McpReadContext) => McpServerConfig;
}

const TRANSPORTS: Readonly<Record<Transport, TransportEntry>> = {
  stdio: { fields: [...COMMON_FIELDS, "command", "args", "env", "inheritEnv", "pidNamespace", "cwd", "maxLineBytes"], read: readStdio },
  http: { fields: [...COMMON_FIELDS, ...URL_FIELDS, "headers", "oauth"], read: readHttp },
  sse: { fields: [...COMMON_FIELDS, ...URL_FIELDS, "headers", "oauth"], read: (common, server, path, context) => readHttp(common, server, path, context, "sse") },
};

/** A server entry read: its config, and what the user should hear about fields it has that are not applied. */
export interface ReadServer {
  readonly server: McpServerConfig;
  /** The tools the entry lets mca offer; absent: every tool. */
  readonly tools?: ToolLimit;
  readonly warnings: readonly ConfigError[];
}

function readNames(node: JsonNode, path: Path, context: ReadContext): string[] {
  if (node.kind !== "array") return fail(context, path, node.offset, "must be a list of tool names");
  return node.items.map((item, index) => readString(item, [...path, index], context));
}

/**
 * The limit every spelling of it writes together: a tool is offered only when each include list names it
 * (or has "*"), and never when any exclude list does. A field that looks like a limit and is none of these fails.
 */
function readToolLimit(server: JsonObjectNode, path: Path, known: readonly string[], context: ReadContext): ToolLimit | undefined {
  for (const [field, member] of server.members) {
    if (known.includes(field) || !LIMIT_LIKE.test(field)) continue;
    const detail = `looks like a limit on this server's tools, and mca does not know it: the server is not started rather than offered with every tool (mca reads ${[...INCLUDE_FIELDS, ...EXCLUDE_FIELDS].join(", ")})`;
    fail(context, [...path, field], member.keyOffset, detail);
  }
  const lists = (fields: readonly string[]): string[][] =>
    fields.flatMap((field) => {
      const node = optionalField(server, field);
      return node === undefined ? [] : [readNames(node, [...path, field], context)];
    });
  const includes = lists(INCLUDE_FIELDS);
  const excludes = lists(EXCLUDE_FIELDS);
  if (includes.length === 0 && excludes.length === 0) return undefined;
  // A list with "*" restricts nothing; the others together offer only the names all of them have.
  const restricting = includes.filter((list) => !list.includes("*"));
  const [first, ...others] = restricting;
  const include = includes.length === 0 ? undefined : first === undefined ? ["*"] : others.reduce((kept, list) => kept.filter((name) => list.includes(name)), first);
  return { ...(include === undefined ? {} : { include }), exclude: [...new Set(excludes.flat())] };
}

/** `timeoutMs`, or Gemini CLI's `timeout` (milliseconds too); both written, they must agree. */
function readTimeout(server: JsonObjectNode, path: Path, context: ReadContext): { timeoutMs?: number } {
  const values = TIMEOUT_FIELDS.flatMap((field) => {
    const node = optionalField(server, field);
    return node === undefined ? [] : [{ field, node, value: readPositiveInteger(node, [...path, field], context, "milliseconds") }];
  });
  const [first, second] = values;
  if (first !== undefined && second !== undefined && first.value !== second.value) fail(context, [...path, second.field], second.node.offset, `contradicts "${first.field}": ${first.value} beside it`);
  return first === undefined ? {} : { timeoutMs: first.value };
}

function warning(context: ReadContext, path: Path, offset: number, detail: string): ConfigError {
  return new ConfigError(context.file, formatPath(path), detail, positionAt(context.text, offset));
}

/** A rule as the shell takes it: plain words bare, anything else in single quotes. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * A config file never lets a tool run without asking (it may come with a repository): `alwaysAllow`,
 * `autoApprove` and `trust: true` are not applied, and one warning names the `--allow` rules that would do it.
 */
function autoApproveWarning(alias: string, server: JsonObjectNode, path: Path, context: ReadContext): ConfigError | undefined {
  const granting = [...server.members].filter(([field, { value }]) =>
    field === TRUST_FIELD ? value.kind === "boolean" && value.value : AUTO_APPROVE_FIELDS.includes(field) && value.kind === "array" && value.items.length > 0,
  );
  const [first] = granting;
  if (first === undefined) return undefined;
  const trusted = granting.some(([field]) => field === TRUST_FIELD);
  const names = granting.flatMap(([, { value }]) => (value.kind === "array" ? value.items.flatMap((item) => (item.kind === "string" ? [item.value] : [])) : []));
  const rules = trusted ? [serverSideName(alias, "*")] : [...new Set(names)].map((name) => serverSideName(alias, name));
  const what = trusted ? `every tool of "${alias}"` : rules.length === 1 ? "that tool" : "those tools";
  const detail = `not applied: a config file never lets a tool run without asking; to let ${what} run without asking, start mca with ${rules.map((rule) => `--allow ${shellWord(rule)}`).join(" ")}`;
  return warning(context, [...path, first[0]], first[1].keyOffset, detail);
}

/** The entry `alias` at `path` in its file (`mcpServers.<alias>`, VS Code's `servers.<alias>`). */
export function readServer(alias: string, node: JsonNode, context: McpReadContext, path: Path = ["mcpServers", alias]): ReadServer {
  const server = readObject(node, path, context);
  const transport = TRANSPORTS[transportOf(server, path, context)];
  const milliseconds = (field: "startupTimeoutMs"): Partial<Record<typeof field, number>> => {
    const node = optionalField(server, field);
    return node === undefined ? {} : { [field]: readPositiveInteger(node, [...path, field], context, "milliseconds") };
  };
  const logLevel = optionalField(server, "logLevel");
  const rootsNode = optionalField(server, "roots");
  const roots = rootsNode === undefined ? undefined : readRoots(rootsNode, [...path, "roots"], context);
  const common: Common = {
    alias,
    ...readTimeout(server, path, context),
    ...milliseconds("startupTimeoutMs"),
    ...(logLevel === undefined ? {} : { logLevel: readLogLevel(logLevel, [...path, "logLevel"], context) }),
    ...(roots === undefined ? {} : { roots: roots.roots }),
    enabled: readEnabled(server, path, context),
  };
  const config = transport.read(common, server, path, context);
  const tools = readToolLimit(server, path, transport.fields, context);
  const autoApprove = autoApproveWarning(alias, server, path, context);
  const warnings = [
    ...unknownFieldWarnings(server, path, transport.fields, context),
    ...(autoApprove === undefined ? [] : [autoApprove]),
    ...(roots?.warnings ?? []),
  ];
  return { server: config, ...(tools === undefined ? {} : { tools }), warnings: warnings.sort(byPlace) };
}

/** In the file's order. */
function byPlace(a: ConfigError, b: ConfigError): number {
  return (a.position?.line ?? 0) - (b.position?.line ?? 0) || (a.position?.column ?? 0) - (b.position?.column ?? 0);
}

/** A field mca does not read (another host's, or a typo) is ignored, and said so at its place. */
export function unknownFieldWarnings(object: JsonObjectNode, path: Path, known: readonly string[], context: ReadContext): ConfigError[] {
  return [...object.members]
    .filter(([field]) => !known.includes(field))
    .map(([field, member]) => warning(context, [...path, field], member.keyOffset, `unknown field, ignored (mca reads: ${known.join(", ")})`));
}
