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

export interface LegacyRulesDeps {
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

/** The lifecycle on the wire; `useVersion` hears the version each `initialize` agrees. */
function lifecycleOn(wire: Wire, useVersion: (version: string) => void): LegacyLifecycle {
  const { peer, server, clientVersion, capabilities, warn } = wire;
  return createLegacyLifecycle({ peer, server, clientVersion, capabilities, ...(wire.logLevel === undefined ? {} : { logLevel: wire.logLevel }), warn, useVersion });
}

/**
 * The 2025-11-25 handshake on a wire no client owns yet; afterwards requests speak the agreed version.
 * From its start the server's requests are answered (about no tool yet) and its list changes are nobody's:
 * a server may ask, or say, something as soon as it is initialized. Aborted by `signal` (a late modern
 * answer to the probe won), it changes nothing.
 */
export function handshake(wire: Wire, signal?: AbortSignal): Promise<LegacyServerInfo> {
  wire.hear({
    notification(notification) {
      if (listChangedKind(notification) === undefined) wire.router.route(notification);
    },
    request: (request) => answerLegacyServerRequest(request, wire.inputResponder, { server: wire.server, tool: "" }),
  });
  return lifecycleOn(wire, (version) => wire.useVersion(version)).initialize(signal);
}

/** A client of a legacy server, built over the wire its handshake was done on, with what `initialize` told. */
export function createLegacyClient(wire: Wire, info: LegacyServerInfo): McpClient {
  /**
   * The version `initialize` agreed: while requests speak it, they carry only what its revision defines (a
   * -32022 may move a legacy server's connection to a 2026 version, and `_meta` with it).
   */
  let agreedVersion = info.protocolVersion;
  const lifecycle = lifecycleOn(wire, (version) => {
    agreedVersion = version;
    wire.useVersion(version);
  });
  const rules = createLegacyRules({
    server: wire.server,
    lifecycle,
    ...(wire.inputResponder === undefined ? {} : { inputResponder: wire.inputResponder }),
    speaksAgreedVersion: () => wire.protocolVersion() === agreedVersion,
    modern: modernRulesOf(wire),
  });
  return createClientCore(wire, info, rules);
}

/** The handshake on the wire, then the client of what it told. */
export async function openLegacyClient(wire: Wire): Promise<McpClient> {
  return createLegacyClient(wire, await handshake(wire));
}
