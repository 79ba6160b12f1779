// The MCP server config: mcp.config.json (or --mcp-config) validated into a typed McpConfig with `${VAR}`
// expanded, or the first ConfigError found. The shape is the one other MCP hosts use: stdio `{ command,
// args?, env?, cwd? }`, HTTP `{ type: "http", url, headers?, oauth? }`, plus our own `timeoutMs`, `startupTimeoutMs`, `logLevel` and `enabled`.
import { MODEL_KEY_VARIABLES, secretsIn } from "../kernel/index.js";
import {
  isLogLevel,
  LOG_LEVELS,
  sanitizeAlias,
  toolPrefix,
  type HttpServerConfig,
  type LogLevel,
  type McpConfig,
  type McpServerConfig,
  type OAuthClientConfig,
  type StdioServerConfig,
} from "../mcp/index.js";
import {
  ConfigError,
  fail,
  optionalField,
  readBoolean,
  readConfigJson,
  readExpandedString,
  readExpandedStringArray,
  readExpandedStringMap,
  readConfigText,
  readingConfig,
  readNonEmptyExpandedString,
  readObject,
  readPositiveInteger,
  readString,
  rejectUnknownFields,
  requiredField,
  type Env,
  type JsonObjectNode,
  type Path,
  type ReadContext,
} from "./config-reader.js";
import type { JsonNode, PathSegment } from "./json-reader.js";

const ROOT_FIELDS = ["mcpServers"];

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
    const path = ["mcpServers", alias];
    if (alias === "") fail(context, path, member.keyOffset, "an alias must not be empty");
    const other = aliasBySanitised.get(sanitizeAlias(alias));
    if (other !== undefined) {
      const detail = `duplicate alias: "${other}" and "${alias}" both give the tool prefix ${toolPrefix(alias)}`;
      fail(context, path, member.keyOffset, detail);
    }
    aliasBySanitised.set(sanitizeAlias(alias), alias);
  }
}

function readConfig(context: ReadContext, root: JsonObjectNode): McpConfig {
  rejectUnknownFields(root, [], ROOT_FIELDS, context);
  const servers = readObject(requiredField(root, "mcpServers", [], context), ["mcpServers"], context);
  checkAliases(servers, context);
  return {
    file: context.file,
    servers: [...servers.members].map(([alias, member]) => readServer(alias, member.value, context)),
  };
}

/** mcp.config.json validated into a typed McpConfig, or the first ConfigError found. Pure. */
export function parseMcpConfig(text: string, file: string, env: Env): McpConfig | ConfigError {
  return parseConfig({ file, text, env });
}

/**
 * The same config with every string as written (`${VAR}` kept), once it has passed every check expanded:
 * what the trust question shows. It fails exactly when parseMcpConfig does; it is never what runs.
 */
export function mcpConfigAsWritten(text: string, file: string, env: Env): McpConfig | ConfigError {
  return parseConfig({ file, text, env, asWritten: true });
}

function parseConfig(context: ReadContext): McpConfig | ConfigError {
  const { text, file } = context;
  const root = readConfigJson(text, file, duplicateDetail);
  if (root instanceof ConfigError) return root;
  return readingConfig(() => readConfig(context, readObject(root, [], context)));
}

/** Reads and validates an MCP config file: the config, or a ConfigError (the file cannot be read, or is not valid). */
export async function loadMcpConfig(path: string, env: Env): Promise<McpConfig | ConfigError> {
  const text = readConfigText(path, "cannot read the file");
  if (text === null) return new ConfigError(path, "", "cannot read the file: ENOENT: no such file or directory");
  return text instanceof ConfigError ? text : parseMcpConfig(text, path, env);
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
    if (server.transport === "http" && server.oauth?.clientSecret !== undefined) values.push(server.oauth.clientSecret);
  }
  for (const name of MODEL_KEY_VARIABLES) {
    const value = env[name];
    if (value !== undefined && value !== "") values.push(value);
  }
  return secretsIn(values);
}

// One entry of `mcpServers`, validated into a typed server config.

type Transport = McpServerConfig["transport"];

/** Values of `type`: other hosts spell Streamable HTTP in several ways; all mean our "http". */
const TRANSPORT_BY_TYPE = new Map<string, Transport>([
  ["stdio", "stdio"],
  ["http", "http"],
  ["streamable-http", "http"],
  ["streamableHttp", "http"],
]);
const TYPE_CHOICES = [...TRANSPORT_BY_TYPE.keys()].map((name) => JSON.stringify(name)).join(", ");

/** RFC 9110 token characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What fetch accepts as a header value: Latin-1 text without NUL, CR or LF. */
const HEADER_VALUE = /^[^\0\r\n\u0100-\uffff]*$/;
const URL_PROTOCOLS = ["http:", "https:"];

const COMMON_FIELDS = ["type", "timeoutMs", "startupTimeoutMs", "logLevel", "enabled"];

/** What every transport's entry shares: spread as it is into the server config. */
interface Common {
  readonly alias: string;
  readonly timeoutMs?: number;
  readonly startupTimeoutMs?: number;
  readonly logLevel?: LogLevel;
  readonly enabled: boolean;
}

function transportOf(server: JsonObjectNode, path: Path, context: ReadContext): Transport {
  const type = optionalField(server, "type");
  if (type === undefined) return server.members.has("url") && !server.members.has("command") ? "http" : "stdio";
  const name = readString(type, [...path, "type"], context);
  const transport = TRANSPORT_BY_TYPE.get(name);
  if (transport !== undefined) return transport;
  const hint = name === "sse" ? ' (the old HTTP+SSE transport is not supported; Streamable HTTP is "http")' : "";
  return fail(context, [...path, "type"], type.offset, `must be one of ${TYPE_CHOICES}${hint}`);
}

