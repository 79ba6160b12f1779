// Streamable HTTP header validation (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports#streamable-http): the standard headers must be present and equal to
// what the body says, and an `x-mcp-header` argument must travel as a matching `Mcp-Param-*` header.
// Every failure is 400 + -32020. Names are case-insensitive, values case-sensitive, OWS is trimmed.
import { decodeHeaderValue, isJsonObject, type JsonObject } from "../../src/mcp/index.js";
import { HEADER_MISMATCH, rpcError, type RpcError } from "../shared/rpc-error.js";
import type { ToolEntry } from "../shared/tool.js";

/** A request header by lower-case name, as received (untrimmed). */
export type HeaderLookup = (lowerCaseName: string) => string | undefined;

/** Tab (OWS) and visible ASCII with the space: anything else must travel as a `=?base64?…?=` sentinel. */
const PLAIN_HEADER_VALUE = /^[\t\x20-\x7e]*$/;
const NUMBER_TEXT = /^[+-]?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/** Which body field `Mcp-Name` mirrors, for the three methods that carry it. */
const NAME_FIELD: Readonly<Record<string, "name" | "uri">> = { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" };

function mismatch(message: string): RpcError {
  return rpcError(HEADER_MISMATCH, `Header mismatch: ${message}`);
}

export function checkVersionHeaderPresent(header: HeaderLookup): RpcError | undefined {
  return header("mcp-protocol-version") === undefined ? mismatch("the MCP-Protocol-Version header is missing") : undefined;
}

/** "On HTTP must equal the MCP-Protocol-Version header." */
export function checkVersionHeaderMatches(header: HeaderLookup, metaVersion: string): RpcError | undefined {
  const value = header("mcp-protocol-version")?.trim();
  if (value === metaVersion) return undefined;
  return mismatch(`MCP-Protocol-Version ${JSON.stringify(value)} differs from _meta protocolVersion ${JSON.stringify(metaVersion)}`);
}

/** `Mcp-Method`, then `Mcp-Name` where the method has one, then `Mcp-Param-*` for a known tool. */
export function checkRoutingHeaders(header: HeaderLookup, method: string, params: JsonObject, tools: readonly ToolEntry[]): RpcError | undefined {
  const methodHeader = header("mcp-method")?.trim();
  if (methodHeader === undefined) return mismatch("the Mcp-Method header is missing");
  if (methodHeader !== method) return mismatch(`Mcp-Method ${JSON.stringify(methodHeader)} differs from the body method ${JSON.stringify(method)}`);
  const field = NAME_FIELD[method];
  if (field === undefined) return undefined;
  const nameProblem = checkMirroredValue(header, "Mcp-Name", params[field], `params.${field}`);
  if (nameProblem || method !== "tools/call") return nameProblem;
  const tool = tools.find((entry) => entry.definition.name === params["name"]);
  return tool ? checkParamHeaders(header, tool, isJsonObject(params["arguments"]) ? params["arguments"] : {}) : undefined;
}

function checkParamHeaders(header: HeaderLookup, tool: ToolEntry, args: JsonObject): RpcError | undefined {
  const properties = tool.definition.inputSchema["properties"];
  if (!isJsonObject(properties)) return undefined;
  for (const [key, schema] of Object.entries(properties)) {
    const headerName = isJsonObject(schema) ? schema["x-mcp-header"] : undefined;
    if (typeof headerName !== "string") continue;
    const problem = checkMirroredValue(header, `Mcp-Param-${headerName}`, args[key], `arguments.${key}`);
    if (problem) return problem;
  }
  return undefined;
}

/** A header that mirrors a body value: both absent is fine; otherwise both present and equal once decoded. */
function checkMirroredValue(header: HeaderLookup, name: string, bodyValue: unknown, where: string): RpcError | undefined {
  const raw = header(name.toLowerCase());
  const bodyHasValue = bodyValue !== undefined && bodyValue !== null;
  if (raw === undefined) return bodyHasValue ? mismatch(`the ${name} header is missing while ${where} is set`) : undefined;
  if (!PLAIN_HEADER_VALUE.test(raw)) {
    return mismatch(`${name} holds characters that cannot travel as plain header text; use the =?base64?...?= form`);
  }
  const decoded = decodeHeaderValue(raw);
  if (decoded instanceof Error) return mismatch(`${name}: ${decoded.message}`);
  if (!bodyHasValue) return mismatch(`the ${name} header is set but ${where} is absent`);
  if (sameValue(decoded, bodyValue)) return undefined;
  return mismatch(`${name} ${JSON.stringify(decoded)} differs from ${where} ${JSON.stringify(bodyValue)}`);
}

/** Strings exactly; integers numerically (`42.0` equals 42); booleans as `true` / `false`. */
function sameValue(headerValue: string, bodyValue: unknown): boolean {
  if (typeof bodyValue === "string") return headerValue === bodyValue;
  if (typeof bodyValue === "number") return NUMBER_TEXT.test(headerValue) && Number(headerValue) === bodyValue;
  if (typeof bodyValue === "boolean") return headerValue === String(bodyValue);
  return false;
}
