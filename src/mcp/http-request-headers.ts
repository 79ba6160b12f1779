// The headers of one Streamable HTTP POST (spec §5.1): the standard MCP headers derived from the message,
// the `Mcp-Param-*` values, a legacy session id, and the user's own headers from the config.
import { encodeHeaderValue } from "./header-value.js";
import type { JsonRpcMessage } from "./jsonrpc.js";
import type { ParamHeader } from "./transport.js";

const PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion";
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The protocol version a message speaks: `params._meta["io.modelcontextprotocol/protocolVersion"]`, or
 * for the legacy `initialize` (2025-11-25 handshake) the version it requests. Undefined when it names none.
 */
export function messageProtocolVersion(message: JsonRpcMessage): string | undefined {
  if (!("method" in message) || !isRecord(message.params)) return undefined;
  const meta = message.params["_meta"];
  const fromMeta = isRecord(meta) ? meta[PROTOCOL_VERSION_META_KEY] : undefined;
  if (typeof fromMeta === "string") return fromMeta;
  const requested = message.method === "initialize" ? message.params["protocolVersion"] : undefined;
  return typeof requested === "string" ? requested : undefined;
}

/** The user's headers minus those the transport sets itself, so the standard headers always describe the body. */
export function userHeaders(headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!OWNED_HEADERS.has(lower) && !lower.startsWith("mcp-param-")) kept[name] = value;
  }
  return kept;
}

export type RequestHeaderInput = {
  readonly message: JsonRpcMessage;
  /** The message's own version, else the last one sent; undefined only before any version was sent. */
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
    const name = nameParam !== undefined && isRecord(message.params) ? message.params[nameParam] : undefined;
    if (typeof name === "string") headers["Mcp-Name"] = encodeHeaderValue(name);
  }
  for (const param of input.paramHeaders) headers[`Mcp-Param-${param.name}`] = encodeHeaderValue(param.value);
  if (input.sessionId !== undefined) headers["Mcp-Session-Id"] = input.sessionId;
  return headers;
}
