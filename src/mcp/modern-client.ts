// The client of a 2026-07-28 server (https://modelcontextprotocol.io/specification/2026-07-28/basic/lifecycle):
// stateless, with no handshake. Every request carries `_meta` in its params; list changes come only on a
// `subscriptions/listen`; the server's own requests are a violation, warned about and left unanswered.
import { createClientCore, type EraRules, type McpClient } from "./client.js";
import type { DiscoverInfo } from "./discover.js";
import { createExchange, type Exchange } from "./exchange.js";
import { isJsonObject, type JsonObject } from "./jsonrpc.js";
import type { LogLevel } from "./server-log.js";
import { LOG_LEVEL_KEY, type Wire } from "./wire.js";

interface ModernRulesDeps {
  /** The connection's frozen `_meta` for the version in use (the wire builds it anew when the version changes). */
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
    sessionRenewals: () => 0,
  };
}

/** The rules of the wire's connection: its `_meta` and its log level. */
export function modernRulesOf(wire: Wire): EraRules {
  return createModernRules({ meta: () => wire.meta(), ...(wire.logLevel === undefined ? {} : { logLevel: wire.logLevel }) });
}

/** Requests as a 2026-07-28 server takes them, before any client exists: the era probe's `server/discover`. */
export function modernExchange(wire: Wire): Exchange {
  return createExchange(wire, modernRulesOf(wire));
}

/**
 * A client of a modern server: from `info` (what `server/discover` told), requests speak its version. A
 * client built without it knows nothing of the server (`{}` declared) and speaks the wire's version: only
 * the self-test builds one, to meet a -32022 on its first list rather than on `server/discover`.
 */
export function createModernClient(wire: Wire, info?: DiscoverInfo): McpClient {
  if (info !== undefined) wire.useVersion(info.protocolVersion);
  return createClientCore(wire, info ?? { capabilities: {} }, modernRulesOf(wire));
}
