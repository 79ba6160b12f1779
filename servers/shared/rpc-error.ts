// JSON-RPC error objects as the demo servers send them, and the HTTP status each code travels with
// (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports#streamable-http).
import type { JsonRpcFailure, JsonRpcId } from "../../src/mcp/index.js";

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
export const HEADER_MISMATCH = -32020;
export const MISSING_CLIENT_CAPABILITY = -32021;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

export type RpcError = { readonly code: number; readonly message: string; readonly data?: unknown };

export function rpcError(code: number, message: string, data?: unknown): RpcError {
  return data === undefined ? { code, message } : { code, message, data };
}

/** "Every error echoes the request id"; only a frame whose id could not be read answers with null. */
export function failure(id: JsonRpcId | null, error: RpcError): JsonRpcFailure {
  return { jsonrpc: "2.0", id, error };
}

/** 404 + -32601 marks a modern server that lacks the method; the client errors and header problems are 400. */
export function httpStatusFor(code: number): number {
  if (code === METHOD_NOT_FOUND) return 404;
  if (code === INTERNAL_ERROR) return 500;
  return 400;
}
