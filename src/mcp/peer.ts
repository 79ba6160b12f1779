// The JSON-RPC peer: correlates requests and responses over any Transport. It owns the ids, the pending
// map, every request's timeout and abort, and fails every waiter at once when the connection dies.
import { McpError } from "./errors.js";
import type { JsonObject, JsonRpcErrorObject, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest } from "./jsonrpc.js";
import type { ParamHeader, Transport } from "./transport.js";

export interface PeerOptions {
  readonly transport: Transport;
  /** Applies to every request that does not bring its own `timeoutMs`. */
  readonly requestTimeoutMs: number;
  readonly onNotification: (notification: JsonRpcNotification) => void;
  /** Answers a request from the server (legacy servers send them); undefined leaves it unanswered, with a warning. */
  readonly onRequest?: (request: JsonRpcRequest) => ServerRequestAnswer | undefined;
  readonly onWarning?: (message: string) => void;
}

/** What a request from the server is answered with: the response's `result` or `error`. */
export type ServerRequestAnswer = { readonly result: JsonObject } | { readonly error: JsonRpcErrorObject };

export interface PeerRequestOptions {
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly paramHeaders?: readonly ParamHeader[];
}

export interface Peer {
  start(): Promise<void>;
  /** Resolves with the `result` object; rejects with an McpError (kind "server" for a JSON-RPC error). */
  request(method: string, params: JsonObject, options?: PeerRequestOptions): Promise<JsonObject>;
  /** Sends a notification; settles once the transport has taken it. */
  notify(method: string, params?: JsonObject): Promise<void>;
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
        answer(message);
        return;
      }
      options.onNotification(message);
      return;
    }
    if (message.id === null && "error" in message) return unattributedError(message.error);
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

  /**
   * An error with `id: null` is one the server could not tie to a request (a line it could not parse, one
   * over its size cap). It is always reported; when exactly one request waits, it must be the one.
   */
  function unattributedError(error: JsonRpcErrorObject): void {
    const text = `${label}: ${error.message} (code ${error.code})`;
    options.onWarning?.(`${text}, in answer to no request in particular`);
    const [only, ...others] = pending.values();
    if (only !== undefined && others.length === 0) only.reject(new McpError("server", text, error.code, error.data));
  }

  function answer(request: JsonRpcRequest): void {
    const reply = options.onRequest?.(request);
    if (reply === undefined) {
      // 2026-07-28 §6: "Server MUST NOT write requests" — there is nothing we could answer.
      options.onWarning?.(`${label}: ignoring a request from the server (${request.method})`);
      return;
    }
    const response: JsonRpcMessage =
      "result" in reply ? { jsonrpc: "2.0", id: request.id, result: reply.result } : { jsonrpc: "2.0", id: request.id, error: reply.error };
    transport.send(response).catch((error: unknown) => {
      options.onWarning?.(`${label}: could not answer ${request.method}: ${error instanceof Error ? error.message : String(error)}`);
    });
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

  async function notify(method: string, params?: JsonObject): Promise<void> {
    if (deadReason) throw deadReason;
    try {
      await transport.send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
    } catch (error) {
      throw asMcpError(error, "broken", `${label}: ${method}`);
    }
  }

  function close(): Promise<void> {
    closing ??= (async () => {
      die(new McpError("closed", `${label}: connection closed`));
      await transport.close();
    })();
    return closing;
  }

  return { start, request, notify, close };
}
