// A transport moves JSON-RPC messages between this client and one server, and nothing else:
// ids, timeouts and `_meta` live one layer up (peer.ts, client.ts).
import type { JsonRpcId, JsonRpcMessage } from "./jsonrpc.js";

export interface TransportHandlers {
  /** Every message from the server: responses, notifications, anything else well-formed. */
  onMessage(message: JsonRpcMessage): void;
  /** The connection is gone for good (child exited, framer cap hit…); called at most once. */
  onClose(reason: Error): void;
}

/** Values of `x-mcp-header` tool arguments, already stringified; HTTP sends them as `Mcp-Param-<name>`. */
export type ParamHeader = { readonly name: string; readonly value: string };

export interface SendOptions {
  readonly paramHeaders?: readonly ParamHeader[];
}

export interface Transport {
  readonly kind: "stdio" | "http";
  /** Names the server in messages: the alias from the config. */
  readonly label: string;
  /** Connects (spawns the child; for HTTP, nothing to do). Rejects if the server cannot be reached at all. */
  start(handlers: TransportHandlers): Promise<void>;
  /**
   * Sends one message. For stdio it settles once written. For HTTP it settles when the exchange is over:
   * it rejects if that exchange fails without delivering a response for `message.id` (refused, broken
   * stream, non-JSON-RPC reply), so the peer can fail exactly that request.
   */
  send(message: JsonRpcMessage, options?: SendOptions): Promise<void>;
  /** Gives up on one request: `notifications/cancelled` on stdio, destroying the response stream on HTTP. */
  cancel(id: JsonRpcId, reason: string): void;
  /** Idempotent: a second call returns the same promise. */
  close(): Promise<void>;
}
