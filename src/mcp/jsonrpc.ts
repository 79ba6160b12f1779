// JSON-RPC 2.0 message shapes as they travel on any MCP transport, and the one parser that turns an
// incoming frame into a typed message (validate once at the boundary).

export type JsonRpcId = number | string;
export type JsonObject = { [key: string]: unknown };

export type JsonRpcRequest = {
  readonly jsonrpc: "2.0";
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params: JsonObject;
};
export type JsonRpcNotification = { readonly jsonrpc: "2.0"; readonly method: string; readonly params?: JsonObject };
export type JsonRpcErrorObject = { readonly code: number; readonly message: string; readonly data?: unknown };
export type JsonRpcSuccess = { readonly jsonrpc: "2.0"; readonly id: JsonRpcId; readonly result: JsonObject };
export type JsonRpcFailure = { readonly jsonrpc: "2.0"; readonly id: JsonRpcId | null; readonly error: JsonRpcErrorObject };
export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** Spec-defined error codes this client reacts to (spec digest §10). */
export const HEADER_MISMATCH = -32020;
export const MISSING_CLIENT_CAPABILITY = -32021;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is JsonRpcId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

function parseErrorObject(value: unknown): JsonRpcErrorObject | Error {
  if (!isJsonObject(value)) return new Error("`error` is not an object");
  const { code, message, data } = value;
  if (typeof code !== "number" || !Number.isInteger(code)) return new Error("`error.code` is not an integer");
  if (typeof message !== "string") return new Error("`error.message` is not a string");
  return data === undefined ? { code, message } : { code, message, data };
}

/**
 * The boundary parser both transports use on every incoming frame: the text of one message in, a typed
 * message or an Error saying what is wrong out. Batches are not part of MCP since 2025-06-18.
 */
export function parseMessage(text: string): JsonRpcMessage | Error {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return new Error(`not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isJsonObject(value)) return new Error("not a JSON-RPC message: not a JSON object");
  if (value.jsonrpc !== "2.0") return new Error('not a JSON-RPC message: `jsonrpc` is not "2.0"');
  const { id, method, params, result, error } = value;

  if (method !== undefined) {
    if (typeof method !== "string") return new Error("`method` is not a string");
    if (params !== undefined && !isJsonObject(params)) return new Error("`params` is not an object");
    if (id === undefined) return params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
    if (!isId(id)) return new Error("`id` is neither a string nor a number");
    return { jsonrpc: "2.0", id, method, params: params ?? {} };
  }

  if (result !== undefined && error !== undefined) return new Error("a response has both `result` and `error`");
  if (result !== undefined) {
    if (!isId(id)) return new Error("a result's `id` is neither a string nor a number");
    if (!isJsonObject(result)) return new Error("`result` is not an object");
    return { jsonrpc: "2.0", id, result };
  }
  if (error !== undefined) {
    if (id !== null && !isId(id)) return new Error("an error's `id` is neither a string, a number nor null");
    const parsed = parseErrorObject(error);
    if (parsed instanceof Error) return parsed;
    return { jsonrpc: "2.0", id, error: parsed };
  }
  return new Error("neither a request, a notification nor a response");
}
