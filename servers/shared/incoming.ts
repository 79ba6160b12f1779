// Turns one received frame (a stdio line, an HTTP body) into a request, a notification, or the error to
// answer with: validated once here, so the routing code trusts its types.
import { INVALID_REQUEST, PARSE_ERROR, rpcError, type RpcError } from "./rpc-error.js";
import { isJsonObject, type JsonRpcId } from "../../src/mcp/index.js";

export type Incoming =
  | { readonly kind: "request"; readonly id: JsonRpcId; readonly method: string; readonly params: unknown }
  | { readonly kind: "notification"; readonly method: string }
  /** Answered with `error` and `id` (null when the id could not be read). */
  | { readonly kind: "invalid"; readonly id: JsonRpcId | null; readonly error: RpcError };

function readId(value: unknown): JsonRpcId | undefined {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value)) ? value : undefined;
}

export function parseIncoming(text: string): Incoming {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "invalid", id: null, error: rpcError(PARSE_ERROR, "Parse error: the message is not valid JSON") };
  }
  if (!isJsonObject(value)) {
    return { kind: "invalid", id: null, error: rpcError(INVALID_REQUEST, "Invalid Request: expected one JSON object (no batches)") };
  }
  const id = readId(value["id"]);
  const invalid = (message: string): Incoming => ({ kind: "invalid", id: id ?? null, error: rpcError(INVALID_REQUEST, message) });
  if (value["jsonrpc"] !== "2.0") return invalid('Invalid Request: "jsonrpc" must be "2.0"');
  const method = value["method"];
  if (typeof method !== "string") return invalid('Invalid Request: "method" must be a string (servers take no responses)');
  if (!("id" in value)) return { kind: "notification", method };
  if (id === undefined) return invalid('Invalid Request: "id" must be a string or a number');
  return { kind: "request", id, method, params: value["params"] };
}
