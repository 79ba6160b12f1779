// The client of a 2025-11-25 server (https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle),
// built once the handshake is done: its requests carry only what that revision defines, the server's own
// requests are answered, its list changes come as notifications, and a new session is started when an
// HTTP server lost the old one.
import { createClientCore, type EraRules, type McpClient } from "./client.js";
import { isLostSession } from "./http/failure.js";
import type { InputResponder } from "./input.js";
import { isJsonObject } from "./jsonrpc.js";
import { answerLegacyServerRequest, createLegacyLifecycle, type LegacyLifecycle, type LegacyServerInfo } from "./legacy-lifecycle.js";
import { listChangedKind } from "./list-changes.js";
import { modernRulesOf } from "./modern-client.js";
import type { Wire } from "./wire.js";

interface LegacyRulesDeps {
  readonly server: string;
  readonly lifecycle: LegacyLifecycle;
  readonly inputResponder?: InputResponder;
  /**
   * Whether requests speak the version `initialize` agreed. After a -32022 moved the connection to a 2026
   * version, a request speaks that one, and carries the 2026 `_meta` of `modern`.
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
    sessionRenewals: () => deps.lifecycle.sessionRenewals(),
  };
}

/**
 * What the handshake leaves for the client: what `initialize` told, and the rules of the connection it
 * began, with the one lifecycle that runs each `initialize` of it (the handshake's, then a new session's).
 */
export interface Handshaken {
  readonly info: LegacyServerInfo;
  readonly rules: EraRules;
}

/** The lifecycle on the wire and the rules over it. */
function legacyConnection(wire: Wire): { readonly lifecycle: LegacyLifecycle; readonly rules: EraRules } {
  const { peer, server, clientVersion, capabilities, warn } = wire;
  /**
   * The version `initialize` agreed last: while requests speak it, they carry only what its revision defines
   * (a -32022 may move a legacy server's connection to a 2026 version, and `_meta` with it).
   */
  let agreedVersion: string | undefined;
  const lifecycle = createLegacyLifecycle({
    peer,
    server,
    clientVersion,
    capabilities,
    ...(wire.logLevel === undefined ? {} : { logLevel: wire.logLevel }),
    warn,
    useVersion(version) {
      agreedVersion = version;
      wire.useVersion(version);
    },
  });
  const rules = createLegacyRules({
    server,
    lifecycle,
    ...(wire.inputResponder === undefined ? {} : { inputResponder: wire.inputResponder }),
    speaksAgreedVersion: () => wire.protocolVersion() === agreedVersion,
    modern: modernRulesOf(wire),
  });
  return { lifecycle, rules };
}

/**
 * The 2025-11-25 handshake on a wire no client owns yet; afterwards requests speak the agreed version.
 * From its start the server is heard under the legacy rules, about no tool yet and with its list changes
 * nobody's: a server may ask, or say, something as soon as it is initialized. `signal`: as the lifecycle's
 * `initialize` takes it.
 */
export async function handshake(wire: Wire, signal?: AbortSignal): Promise<Handshaken> {
  const { lifecycle, rules } = legacyConnection(wire);
  wire.hear("negotiation", {
    notification(notification) {
      if (rules.listChangeOf(notification) === undefined) wire.router.route(notification);
    },
    request: (request) => rules.answer(request, ""),
  });
  return { info: await lifecycle.initialize(signal), rules };
}

/** A client of a legacy server, built over the wire its handshake was done on, with what the handshake left. */
export function createLegacyClient(wire: Wire, { info, rules }: Handshaken): McpClient {
  return createClientCore(wire, info, rules);
}

/** The handshake on the wire, then the client of what it told. */
export async function openLegacyClient(wire: Wire): Promise<McpClient> {
  return createLegacyClient(wire, await handshake(wire));
}
