// Hearing that a server's tools, prompts or resources changed, in either era. A legacy server sends
// `notifications/<kind>/list_changed` whenever it likes; a 2026-07-28 server sends them only on a
// `subscriptions/listen` request the client keeps open, which is re-opened here after a drop.
import { describeError } from "../kernel/index.js";
import { isJsonObject, McpError, METHOD_NOT_FOUND, type JsonObject, type JsonRpcNotification } from "./jsonrpc.js";

export type ListKind = "tools" | "prompts" | "resources";

/** Each kind's notification, and its field in the `notifications` filter of subscriptions/listen. */
const LIST_KINDS: Readonly<Record<ListKind, { readonly method: string; readonly filterKey: string }>> = {
  tools: { method: "notifications/tools/list_changed", filterKey: "toolsListChanged" },
  prompts: { method: "notifications/prompts/list_changed", filterKey: "promptsListChanged" },
  resources: { method: "notifications/resources/list_changed", filterKey: "resourcesListChanged" },
};
const KINDS: readonly ListKind[] = ["tools", "prompts", "resources"];

export const LISTEN_METHOD = "subscriptions/listen";
const ACKNOWLEDGED = "notifications/subscriptions/acknowledged";

/** What changed in one server's lists: for tools, also which names came and went (the server's own names). */
export type ListChange =
  | { readonly alias: string; readonly kind: "tools"; readonly added: readonly string[]; readonly removed: readonly string[]; readonly count: number }
  | { readonly alias: string; readonly kind: "prompts" | "resources" };

export function listChangedKind(notification: JsonRpcNotification): ListKind | undefined {
  return KINDS.find((kind) => LIST_KINDS[kind].method === notification.method);
}

/** The lists the server says may change: `capabilities.<kind>.listChanged` is true. */
export function changingLists(capabilities: JsonObject): ListKind[] {
  return KINDS.filter((kind) => {
    const declared = capabilities[kind];
    return isJsonObject(declared) && declared.listChanged === true;
  });
}

/** The `notifications` filter of a listen request asking for exactly these kinds. */
export function listenFilter(kinds: readonly ListKind[]): JsonObject {
  return Object.fromEntries(kinds.map((kind) => [LIST_KINDS[kind].filterKey, true]));
}

/** The kinds an acknowledgement's filter says the server will send. */
function acceptedKinds(params: JsonObject | undefined): ListKind[] {
  const filter = params?.notifications;
  return KINDS.filter((kind) => isJsonObject(filter) && filter[LIST_KINDS[kind].filterKey] === true);
}

/**
 * Runs `task` now, or once more after the run in flight when asked again meanwhile: a burst of changes
 * costs at most one run in flight and one queued.
 */
export function createCoalescer(task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  const start = (): Promise<void> => {
    running = task().finally(() => {
      running = undefined;
    });
    return running;
  };
  return () => {
    if (running === undefined) return start();
    queued ??= running.then(() => {
      queued = undefined;
      return start();
    });
    return queued;
  };
}

/** After a drop the request goes again after each of these waits in turn; past the last, one warning. */
export const LISTEN_RETRY_DELAYS_MS: readonly number[] = [1000, 2000, 4000];

export interface ListenDeps {
  /**
   * Sends subscriptions/listen with `params`, without a deadline; notifications that name it as their
   * subscription go to `onNotification`. Resolves at a graceful end; rejects with an McpError otherwise.
   */
  readonly listen: (params: JsonObject, onNotification: (notification: JsonRpcNotification) => void, signal: AbortSignal) => Promise<JsonObject>;
  readonly onChange: (kind: ListKind) => void;
  readonly warn: (message: string) => void;
  /** Waits `ms` (a seam, so tests need not sleep); settles early when `signal` aborts. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly retryDelaysMs?: readonly number[];
  /** The clock that tells how long a stream stayed open (a seam for tests); performance.now by default. */
  readonly now?: () => number;
}

/**
 * A stream that stayed open this long before it dropped was working: the next drop counts from one again.
 * A shorter one counts on, even if acknowledged — a server that acknowledges and drops at once would
 * otherwise be opened again every second for as long as mca runs.
 */
export const LISTEN_STABLE_MS = 60_000;

export interface ListSubscription {
  /** The kinds the server's latest acknowledgement accepted; undefined before one came. */
  accepted(): readonly ListKind[] | undefined;
  /** Settles when the subscription is over for good: ended by the server, refused, given up, or closed. */
  readonly ended: Promise<void>;
  /** Ends it (HTTP: its stream is closed; stdio: `notifications/cancelled`). */
  close(): void;
}

function sleepFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * Keeps one subscriptions/listen open for `kinds`
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions). The first
 * message is the acknowledgement, whose filter is what the server will honour; a graceful end (a result)
 * is final; a drop is "unexpected" and the request goes again, a few times. A server that does not know
 * the method, or refuses it, has no subscription. The connection's own end is not a drop: whoever brings
 * the server back opens a new subscription.
 */
export function openListSubscription(kinds: readonly ListKind[], deps: ListenDeps): ListSubscription {
  const stop = new AbortController();
  const delays = deps.retryDelaysMs ?? LISTEN_RETRY_DELAYS_MS;
  const sleep = deps.sleep ?? sleepFor;
  const now = deps.now ?? (() => performance.now());
  let accepted: ListKind[] | undefined;
  let dropsInARow = 0;

  const onNotification = (notification: JsonRpcNotification): void => {
    if (notification.method === ACKNOWLEDGED) {
      // A kind it did not accept will not come; nothing to say about it beyond this record.
      accepted = acceptedKinds(notification.params);
      return;
    }
    const kind = listChangedKind(notification);
    if (kind !== undefined) deps.onChange(kind);
  };

  async function run(): Promise<void> {
    const params = { notifications: listenFilter(kinds) };
    for (;;) {
      const openedAt = now();
      try {
        await deps.listen(params, onNotification, stop.signal);
        return;
      } catch (error) {
        if (stop.signal.aborted) return;
        if (!(error instanceof McpError)) {
          deps.warn(`stopped listening for changes to its lists: ${describeError(error)}`);
          return;
        }
        if (error.kind === "closed" || error.kind === "unavailable" || error.kind === "aborted") return;
        if (error.kind === "server") {
          if (error.code !== METHOD_NOT_FOUND) deps.warn(`the server refused to report changes to its lists: ${error.message}`);
          return;
        }
        if (now() - openedAt >= LISTEN_STABLE_MS) dropsInARow = 0;
        const delay = delays[dropsInARow];
        if (delay === undefined) {
          deps.warn(`stopped listening for changes to its lists after ${dropsInARow + 1} drops in a row: ${describeError(error)}`);
          return;
        }
        dropsInARow += 1;
        await sleep(delay, stop.signal);
        if (stop.signal.aborted) return;
      }
    }
  }

  return {
    accepted: () => accepted,
    ended: run(),
    close: () => stop.abort(),
  };
}
