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
  deliver(message: JsonRpcMessage): void;
  die(reason: Error): void;
  warn(message: string): void;
}

export interface InMemoryTransportOptions {
  readonly label?: string;
  /** Called for every request sent; its reply is delivered right after the send settles. */
  readonly answer?: (request: JsonRpcRequest) => ScriptedReply;
}

export function createInMemoryTransport(options: InMemoryTransportOptions = {}): InMemoryTransport {
  let handlers: TransportHandlers | undefined;
  let closeCount = 0;
  let closing: Promise<void> | undefined;
  const sent: JsonRpcMessage[] = [];

  const deliver = (message: JsonRpcMessage): void => handlers?.onMessage(message);

  return {
    label: options.label ?? "fake",
    sent,
    requests: () => sent.flatMap((message) => ("method" in message && "id" in message ? [message] : [])),
    notifications: () => sent.flatMap((message) => ("method" in message && !("id" in message) ? [message] : [])),
    closeCalls: () => closeCount,
    deliver,
    die: (reason) => handlers?.onClose(reason),
    warn: (message) => handlers?.onWarning?.(message),
    async start(startHandlers) {
      handlers = startHandlers;
    },
    async send(message) {
      sent.push(message);
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
