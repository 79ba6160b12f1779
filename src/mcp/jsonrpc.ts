// The wire every other part of src/mcp stands on: JSON-RPC 2.0 messages as they travel on any MCP
// transport, the one parser for an incoming frame, the Transport that moves them, and McpError, the one
// way exchanging them fails.
import { describeError } from "../kernel/index.js";

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

/** The error codes of the 2026-07-28 revision and JSON-RPC that this client reacts to. */
export const HEADER_MISMATCH = -32020;
export const MISSING_CLIENT_CAPABILITY = -32021;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;

/** How the client gives up on one request, where its transport's `cancellation` is "notify". */
export const CANCELLED_NOTIFICATION = "notifications/cancelled";

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
    return new Error(`not JSON (${describeError(error)})`);
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

// ---------------------------------------------------------------------------------------------------
// The transport: a connection to one server that moves messages, and nothing else. Ids, timeouts and
// `_meta` live one layer up (peer.ts, client.ts); HTTP headers, event streams and child processes stay
// inside the transport that needs them.

export interface TransportHandlers {
  /** Every message from the server: responses, notifications, anything else well-formed. */
  onMessage(message: JsonRpcMessage): void;
  /** The connection is gone for good (child exited, framer cap hit, closed); called at most once. */
  onClose(reason: Error): void;
  /**
   * A request the server took failed before its response came (an HTTP response stream broke, or carried
   * what the protocol does not allow); the connection lives on. stdio has no such failure: its end is onClose.
   */
  onFailure?(requestId: JsonRpcId, error: Error): void;
  /** Something the user should hear about that does not end the connection (a line that is not JSON-RPC…). */
  onWarning?(message: string): void;
}

export interface Transport {
  /** The server's alias from the config: the `server` of every McpError this transport raises. */
  readonly label: string;
  /**
   * How a request is given up (https://modelcontextprotocol.io/specification/2026-07-28/basic/utilities/cancellation):
   * "notify" — the peer sends `notifications/cancelled` (stdio); "close-stream" — the peer aborts the
   * request's send, which closes its response stream, and sends nothing (Streamable HTTP).
   */
  readonly cancellation: "notify" | "close-stream";
  /** Connects (spawns the child; for HTTP, nothing to do). Rejects if the server cannot be reached at all. */
  start(handlers: TransportHandlers): Promise<void>;
  /**
   * Sends one message and settles once the server has taken it: on stdio once the line is written; over
   * HTTP once the server answered the POST with a success status. It rejects when the message could not be
   * delivered or was refused (an HTTP failure status, with what its body said). A request's response comes
   * through onMessage, and a failure of its exchange after that point through onFailure. `signal` stops
   * the delivery where there is still something to stop (an HTTP exchange; a line once written is gone).
   */
  send(message: JsonRpcMessage, signal?: AbortSignal): Promise<void>;
  /** Idempotent: a second call returns the same promise. */
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------
// Failures. Below the server's connection every failure is a thrown McpError whose kind says what broke,
// so callers decide (retry a list, mark a server disconnected, show the server's code) without parsing
// messages; the connection turns them into values. An exchange over HTTP may throw an HttpFailure, the
// McpError that also carries what HTTP said (http/failure.ts).
// The server it concerns is a field, never glued into the text: the name is rendered once, at the edge
// (the mounted tool's result, the server's status line).

export type McpErrorKind =
  /** The server answered with a JSON-RPC error: `code` and `data` are the server's. */
  | "server"
  /** No answer within the request's timeout. */
  | "timeout"
  /** The connection is gone (child exited, client closed, framer cap hit); nothing more will arrive. */
  | "closed"
  /** One exchange broke before its response arrived (an event stream cut short); the connection may live. */
  | "broken"
  /** The server could not be reached or started at all (ENOENT, ECONNREFUSED, DNS). */
  | "unreachable"
  /** The server sent something the protocol does not allow (wrong content type, unknown resultType…). */
  | "protocol"
  /** The caller aborted. */
  | "aborted"
  /** The server is not connected (it failed at start-up, died, or the session is ending): nothing was sent. */
  | "unavailable";

export interface McpErrorDetails {
  /** The alias of the server the failure concerns. */
  readonly server?: string;
  readonly code?: number;
  readonly data?: unknown;
}

export class McpError extends Error {
  readonly server: string | undefined;
  readonly code: number | undefined;
  readonly data: unknown;

  constructor(
    readonly kind: McpErrorKind,
    message: string,
    details: McpErrorDetails = {},
  ) {
    super(message);
    this.name = "McpError";
    this.server = details.server;
    this.code = details.code;
    this.data = details.data;
  }
}

/** Anything thrown, as an McpError of `kind` about `server`, its text after `during` if given (an McpError passes through untouched). */
export function asMcpError(error: unknown, kind: McpErrorKind, server: string, during?: string): McpError {
  if (error instanceof McpError) return error;
  return new McpError(kind, during === undefined ? describeError(error) : `${during}: ${describeError(error)}`, { server });
}
