// The JSON-RPC peer: correlates requests and responses over any Transport, and notifications with the calls
// they belong to. It owns the ids, the pending map, every request's deadline and abort, and fails every
// waiter at once when the connection dies.
import { describeError } from "../kernel/index.js";
import {
  asMcpError,
  CANCELLED_NOTIFICATION,
  isJsonObject,
  McpError,
  type JsonObject,
  type JsonRpcErrorObject,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type Transport,
} from "./jsonrpc.js";
import type { LogLevel } from "./server-log.js";

export interface PeerOptions {
  readonly transport: Transport;
  /** Applies to every request that does not bring its own `timeoutMs`. */
  readonly requestTimeoutMs: number;
  readonly onNotification: (notification: JsonRpcNotification) => void;
  /** Answers a request from the server (legacy servers send them); undefined leaves it unanswered, with a warning. */
  readonly onRequest?: (request: JsonRpcRequest) => ServerRequestAnswer | Promise<ServerRequestAnswer> | undefined;
  readonly onWarning?: (message: string) => void;
  /** The connection ended on its own (the transport's reason); not called for the peer's own close(). */
  readonly onClose?: (reason: McpError) => void;
}

/** What a request from the server is answered with: the response's `result` or `error`. */
export type ServerRequestAnswer = { readonly result: JsonObject } | { readonly error: JsonRpcErrorObject };

export interface PeerRequestOptions {
  readonly timeoutMs?: number;
  /**
   * No deadline at all (`timeoutMs` is then ignored): a `subscriptions/listen` request lasts until either
   * side ends it. Its caller ends it by `signal`, or the connection's end does.
   */
  readonly noDeadline?: boolean;
  readonly signal?: AbortSignal;
  /** Hears the id the request goes out under, before it is sent: a subscription's notifications name it. */
  readonly onSent?: (id: number) => void;
}

