// One request as mca sends it on a wire, in either era: params with `_meta` as the era defines it, this
// request's own notifications routed to its caller, and one retry for each reason that allows it (-32022, a
// failure the era can mend, a broken read-only exchange). The probe that settles the era sends its
// `server/discover` this way, and so does each client afterwards.
import { McpError, UNSUPPORTED_PROTOCOL_VERSION, type JsonObject } from "./jsonrpc.js";
import { LISTEN_METHOD } from "./list-changes.js";
import type { NotificationListener, RequestOptions } from "./peer.js";
import type { LogLevel } from "./server-log.js";
import { pickMutualVersion, readSupportedVersions } from "./versions.js";
import type { Wire } from "./wire.js";

/** What an exchange asks of its era. */
export interface ExchangeRules {
  /** The request's params with `_meta` as the era defines it. */
  withMeta(params: JsonObject, progressToken: string | undefined, logLevel: LogLevel | undefined): JsonObject;
  /** Whether `error` is mended (a new session) so that the attempt may go once more. */
  recover(error: unknown): Promise<boolean>;
}

export interface Exchange {
  request(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject>;
  /** One subscriptions/listen: no deadline, and its notifications (they name its id) routed to `onNotification`. */
  listen(params: JsonObject, onNotification: NotificationListener, signal: AbortSignal): Promise<JsonObject>;
}

export function createExchange(wire: Wire, rules: ExchangeRules): Exchange {
  const { server, peer, router, versions } = wire;

  /** -32022 UnsupportedProtocolVersion: once, switch to a version both sides speak, else say what each side speaks. */
  async function retryOnOtherVersion(attempt: () => Promise<JsonObject>): Promise<JsonObject> {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof McpError) || error.kind !== "server" || error.code !== UNSUPPORTED_PROTOCOL_VERSION) throw error;
      const offered = readSupportedVersions(error.data) ?? [];
      const mutual = pickMutualVersion(offered.filter((version) => versions.includes(version)), wire.protocolVersion());
      if (mutual === undefined) {
        const theirs = offered.join(", ") || "none listed";
        const text = `${error.message}; the server supports ${theirs}, mca supports ${versions.join(", ")}`;
        throw new McpError("server", text, { server, code: error.code, data: error.data });
      }
      wire.useVersion(mutual);
      return attempt();
    }
  }

  /** A failure the era can mend (a legacy HTTP server that lost the session: a new one): once, then the request again. */
  async function retryInNewSession(attempt: () => Promise<JsonObject>): Promise<JsonObject> {
    try {
      return await attempt();
    } catch (error) {
      if (!(await rules.recover(error))) throw error;
      return attempt();
    }
  }

  /** An exchange broken before its answer: sent once more, only where a request has no side effects (never a tools/call). */
  async function resendWhenBroken(method: string, attempt: () => Promise<JsonObject>): Promise<JsonObject> {
    try {
      return await attempt();
    } catch (error) {
      const resendable = method === "server/discover" || method.endsWith("/list");
      if (!(error instanceof McpError) || error.kind !== "broken" || !resendable) throw error;
      return attempt();
    }
  }

  async function request(method: string, params: JsonObject, requestOptions: RequestOptions): Promise<JsonObject> {
    const { signal, timeoutMs, wantProgress, onNotification } = requestOptions;
    const logLevel = requestOptions.logLevel ?? wire.logLevel;
    // One token per logical request: an attempt that failed is no longer active, so a retry may reuse it.
    const progressToken = wantProgress ? wire.newProgressToken() : undefined;
    const detach = onNotification && router.attach({ progressToken, wantsLogs: logLevel !== undefined }, onNotification);
    const peerOptions = signal === undefined && timeoutMs === undefined ? undefined : { signal, timeoutMs };
    // Each attempt builds `_meta` anew: a version switch changes it.
    const send = (): Promise<JsonObject> => peer.request(method, rules.withMeta(params, progressToken, logLevel), peerOptions);
    try {
      const result = await retryOnOtherVersion(() => retryInNewSession(() => resendWhenBroken(method, send)));
      // A tool whose header declarations are invalid is dropped as the page arrives; a first page starts the table over.
      return method === "tools/list" ? wire.paramHeaders.screen(result, params.cursor === undefined, wire.warn) : result;
    } finally {
      detach?.();
    }
  }

  function listen(params: JsonObject, onNotification: NotificationListener, signal: AbortSignal): Promise<JsonObject> {
    let detach: (() => void) | undefined;
    const onSent = (id: number): void => {
      detach?.();
      detach = router.attachListen(id, onNotification);
    };
    const send = (): Promise<JsonObject> => peer.request(LISTEN_METHOD, rules.withMeta(params, undefined, undefined), { noDeadline: true, signal, onSent });
    return retryOnOtherVersion(send).finally(() => detach?.());
  }

  return { request, listen };
}
