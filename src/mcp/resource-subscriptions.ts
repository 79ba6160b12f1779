// Hearing that a resource mca read has changed, in either era, for as long as the connection lives. A
// 2025-11-25 server that declares `resources.subscribe` takes `resources/subscribe` per URI and sends
// `notifications/resources/updated` when it likes
// (https://modelcontextprotocol.io/specification/2025-11-25/server/resources#subscriptions); a 2026-07-28
// server sends them only on a `subscriptions/listen` whose filter names the URIs (`resourceSubscriptions`,
// which "replaces the former resources/subscribe RPC"), opened again here with the whole set when one is added.
import { describeError } from "../kernel/index.js";
import { isJsonObject, McpError, type JsonObject, type JsonRpcNotification } from "./jsonrpc.js";
import type { Era } from "./versions.js";

const RESOURCE_UPDATED = "notifications/resources/updated";
/** A server's URIs are its own text: kept to this many characters in what mca says of them. */
const MAX_URI_CHARS = 300;
/** A session watches this many resources of one server at most: a read past it is not watched. */
const MAX_WATCHED_RESOURCES = 100;
/** Unsubscribing at the end waits this long for each answer at most: the connection closes anyway. */
const UNSUBSCRIBE_TIMEOUT_MS = 2000;

/** "Servers that support subscriptions MUST declare the subscribe capability" (resources.subscribe: true). */
function offersSubscriptions(capabilities: JsonObject): boolean {
  const resources = capabilities.resources;
  return isJsonObject(resources) && resources.subscribe === true;
}

export interface ResourceSubscriptionDeps {
  /** The connection's era, settled before any resource is read: which of the two ways is taken. */
  readonly era: Era;
  readonly capabilities: () => JsonObject;
  readonly request: (method: string, params: JsonObject, options: { readonly timeoutMs?: number }) => Promise<JsonObject>;
  /** A subscriptions/listen without a deadline; its notifications go to `onNotification`. */
  readonly listen: (params: JsonObject, onNotification: (notification: JsonRpcNotification) => void, signal: AbortSignal) => Promise<JsonObject>;
  readonly warn: (message: string) => void;
}

export interface ResourceSubscriptions {
  /**
   * Watches `uri` (once; later calls only add `onUpdated`) when the server declares subscriptions; a
   * failure is warned about, never thrown: hearing of changes is a courtesy to the reader.
   */
  watch(uri: string, onUpdated: (uri: string) => void): Promise<void>;
  /** A notification outside any call: true when it was a resource update (told to the listeners). */
  take(notification: JsonRpcNotification): boolean;
  /** Ends every subscription: legacy `resources/unsubscribe` for each (bounded), the modern listen closed. */
  close(): Promise<void>;
}

export function createResourceSubscriptions(deps: ResourceSubscriptionDeps): ResourceSubscriptions {
  const uris = new Set<string>();
  const listeners = new Set<(uri: string) => void>();
  let listening: AbortController | undefined;
  let closed = false;

  function tell(notification: JsonRpcNotification): boolean {
    if (notification.method !== RESOURCE_UPDATED) return false;
    const uri = notification.params?.uri;
    // "This might be a sub-resource of the one that the client actually subscribed to": any URI counts while one is watched.
    if (typeof uri !== "string" || uri === "" || uris.size === 0) return true;
    const shown = uri.length <= MAX_URI_CHARS ? uri : `${uri.slice(0, MAX_URI_CHARS - 1)}…`;
    for (const listener of listeners) listener(shown);
    return true;
  }

  /** The modern era: one listen for every watched URI, replaced by a new one when the set grows. */
  function listenAgain(): void {
    listening?.abort();
    const stop = new AbortController();
    listening = stop;
    const params = { notifications: { resourceSubscriptions: [...uris] } };
    void deps.listen(params, (notification) => void tell(notification), stop.signal).catch((error: unknown) => {
      if (stop.signal.aborted || closed) return;
      if (error instanceof McpError && (error.kind === "closed" || error.kind === "unavailable" || error.kind === "aborted")) return;
      deps.warn(`stopped hearing of changes to the resources mca read: ${describeError(error)}`);
    });
  }

  return {
    async watch(uri, onUpdated) {
      if (closed || uris.has(uri) || uris.size >= MAX_WATCHED_RESOURCES || !offersSubscriptions(deps.capabilities())) {
        if (uris.has(uri)) listeners.add(onUpdated);
        return;
      }
      uris.add(uri);
      listeners.add(onUpdated);
      if (deps.era === "modern") return listenAgain();
      try {
        await deps.request("resources/subscribe", { uri }, {});
      } catch (error) {
        uris.delete(uri);
        if (!closed) deps.warn(`could not subscribe to ${JSON.stringify(uri.slice(0, MAX_URI_CHARS))}: ${describeError(error)}`);
      }
    },
    take: tell,
    async close() {
      if (closed) return;
      closed = true;
      listening?.abort();
      const subscribed = deps.era === "legacy" ? [...uris] : [];
      uris.clear();
      listeners.clear();
      // Best effort: a server that is gone or slow changes nothing, the connection closes next.
      await Promise.all(subscribed.map((uri) => deps.request("resources/unsubscribe", { uri }, { timeoutMs: UNSUBSCRIBE_TIMEOUT_MS }).catch(() => undefined)));
    },
  };
}