function readLogLevel(node: JsonNode, path: Path, context: ReadContext): LogLevel {
  const level = readString(node, path, context);
  if (isLogLevel(level)) return level;
  return fail(context, path, node.offset, `must be one of ${LOG_LEVELS.map((name) => JSON.stringify(name)).join(", ")}`);
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

function readStdio(common: Common, server: JsonObjectNode, path: Path, context: ReadContext): StdioServerConfig {
  const args = optionalField(server, "args");
  const env = optionalField(server, "env");
  const cwd = optionalField(server, "cwd");
  const maxLineBytes = optionalField(server, "maxLineBytes");
  const inheritEnv = optionalField(server, "inheritEnv");
  return {
    ...common,
    transport: "stdio",
    command: readNonEmptyExpandedString(requiredField(server, "command", path, context), [...path, "command"], context),
    args: args === undefined ? [] : readExpandedStringArray(args, [...path, "args"], context),
    env: env === undefined ? {} : readExpandedStringMap(env, [...path, "env"], context),
    ...(inheritEnv === undefined ? {} : { inheritEnv: readBoolean(inheritEnv, [...path, "inheritEnv"], context) }),
    ...(cwd === undefined ? {} : { cwd: readString(cwd, [...path, "cwd"], context) }),
    ...(maxLineBytes === undefined ? {} : { maxLineBytes: readPositiveInteger(maxLineBytes, [...path, "maxLineBytes"], context, "bytes") }),
  };
}

const OAUTH_FIELDS = ["clientId", "clientSecret", "scopes", "callbackPort"];
const MAX_PORT = 65_535;

/** `oauth: { clientId?, clientSecret?, scopes?, callbackPort? }`: a pre-registered client and login settings. */
function readOAuth(node: JsonNode, path: Path, context: ReadContext): OAuthClientConfig {
  const oauth = readObject(node, path, context);
  rejectUnknownFields(oauth, path, OAUTH_FIELDS, context);
  const field = (name: string): JsonNode | undefined => optionalField(oauth, name);
  const clientId = field("clientId");
  const clientSecret = field("clientSecret");
  const scopes = field("scopes");
  const callbackPort = field("callbackPort");
  if (clientSecret !== undefined && clientId === undefined) fail(context, [...path, "clientSecret"], clientSecret.offset, "needs a clientId beside it");
  const port = callbackPort === undefined ? undefined : readPositiveInteger(callbackPort, [...path, "callbackPort"], context, "a TCP port");
  if (port !== undefined && port > MAX_PORT && callbackPort !== undefined) fail(context, [...path, "callbackPort"], callbackPort.offset, `must be a TCP port (1 to ${MAX_PORT})`);
  return {
    ...(clientId === undefined ? {} : { clientId: readNonEmptyExpandedString(clientId, [...path, "clientId"], context) }),
    ...(clientSecret === undefined ? {} : { clientSecret: readNonEmptyExpandedString(clientSecret, [...path, "clientSecret"], context) }),
    ...(scopes === undefined ? {} : { scopes: readExpandedStringArray(scopes, [...path, "scopes"], context) }),
    ...(port === undefined ? {} : { callbackPort: port }),
  };
}

function readHttp(common: Common, server: JsonObjectNode, path: Path, context: ReadContext): HttpServerConfig {
  const headers = optionalField(server, "headers");
  const oauth = optionalField(server, "oauth");
  return {
    ...common,
    transport: "http",
    url: readExpandedString(requiredField(server, "url", path, context), [...path, "url"], context, urlProblem),
    headers: headers === undefined ? {} : readExpandedStringMap(headers, [...path, "headers"], context, checkHeader),
    ...(oauth === undefined ? {} : { oauth: readOAuth(oauth, [...path, "oauth"], context) }),
  };
}

interface TransportEntry {
  readonly fields: readonly string[];
  readonly read: (common: Common, server: JsonObjectNode, path: Path, context: ReadContext) => McpServerConfig;
}

const TRANSPORTS: Readonly<Record<Transport, TransportEntry>> = {
  stdio: { fields: [...COMMON_FIELDS, "command", "args", "env", "inheritEnv", "cwd", "maxLineBytes"], read: readStdio },
  http: { fields: [...COMMON_FIELDS, "url", "headers", "oauth"], read: readHttp },
};

function readServer(alias: string, node: JsonNode, context: ReadContext): McpServerConfig {
  const path = ["mcpServers", alias];
  const server = readObject(node, path, context);
  const transport = TRANSPORTS[transportOf(server, path, context)];
  rejectUnknownFields(server, path, transport.fields, context);
  const enabled = optionalField(server, "enabled");
  const milliseconds = (field: "timeoutMs" | "startupTimeoutMs"): Partial<Record<typeof field, number>> => {
    const node = optionalField(server, field);
    return node === undefined ? {} : { [field]: readPositiveInteger(node, [...path, field], context, "milliseconds") };
  };
  const logLevel = optionalField(server, "logLevel");
  const common: Common = {
    alias,
    ...milliseconds("timeoutMs"),
    ...milliseconds("startupTimeoutMs"),
    ...(logLevel === undefined ? {} : { logLevel: readLogLevel(logLevel, [...path, "logLevel"], context) }),
    enabled: enabled === undefined ? true : readBoolean(enabled, [...path, "enabled"], context),
  };
  return transport.read(common, server, path, context);
}
