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
