// The headers of one Streamable HTTP POST (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports#streamable-http): the standard
// MCP headers derived from the message, the `Mcp-Param-*` values of `x-mcp-header` arguments, a legacy session
// id, and the user's own headers from the config — every value that is not plain header text in the
// `=?base64?…?=` form.
import { createRedactor, secretsIn, type JsonSchema, type Redact, type ToolArgs } from "../../kernel/index.js";
import { isJsonObject, type JsonObject, type JsonRpcMessage } from "../jsonrpc.js";
import { isLegacyVersion, messageProtocolVersion } from "../versions.js";

// ---------------------------------------------------------------------------------------------------
// Value encoding (SEP-2243): plain when it is visible ASCII without leading/trailing whitespace,
// otherwise `=?base64?<base64 of the UTF-8 bytes>?=`.

const SENTINEL_PREFIX = "=?base64?";
const SENTINEL_SUFFIX = "?=";
/** Visible ASCII and the space: the only characters a plain header value may hold. */
const PLAIN_SAFE = /^[\x20-\x7e]*$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function looksLikeSentinel(value: string): boolean {
  return value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX);
}

/** "Use the sentinel form when the string cannot be sent plainly" — including a plain look-alike. */
export function encodeHeaderValue(value: string): string {
  const plain = PLAIN_SAFE.test(value) && value.trim() === value && !looksLikeSentinel(value);
  if (plain) return value;
  return SENTINEL_PREFIX + Buffer.from(value, "utf8").toString("base64") + SENTINEL_SUFFIX;
}

/**
 * The server side: a value in the exact lowercase sentinel form is decoded; malformed base64 inside it is
 * an error; anything else (no prefix, `=?BASE64?`) is literal text. Surrounding whitespace is OWS.
 */
export function decodeHeaderValue(raw: string): string | Error {
  const value = raw.trim();
  if (!looksLikeSentinel(value) || value.length < SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length) return value;
  const body = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
  if (!BASE64.test(body)) return new Error(`malformed base64 in header value ${JSON.stringify(raw)}`);
  const decoded = Buffer.from(body, "base64").toString("utf8");
  if (Buffer.from(decoded, "utf8").toString("base64") !== body) {
    return new Error(`header value ${JSON.stringify(raw)} is not valid UTF-8`);
  }
  return decoded;
}

// ---------------------------------------------------------------------------------------------------
// `x-mcp-header`: a tool's input schema may ask for some arguments to travel also as
// `Mcp-Param-<Name>` headers. Reading the annotations validates them; a tool with a bad one is dropped.

export type ParamHeaderSpec = {
  readonly header: string;
  readonly path: readonly string[];
  readonly type: "string" | "integer" | "boolean";
};

const ANNOTATION = "x-mcp-header";
/** RFC 9110 `token = 1*tchar`. */
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Keywords whose values are instance data, not schemas: an `x-mcp-header` key inside them annotates nothing. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);
/** Keywords whose values map arbitrary names to schemas, so the names themselves are never annotations. */
const SCHEMA_MAP_KEYWORDS = new Set(["$defs", "definitions", "patternProperties", "dependentSchemas"]);

type Found = { readonly at: string; readonly path: readonly string[] | null; readonly schema: JsonObject };

/**
 * Collects every schema object that carries the annotation, with its JSON pointer and, when it is reached
 * from the root through `properties` keys only, its argument path (otherwise null).
 */
function collect(schema: unknown, at: string, path: readonly string[] | null, found: Found[]): void {
  if (Array.isArray(schema)) {
    schema.forEach((item, index) => collect(item, `${at}/${index}`, null, found));
    return;
  }
  if (!isJsonObject(schema)) return;
  if (ANNOTATION in schema) found.push({ at, path, schema });
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === ANNOTATION || DATA_KEYWORDS.has(keyword)) continue;
    const here = `${at}/${keyword}`;
    if ((keyword === "properties" || SCHEMA_MAP_KEYWORDS.has(keyword)) && isJsonObject(value)) {
      for (const [name, child] of Object.entries(value)) {
        const childPath = keyword === "properties" && path !== null ? [...path, name] : null;
        collect(child, `${here}/${name}`, childPath, found);
      }
    } else {
      collect(value, here, null, found);
    }
  }
}

function readOne(entry: Found): ParamHeaderSpec | Error {
  const header = entry.schema[ANNOTATION];
  const shown = typeof header === "string" ? JSON.stringify(header) : String(header);
  if (entry.path === null || entry.path.length === 0) {
    return new Error(`x-mcp-header ${shown} at ${entry.at || "/"} is not reachable from the root through properties only`);
  }
  const where = `property ${JSON.stringify(entry.path.join("."))}`;
  if (typeof header !== "string") return new Error(`${where}: x-mcp-header is not a string`);
  if (header === "") return new Error(`${where}: x-mcp-header is empty`);
  if (!HTTP_TOKEN.test(header)) return new Error(`${where}: x-mcp-header ${shown} is not a valid header token`);
  const type = entry.schema["type"];
  if (type !== "string" && type !== "integer" && type !== "boolean") {
    const typeText = type === undefined ? "no type" : `type ${JSON.stringify(type)}`;
    return new Error(`${where}: x-mcp-header ${shown} is on a property of ${typeText} (only string, integer or boolean)`);
  }
  return { header, path: entry.path, type };
}

