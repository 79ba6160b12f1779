// What the client does differently in each era, as two values of one shape: the client holds the one its
// server speaks and asks it, so that nothing in client.ts tests which era it is in. The 2026-07-28 rules
// put `_meta` on every request and hear list changes on a subscription; the 2025-11-25 ones send only
// what that revision defines, answer the server's own requests, hear its list changes as notifications,
// and start a new session when an HTTP server lost the old one.
import { isJsonObject, type JsonObject, type JsonRpcNotification, type JsonRpcRequest } from "./jsonrpc.js";
import { isLostSession } from "./http/failure.js";
import type { InputResponder } from "./input.js";
import { answerLegacyServerRequest, type LegacyLifecycle } from "./legacy-lifecycle.js";
import { listChangedKind, type ListKind } from "./list-changes.js";
import type { ServerRequestAnswer } from "./peer.js";
import type { LogLevel } from "./server-log.js";
import type { Era } from "./versions.js";

export const LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel";

/** How the client hears list changes: the two ways the eras have. */
export interface ListHearing {
  /** A legacy server's `notifications/<kind>/list_changed`, heard until close(). */
  byNotification(onChange: (kind: ListKind) => void): void;
  /** One `subscriptions/listen` for the kinds the server's capabilities say may change. */
  bySubscription(onChange: (kind: ListKind) => void): void;
}

export interface EraRules {
  /** For resource-subscriptions.ts, which keeps its own per-era ways. */
  readonly era: Era;
  /** The request's params with `_meta` as the era defines it. */
  withMeta(params: JsonObject, progressToken: string | undefined, logLevel: LogLevel | undefined): JsonObject;
  /** The kind of list a notification says changed, when the era hears that by notification. */
  listChangeOf(notification: JsonRpcNotification): ListKind | undefined;
  /** The answer to a request the server sent of its own; undefined: a violation, warned about and left unanswered. */
  answer(request: JsonRpcRequest, tool: string): ServerRequestAnswer | Promise<ServerRequestAnswer> | undefined;
  /** Whether `error` is mended (a new session) so that the attempt may go once more. */
  recover(error: unknown): Promise<boolean>;
  watchLists(onChange: (kind: ListKind) => void, hearing: ListHearing): void;
}

export interface ModernRulesDeps {
  /** The connection's frozen `_meta` for the version in use (client.ts builds it anew when the version changes). */
  readonly meta: () => JsonObject;
  /** The connection's own log level: a request asking for another carries its own. */
  readonly logLevel?: LogLevel;
}

/**
 * The request's params with `_meta` inside (never at the top level of the message). Keys the caller put
 * in its own `_meta` (e.g. `traceparent`) stay; ours win where both name the same key. A plain request
 * shares the connection's frozen `_meta`; only a progress token or a log level of its own makes a copy.
 */
export function createModernRules(deps: ModernRulesDeps): EraRules {
  return {
    era: "modern",
    withMeta(params, progressToken, logLevel) {
      const callerMeta = params._meta;
      const baseMeta = deps.meta();
      const ownLogLevel = logLevel === deps.logLevel ? undefined : logLevel;
      if (progressToken === undefined && ownLogLevel === undefined && callerMeta === undefined) return { ...params, _meta: baseMeta };
      const meta: JsonObject = isJsonObject(callerMeta) ? { ...callerMeta, ...baseMeta } : { ...baseMeta };
      if (progressToken !== undefined) meta.progressToken = progressToken;
      if (ownLogLevel !== undefined) meta[LOG_LEVEL_KEY] = ownLogLevel;
      return { ...params, _meta: meta };
    },
    // A modern server's list changes come only on a subscription, where they are routed to it.
    listChangeOf: () => undefined,
    // Only a legacy server may send requests.
    answer: () => undefined,
    recover: () => Promise.resolve(false),
    watchLists: (onChange, hearing) => hearing.bySubscription(onChange),
  };
}

export interface LegacyRulesDeps {
  readonly server: string;
  readonly lifecycle: LegacyLifecycle;
  readonly inputResponder?: InputResponder;
  /**
   * Whether requests speak the version `initialize` agreed. Before it agreed one, a request is still the
   * probe's; after a -32022 moved the connection to a 2026 version, it speaks that one: either way it
   * carries the 2026 `_meta`.
   */
  readonly speaksAgreedVersion: () => boolean;
  readonly modern: EraRules;
}

export function createLegacyRules(deps: LegacyRulesDeps): EraRules {
  return {
    era: "legacy",
    // A legacy revision defines none of the 2026 keys, and a two-era server routes any request that carries
    // them to its modern handler, which refuses: such a request carries only what 2025-11-25 defines.
    withMeta(params, progressToken, logLevel) {
      if (!deps.speaksAgreedVersion()) return deps.modern.withMeta(params, progressToken, logLevel);
      if (progressToken === undefined) return params;
      const callerMeta = params._meta;
      return { ...params, _meta: isJsonObject(callerMeta) ? { ...callerMeta, progressToken } : { progressToken } };
    },
    listChangeOf: listChangedKind,
    // A request for input names no tool: it is taken to be about the latest one called.
    answer: (request, tool) => answerLegacyServerRequest(request, deps.inputResponder, { server: deps.server, tool }),
    async recover(error) {
      if (!isLostSession(error)) return false;
      await deps.lifecycle.renewSession();
      return true;
    },
    watchLists: (onChange, hearing) => hearing.byNotification(onChange),
  };
}
