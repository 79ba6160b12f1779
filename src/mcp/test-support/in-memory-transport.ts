// A Transport that lives in memory, for the peer and client tests: it records what is sent, and lets the
// test (or a scripted `answer` function) deliver messages and kill the connection.
import type { JsonObject, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, Transport, TransportHandlers } from "../jsonrpc.js";

/** What the scripted server does with one request: answer it, fail the exchange, or stay silent. */
export type ScriptedReply =
  | { readonly result: JsonObject }
  | { readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } }
  | { readonly sendFails: Error }
  | "silent";

export interface InMemoryTransport extends Transport {
  readonly sent: JsonRpcMessage[];
  readonly requests: () => JsonRpcRequest[];
  readonly notifications: () => JsonRpcNotification[];
  readonly closeCalls: () => number;
  /** The signal each message was sent with, in the order sent. */
  readonly signals: () => (AbortSignal | undefined)[];
  deliver(message: JsonRpcMessage): void;
  die(reason: Error): void;
  /** Reports one request's exchange as failed after the server took it, as the HTTP transport does. */
  failRequest(requestId: number, reason: Error): void;
  warn(message: string): void;
}

export interface InMemoryTransportOptions {
  readonly label?: string;
  /** How the peer gives a request up on it; "notify", as on stdio, unless a test plays Streamable HTTP. */
  readonly cancellation?: "notify" | "close-stream";
  /** Called for every request sent; its reply is delivered right after the send settles. */
  readonly answer?: (request: JsonRpcRequest) => ScriptedReply;
}

export function createInMemoryTransport(options: InMemoryTransportOptions = {}): InMemoryTransport {
  let handlers: TransportHandlers | undefined;
  let closeCount = 0;
  let closing: Promise<void> | undefined;
  const sent: JsonRpcMessage[] = [];
  const signals: (AbortSignal | undefined)[] = [];

  const deliver = (message: JsonRpcMessage): void => handlers?.onMessage(message);

  return {
    label: options.label ?? "fake",
    cancellation: options.cancellation ?? "notify",
    sent,
    requests: () => sent.flatMap((message) => ("method" in message && "id" in message ? [message] : [])),
    notifications: () => sent.flatMap((message) => ("method" in message && !("id" in message) ? [message] : [])),
    closeCalls: () => closeCount,
    signals: () => [...signals],
    deliver,
    die: (reason) => handlers?.onClose(reason),
    failRequest: (requestId, reason) => handlers?.onFailure?.(requestId, reason),
    warn: (message) => handlers?.onWarning?.(message),
    async start(startHandlers) {
      handlers = startHandlers;
    },
    async send(message, signal) {
      sent.push(message);
      signals.push(signal);
      if (!options.answer || !("method" in message) || !("id" in message)) return;
      const reply = options.answer(message);
      if (reply === "silent") return;
      if ("sendFails" in reply) throw reply.sendFails;
      queueMicrotask(() =>
        "result" in reply
          ? deliver({ jsonrpc: "2.0", id: message.id, result: reply.result })
          : deliver({ jsonrpc: "2.0", id: message.id, error: reply.error }),
      );
    },
    close() {
      closeCount += 1;
      closing ??= Promise.resolve();
      return closing;
    },
  };
}