/** An Error whose message names the reason, e.g. `property "region": x-mcp-header "My Region" is not a valid header token`. */
export function readParamHeaderSpecs(inputSchema: JsonSchema): readonly ParamHeaderSpec[] | Error {
  const found: Found[] = [];
  collect(inputSchema, "", [], found);
  const specs: ParamHeaderSpec[] = [];
  const seen = new Map<string, ParamHeaderSpec>();
  for (const entry of found) {
    const spec = readOne(entry);
    if (spec instanceof Error) return spec;
    const earlier = seen.get(spec.header.toLowerCase());
    if (earlier !== undefined) {
      return new Error(
        `property ${JSON.stringify(spec.path.join("."))}: x-mcp-header ${JSON.stringify(spec.header)} ` +
          `duplicates ${JSON.stringify(earlier.header)} of property ${JSON.stringify(earlier.path.join("."))}`,
      );
    }
    seen.set(spec.header.toLowerCase(), spec);
    specs.push(spec);
  }
  return specs;
}

function valueAt(args: ToolArgs, path: readonly string[]): unknown {
  let value: unknown = args;
  for (const key of path) {
    if (!isJsonObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

/**
 * Stringified values for the present, non-null annotated arguments (integers as decimals, booleans
 * true/false). A value the schema does not allow (an object, a fraction or an unsafe integer where an
 * integer is due) is left out: the server then rejects the call with -32020 and says why.
 */
export function paramHeaderValues(specs: readonly ParamHeaderSpec[], args: ToolArgs): ParamHeader[] {
  const headers: ParamHeader[] = [];
  for (const spec of specs) {
    const value = valueAt(args, spec.path);
    if (typeof value === "string" || typeof value === "boolean") {
      headers.push({ name: spec.header, value: String(value) });
    } else if (typeof value === "number" && Number.isSafeInteger(value)) {
      headers.push({ name: spec.header, value: String(value) });
    }
  }
  return headers;
}

/** The value of one `x-mcp-header` argument, already stringified; it travels as `Mcp-Param-<name>`. */
export type ParamHeader = { readonly name: string; readonly value: string };

/**
 * What the client learns from the `tools/list` replies: each tool's `x-mcp-header` declarations, from which
 * a tools/call's `Mcp-Param-*` values follow. "A tool with any invalid annotation MUST be dropped from the
 * client's tools/list view (log a warning with tool name + reason)": such a tool is taken out of the reply
 * before the list is read.
 */
export interface ParamHeaderTable {
  /** One page of a listing; `fresh` when it is the first (the listing starts over). */
  screen(result: JsonObject, fresh: boolean, warn: (message: string) => void): JsonObject;
  /** The `Mcp-Param-*` values for the params of a tools/call. */
  valuesFor(params: JsonObject): ParamHeader[];
}

export function createParamHeaderTable(): ParamHeaderTable {
  const specsByTool = new Map<string, readonly ParamHeaderSpec[]>();

  function keep(tool: unknown, warn: (message: string) => void): boolean {
    // A tool without a name or a schema is the client's to drop, with its own reason.
    if (!isJsonObject(tool) || typeof tool.name !== "string" || !isJsonObject(tool.inputSchema)) return true;
    const specs = readParamHeaderSpecs(tool.inputSchema);
    if (specs instanceof Error) {
      warn(`dropping tool "${tool.name}": ${specs.message}`);
      return false;
    }
    // The first tool of a name is the one the client keeps.
    if (!specsByTool.has(tool.name)) specsByTool.set(tool.name, specs);
    return true;
  }

  return {
    screen(result, fresh, warn) {
      if (fresh) specsByTool.clear();
      const { tools } = result;
      if (!Array.isArray(tools)) return result;
      const kept = tools.filter((tool: unknown) => keep(tool, warn));
      return kept.length === tools.length ? result : { ...result, tools: kept };
    },
    valuesFor(params) {
      const specs = typeof params.name === "string" ? specsByTool.get(params.name) : undefined;
      return specs === undefined || !isJsonObject(params.arguments) ? [] : paramHeaderValues(specs, params.arguments);
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// The header table of one connection.

/** What one message carries beside its body. */
export type MessageHeaders = {
  /** The version the message names itself, else the one in use; undefined when there is none to send. */
  readonly protocolVersion: string | undefined;
  /** The message speaks an initialize-based version: it may open, and then carries, a session. */
  readonly legacy: boolean;
  readonly paramHeaders: readonly ParamHeader[];
};

/**
 * What an HTTP transport sends beside each message (MCP-Protocol-Version, Mcp-Param-*), given to it when it
 * is built and shared with the connection's wire, which tells it the version in use, and whose requests
 * screen each tools/list page into `params`. The transport only reads it: it never reads a protocol version itself, and
 * never calls back into a client.
 */
export interface HeaderTable {
  /** Told by the wire: the version its messages speak from now on. */
  speak(version: string): void;
  /** The `x-mcp-header` declarations of the tools listed last. */
  readonly params: ParamHeaderTable;
  forMessage(message: JsonRpcMessage): MessageHeaders;
  /** The version in use, for a legacy session's GET and DELETE; undefined until a wire speaks one. */
  version(): string | undefined;
}

export function createHeaderTable(): HeaderTable {
  let spoken: string | undefined;
  const params = createParamHeaderTable();
  return {
    speak(version) {
      spoken = version;
    },
    params,
    forMessage(message) {
      // A message that names no version (a legacy `notifications/initialized`, an answer to a legacy
      // server's request) speaks the connection's.
      const protocolVersion = messageProtocolVersion(message) ?? spoken;
      const isCall = "method" in message && "id" in message && message.method === "tools/call";
      const paramHeaders = isCall && message.params !== undefined ? params.valuesFor(message.params) : [];
      return { protocolVersion, legacy: protocolVersion !== undefined && isLegacyVersion(protocolVersion), paramHeaders };
    },
    version: () => spoken,
  };
}

// ---------------------------------------------------------------------------------------------------
// The request headers.

/** "Mcp-Name: params.name (tools/call, prompts/get) or params.uri (resources/read); only those 3 methods." */
const NAME_PARAM_BY_METHOD: ReadonlyMap<string, string> = new Map([
  ["tools/call", "name"],
  ["prompts/get", "name"],
  ["resources/read", "uri"],
]);
/** Headers this transport owns; a config header of the same name (any case) would contradict the message. */
const OWNED_HEADERS = new Set([
  "content-type",
  "content-length",
  "accept",
  "mcp-protocol-version",
  "mcp-method",
  "mcp-name",
  "mcp-session-id",
]);

/** The user's headers minus those the transport sets itself, so the standard headers always describe the body. */
export function userHeaders(headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!OWNED_HEADERS.has(lower) && !lower.startsWith("mcp-param-")) kept[name] = value;
  }
  return kept;
}

/**
 * The redaction of the user's header values and, with a login, its `Authorization` (a secret like them):
 * secrets are found whatever their case, before any cut (a body snippet) can split one. Made once per
 * token, not once per request.
 */
export function createHeaderRedactor(userHeaders: Readonly<Record<string, string>>): (authorization: string | undefined) => Redact {
  const plain = createRedactor(secretsIn(Object.values(userHeaders)));
  let withToken: { readonly authorization: string; readonly redact: Redact } | undefined;
  return (authorization) => {
    if (authorization === undefined) return plain;
    if (withToken?.authorization !== authorization) {
      withToken = { authorization, redact: createRedactor(secretsIn([...Object.values(userHeaders), authorization])) };
    }
    return withToken.redact;
  };
}

export type RequestHeaderInput = {
  readonly message: JsonRpcMessage;
  /** The message's own version, else the connection's; undefined when there is none to send. */
  readonly protocolVersion: string | undefined;
  readonly paramHeaders: readonly ParamHeader[];
  /** Echoed only when a (legacy) server minted one: modern servers never do, and ignore it. */
  readonly sessionId: string | undefined;
  /** Already passed through `userHeaders`. */
  readonly userHeaders: Readonly<Record<string, string>>;
  readonly contentLength: number;
};

export function buildRequestHeaders(input: RequestHeaderInput): Record<string, string> {
  const { message } = input;
  const headers: Record<string, string> = {
    ...input.userHeaders,
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "Content-Length": String(input.contentLength),
  };
  if (input.protocolVersion !== undefined) headers["MCP-Protocol-Version"] = encodeHeaderValue(input.protocolVersion);
  if ("method" in message) {
    headers["Mcp-Method"] = encodeHeaderValue(message.method);
    const nameParam = NAME_PARAM_BY_METHOD.get(message.method);
    const name = nameParam !== undefined && isJsonObject(message.params) ? message.params[nameParam] : undefined;
    if (typeof name === "string") headers["Mcp-Name"] = encodeHeaderValue(name);
  }
  for (const param of input.paramHeaders) headers[`Mcp-Param-${param.name}`] = encodeHeaderValue(param.value);
  if (input.sessionId !== undefined) headers["Mcp-Session-Id"] = input.sessionId;
  return headers;
}
