// The JSON-RPC peer: correlates requests and responses over any Transport. It owns the ids, the pending
// map, every request's timeout and abort, and fails every waiter at once when the connection dies.
import { McpError } from "./errors.js";
import type { JsonObject, JsonRpcMessage, JsonRpcNotification } from "./jsonrpc.js";
import type { ParamHeader, Transport } from "./transport.js";

export interface PeerOptions {
  readonly transport: Transport;
  /** Applies to every request that does not bring its own `timeoutMs`. */
  readonly requestTimeoutMs: number;
  readonly onNotification: (notification: JsonRpcNotification) => void;
  readonly onWarning?: (message: string) => void;
}

export interface PeerRequestOptions {
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly paramHeaders?: readonly ParamHeader[];
}

export interface Peer {
  start(): Promise<void>;
  /** Resolves with the `result` object; rejects with an McpError (kind "server" for a JSON-RPC error). */
  request(method: string, params: JsonObject, options?: PeerRequestOptions): Promise<JsonObject>;
  /** Idempotent: fails whatever is still waiting, then closes the transport. */
  close(): Promise<void>;
}

type Waiter = { readonly resolve: (result: JsonObject) => void; readonly reject: (error: McpError) => void };

function asMcpError(error: unknown, kind: "closed" | "broken", prefix: string): McpError {
  if (error instanceof McpError) return error;
  return new McpError(kind, `${prefix}: ${error instanceof Error ? error.message : String(error)}`);
}

export function createPeer(options: PeerOptions): Peer {
  const { transport } = options;
  const label = transport.label;
  const pending = new Map<number, Waiter>();
  let nextId = 1;
  let deadReason: McpError | undefined;
  let closing: Promise<void> | undefined;

  function die(reason: McpError): void {
    if (deadReason) return;
    deadReason = reason;
    const waiters = [...pending.values()];
    pending.clear();
    for (const waiter of waiters) waiter.reject(reason);
  }

  function onMessage(message: JsonRpcMessage): void {
    if ("method" in message) {
      if ("id" in message) {
        // 2026-07-28 §6: "Server MUST NOT write requests" — there is nothing we could answer.
        options.onWarning?.(`${label}: ignoring a request from the server (${message.method})`);
        return;
      }
      options.onNotification(message);
      return;
    }
    // Our ids are integers; anything else, and any id no one waits for (a response arriving after its
    // timeout or cancel), is not ours to take: dropped silently ("ignore any late response").
    if (typeof message.id !== "number") return;
    const waiter = pending.get(message.id);
    if (!waiter) return;
    if ("error" in message) {
      const { code, message: text, data } = message.error;
      waiter.reject(new McpError("server", `${label}: ${text} (code ${code})`, code, data));
    } else {
      waiter.resolve(message.result);
    }
  }

  async function start(): Promise<void> {
    try {
      await transport.start({
        onMessage,
        onClose: (reason) => die(asMcpError(reason, "closed", label)),
      });
    } catch (error) {
      const reason = asMcpError(error, "closed", label);
      die(reason);
      throw reason;
    }
  }

  function request(method: string, params: JsonObject, requestOptions: PeerRequestOptions = {}): Promise<JsonObject> {
    const { signal, paramHeaders } = requestOptions;
    if (deadReason) return Promise.reject(deadReason);
    const abortError = (): McpError => new McpError("aborted", `${label}: ${method} was aborted`);
    if (signal?.aborted) return Promise.reject(abortError());
    const id = nextId++;
    const timeoutMs = requestOptions.timeoutMs ?? options.requestTimeoutMs;

    return new Promise<JsonObject>((resolve, reject) => {
      const settle = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        pending.delete(id);
      };
      // Spec §7 "Timeouts": on expiry, cancel and stop waiting; the same for the caller's abort.
      const giveUp = (error: McpError, reason: string): void => {
        if (!pending.has(id)) return;
        settle();
        transport.cancel(id, reason);
        reject(error);
      };
      const onAbort = (): void => giveUp(abortError(), "aborted by the client");
      const timer = setTimeout(
        () => giveUp(new McpError("timeout", `${label}: ${method} timed out after ${timeoutMs} ms`), `timed out after ${timeoutMs} ms`),
        timeoutMs,
      );
      pending.set(id, {
        resolve: (result) => {
          settle();
          resolve(result);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      signal?.addEventListener("abort", onAbort, { once: true });
      transport.send({ jsonrpc: "2.0", id, method, params }, paramHeaders ? { paramHeaders } : undefined).catch(
        (error: unknown) => pending.get(id)?.reject(asMcpError(error, "broken", `${label}: ${method}`)),
      );
    });
  }

  function close(): Promise<void> {
    closing ??= (async () => {
      die(new McpError("closed", `${label}: connection closed`));
      await transport.close();
    })();
    return closing;
  }

  return { start, request, close };
}