/** What one request of the client may ask for besides its deadline and abort. */
export interface RequestOptions extends PeerRequestOptions {
  /** Receives this request's own notifications: its progress, and log messages if it set `logLevel`. */
  readonly onNotification?: NotificationListener;
  /** Adds a fresh `progressToken` to `_meta`. */
  readonly wantProgress?: boolean;
  readonly logLevel?: LogLevel;
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

/** One request in flight: a record, not a set of closures, so that a call allocates little. */
interface Waiter {
  readonly method: string;
  readonly timeoutMs: number;
  /** On the `performance.now()` clock. */
  readonly deadline: number;
  readonly resolve: (result: JsonObject) => void;
  readonly reject: (error: McpError) => void;
  readonly signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  /** Stops the request's delivery when it is given up; only on a transport that cancels by closing its stream. */
  readonly stop: AbortController | undefined;
}

export function createPeer(options: PeerOptions): Peer {
  const { transport } = options;
  const server = transport.label;
  const pending = new Map<number, Waiter>();
  let nextId = 1;
  let deadReason: McpError | undefined;
  let closing: Promise<void> | undefined;
  // One timer for every deadline: armed for the earliest, it gives up on whatever is due when it fires and
  // re-arms for the next. A request that settles leaves it alone; it holds the process open only while
  // something with a deadline is pending (a subscription without one never keeps it).
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Number.POSITIVE_INFINITY;
  let timed = 0;

  function arm(deadline: number): void {
    if (deadline >= timerAt) return;
    clearTimeout(timer);
    timerAt = deadline;
    timer = setTimeout(sweep, Math.max(1, Math.ceil(deadline - performance.now())));
  }

  function sweep(): void {
    timer = undefined;
    timerAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    for (const [id, waiter] of pending) {
      if (waiter.deadline <= now) {
        const { method, timeoutMs } = waiter;
        giveUp(id, new McpError("timeout", `${method} timed out after ${timeoutMs} ms`, { server }), `timed out after ${timeoutMs} ms`);
      } else if (waiter.deadline < next) {
        next = waiter.deadline;
      }
    }
    if (next !== Number.POSITIVE_INFINITY) arm(next);
  }

  function track(id: number, waiter: Waiter): void {
    pending.set(id, waiter);
    // No timer for a request without a deadline: setTimeout would read Infinity as 1 ms.
    if (waiter.deadline === Number.POSITIVE_INFINITY) return;
    if ((timed += 1) === 1) timer?.ref();
    arm(waiter.deadline);
  }

  function untrack(id: number, waiter: Waiter): void {
    pending.delete(id);
    if (waiter.deadline !== Number.POSITIVE_INFINITY && (timed -= 1) === 0) timer?.unref();
    if (waiter.onAbort !== undefined) waiter.signal?.removeEventListener("abort", waiter.onAbort);
  }

  /**
   * A request past its timeout is cancelled and no longer waited for; the same for the caller's abort. On
   * stdio the server is told with `notifications/cancelled`; over Streamable HTTP "notifications/cancelled
   * over HTTP → close the response stream", and nothing is posted.
   */
  function giveUp(id: number, error: McpError, reason: string): void {
    const waiter = pending.get(id);
    if (waiter === undefined) return;
    untrack(id, waiter);
    if (transport.cancellation === "notify") {
      transport.send({ jsonrpc: "2.0", method: CANCELLED_NOTIFICATION, params: { requestId: id, reason } }).catch(() => undefined);
    } else {
      waiter.stop?.abort(error);
    }
    waiter.reject(error);
  }

  function fail(id: number, error: McpError): void {
    const waiter = pending.get(id);
    if (waiter === undefined) return;
    untrack(id, waiter);
    waiter.reject(error);
  }

  function die(reason: McpError): void {
    if (deadReason) return;
    deadReason = reason;
    clearTimeout(timer);
    timer = undefined;
    timerAt = Number.POSITIVE_INFINITY;
    timed = 0;
    const waiters = [...pending];
    pending.clear();
    for (const [id, waiter] of waiters) {
      untrack(id, waiter);
      waiter.reject(reason);
    }
  }

  function onMessage(message: JsonRpcMessage): void {
    // Once the connection is over nothing can be answered and nobody waits: what still arrives while the
    // transport shuts down (a server's roots/list as mca closes) is dropped without a word.
    if (deadReason) return;
    if ("method" in message) {
      if ("id" in message) answer(message);
      else options.onNotification(message);
      return;
    }
    if (message.id === null && "error" in message) return unattributedError(message.error);
    // Our ids are integers; anything else, and any id no one waits for (a response arriving after its
    // timeout or cancel), is not ours to take: dropped silently ("ignore any late response").
    if (typeof message.id !== "number") return;
    const waiter = pending.get(message.id);
    if (waiter === undefined) return;
    untrack(message.id, waiter);
    if ("error" in message) {
      const { code, message: text, data } = message.error;
      waiter.reject(new McpError("server", `${text} (code ${code})`, { server, code, data }));
    } else {
      waiter.resolve(message.result);
    }
  }

  /**
   * An error with `id: null` is one the server could not tie to a request (a line it could not parse, one
   * over its size cap). It is always reported; when exactly one request waits, it must be the one.
   */
  function unattributedError(error: JsonRpcErrorObject): void {
    const text = `${error.message} (code ${error.code})`;
    options.onWarning?.(`${text}, in answer to no request in particular`);
    const [only, ...others] = pending.keys();
    if (only !== undefined && others.length === 0) fail(only, new McpError("server", text, { server, code: error.code, data: error.data }));
  }

  function answer(request: JsonRpcRequest): void {
    const reply = options.onRequest?.(request);
    if (reply === undefined) {
      // 2026-07-28 stdio: "Server MUST NOT write requests" — there is nothing we could answer.
      options.onWarning?.(`ignoring a request from the server (${request.method})`);
      return;
    }
    // An answer that could not go out because the connection ended meanwhile is no news: the session is closing.
    const cannotAnswer = (error: unknown): void => {
      if (!deadReason) options.onWarning?.(`could not answer ${request.method}: ${describeError(error)}`);
    };
    const send = async (settled: ServerRequestAnswer): Promise<void> => {
      if (deadReason) return;
      await transport.send(
        "result" in settled ? { jsonrpc: "2.0", id: request.id, result: settled.result } : { jsonrpc: "2.0", id: request.id, error: settled.error },
      );
    };
    // A ready answer (ping) goes out at once; one that takes a while (the user is asked) lets other messages flow meanwhile.
    if (reply instanceof Promise) reply.then(send).catch(cannotAnswer);
    else send(reply).catch(cannotAnswer);
  }

  /** One exchange failed after the server took the request: that request fails, the connection lives on. */
  function onFailure(requestId: JsonRpcId, error: Error): void {
    if (typeof requestId === "number") fail(requestId, asMcpError(error, "broken", server));
  }

  function onClose(reason: Error): void {
    if (deadReason) return;
    const error = asMcpError(reason, "closed", server);
    die(error);
    options.onClose?.(error);
  }

  async function start(): Promise<void> {
    try {
      await transport.start({ onMessage, onClose, onFailure, onWarning: (message) => options.onWarning?.(message) });
    } catch (error) {
      const reason = asMcpError(error, "closed", server);
      die(reason);
      throw reason;
    }
  }

  function request(method: string, params: JsonObject, requestOptions: PeerRequestOptions = {}): Promise<JsonObject> {
    if (deadReason) return Promise.reject(deadReason);
    const { signal } = requestOptions;
    if (signal?.aborted) return Promise.reject(new McpError("aborted", `${method} was aborted`, { server }));
    const id = nextId++;
    const timeoutMs = requestOptions.timeoutMs ?? options.requestTimeoutMs;
    const deadline = requestOptions.noDeadline === true ? Number.POSITIVE_INFINITY : performance.now() + timeoutMs;
    return new Promise<JsonObject>((resolve, reject) => {
      const stop = transport.cancellation === "close-stream" ? new AbortController() : undefined;
      const waiter: Waiter = { method, timeoutMs, deadline, resolve, reject, signal, onAbort: undefined, stop };
      track(id, waiter);
      if (signal !== undefined) {
        waiter.onAbort = () => giveUp(id, new McpError("aborted", `${method} was aborted`, { server }), "aborted by the client");
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      requestOptions.onSent?.(id);
      transport.send({ jsonrpc: "2.0", id, method, params }, stop?.signal).catch((error: unknown) => {
        fail(id, asMcpError(error, "broken", server, method));
      });
    });
  }

  async function notify(method: string, params?: JsonObject): Promise<void> {
    if (deadReason) throw deadReason;
    try {
      await transport.send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
    } catch (error) {
      throw asMcpError(error, "broken", server, method);
    }
  }

  function close(): Promise<void> {
    closing ??= (async () => {
      die(new McpError("closed", "connection closed", { server }));
      await transport.close();
    })();
    return closing;
  }

  return { start, request, notify, close };
}

// ---------------------------------------------------------------------------------------------------
// Notifications: progress goes to the call whose `progressToken` it names; log messages to the calls in
// flight that asked for them (they carry no request id). The rest goes to the client-wide listener.

export type NotificationListener = (notification: JsonRpcNotification) => void;

export interface CallSubscription {
  readonly progressToken?: string | number;
  /** The call set `io.modelcontextprotocol/logLevel`, so `notifications/message` may be about it. */
  readonly wantsLogs: boolean;
}

export interface NotificationRouter {
  /** Routes this call's notifications to `listener` until the returned function is called. */
  attach(subscription: CallSubscription, listener: NotificationListener): () => void;
  /** Routes the notifications of the subscriptions/listen request sent as `requestId` to `listener` until the returned function is called. */
  attachListen(requestId: JsonRpcId, listener: NotificationListener): () => void;
  route(notification: JsonRpcNotification): void;
}

/** 2026-07-28: a notification of a subscription names the subscriptions/listen request's id here, in `_meta`. */
const SUBSCRIPTION_ID_KEY = "io.modelcontextprotocol/subscriptionId";

function subscriptionIdOf(notification: JsonRpcNotification): unknown {
  const meta = notification.params?._meta;
  return isJsonObject(meta) ? meta[SUBSCRIPTION_ID_KEY] : undefined;
}

export function createNotificationRouter(fallback: NotificationListener = () => undefined): NotificationRouter {
  const byToken = new Map<string | number, NotificationListener>();
  const logListeners = new Set<NotificationListener>();
  const bySubscription = new Map<JsonRpcId, NotificationListener>();

  function attach(subscription: CallSubscription, listener: NotificationListener): () => void {
    // A wrapper per attachment, so the same listener attached twice is detached once per call.
    const own: NotificationListener = (notification) => listener(notification);
    const { progressToken, wantsLogs } = subscription;
    if (progressToken !== undefined) byToken.set(progressToken, own);
    if (wantsLogs) logListeners.add(own);
    return () => {
      if (progressToken !== undefined && byToken.get(progressToken) === own) byToken.delete(progressToken);
      logListeners.delete(own);
    };
  }

  function attachListen(requestId: JsonRpcId, listener: NotificationListener): () => void {
    const own: NotificationListener = (notification) => listener(notification);
    bySubscription.set(requestId, own);
    return () => {
      if (bySubscription.get(requestId) === own) bySubscription.delete(requestId);
    };
  }

  function route(notification: JsonRpcNotification): void {
    const subscriptionId = subscriptionIdOf(notification);
    if (subscriptionId !== undefined) {
      // One for a subscription that is over (a race with its end) is no one's: dropped.
      if (typeof subscriptionId === "string" || typeof subscriptionId === "number") bySubscription.get(subscriptionId)?.(notification);
      return;
    }
    if (notification.method === "notifications/progress") {
      const token = notification.params?.progressToken;
      const listener = typeof token === "string" || typeof token === "number" ? byToken.get(token) : undefined;
      (listener ?? fallback)(notification);
      return;
    }
    if (notification.method === "notifications/message" && logListeners.size > 0) {
      for (const listener of [...logListeners]) listener(notification);
      return;
    }
    fallback(notification);
  }

  return { attach, attachListen, route };
}
