// Reads the per-request `_meta` every 2026-07-28 request carries (see docs/protocol.md) into a typed value,
// or into the -32602 / -32022 error the spec prescribes.
import { INVALID_PARAMS, UNSUPPORTED_PROTOCOL_VERSION, rpcError, type RpcError } from "./rpc-error.js";
import { isJsonObject, type JsonObject } from "../../src/mcp/index.js";

export const SUPPORTED_VERSIONS: readonly string[] = ["2026-07-28"];

export const PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
export const CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
export const LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel";
export const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";

const REQUIRED_KEYS = [PROTOCOL_VERSION_KEY, CLIENT_CAPABILITIES_KEY] as const;

/** Severity order of `LoggingLevel`, least severe first. */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type RequestMeta = {
  readonly protocolVersion: string;
  readonly clientCapabilities: JsonObject;
  /** Absent ⇒ "server MUST NOT send notifications/message". */
  readonly logLevel?: LogLevel;
  readonly progressToken?: string | number;
};

function isLogLevel(value: unknown): value is LogLevel {
  return LOG_LEVELS.some((level) => level === value);
}

/**
 * "Every request has params and params._meta"; a required key missing (or `_meta` itself, e.g. sent on the
 * top level of the message) is -32602 naming what is missing.
 */
export function readRequestMeta(params: unknown): RequestMeta | RpcError {
  const meta = isJsonObject(params) ? params["_meta"] : undefined;
  const found = isJsonObject(meta) ? meta : {};
  const missing = REQUIRED_KEYS.filter((key) => found[key] === undefined);
  if (missing.length > 0) {
    return rpcError(INVALID_PARAMS, `Invalid params: params._meta is missing ${missing.join(", ")}`, { missing });
  }
  const version = found[PROTOCOL_VERSION_KEY];
  if (typeof version !== "string") {
    return rpcError(INVALID_PARAMS, `Invalid params: params._meta["${PROTOCOL_VERSION_KEY}"] must be a string`);
  }
  const capabilities = found[CLIENT_CAPABILITIES_KEY];
  if (!isJsonObject(capabilities)) {
    return rpcError(INVALID_PARAMS, `Invalid params: params._meta["${CLIENT_CAPABILITIES_KEY}"] must be an object`);
  }
  const logLevel = found[LOG_LEVEL_KEY];
  if (logLevel !== undefined && !isLogLevel(logLevel)) {
    return rpcError(INVALID_PARAMS, `Invalid params: params._meta["${LOG_LEVEL_KEY}"] must be one of ${LOG_LEVELS.join(", ")}`);
  }
  const token = found["progressToken"];
  if (token !== undefined && typeof token !== "string" && !Number.isInteger(token)) {
    return rpcError(INVALID_PARAMS, "Invalid params: params._meta.progressToken must be a string or an integer");
  }
  return {
    protocolVersion: version,
    clientCapabilities: capabilities,
    ...(logLevel === undefined ? {} : { logLevel }),
    ...(typeof token === "string" || typeof token === "number" ? { progressToken: token } : {}),
  };
}

/** -32022 with `data: { supported, requested }` (both required by the schema). */
export function checkProtocolVersion(requested: string): RpcError | undefined {
  if (SUPPORTED_VERSIONS.includes(requested)) return undefined;
  return rpcError(UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version: ${requested}`, {
    supported: [...SUPPORTED_VERSIONS],
    requested,
  });
}

/** Whether a message at `level` may be sent to a client that asked for `requested` and above. */
export function logLevelAdmits(requested: LogLevel | undefined, level: LogLevel): boolean {
  return requested !== undefined && LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(requested);
}

/**
 * A legacy client's `initialize` (no 2026 `_meta`): -32022 naming the versions this server speaks, as the
 * spec asks of modern-only servers, so that any client reads "this server speaks 2026-07-28 only" rather
 * than the missing header or `_meta` it would otherwise be told about. A modern `initialize` is left to
 * the router's -32601.
 */
export function refuseLegacyInitialize(method: string, params: unknown): RpcError | undefined {
  if (method !== "initialize") return undefined;
  const meta = isJsonObject(params) ? params["_meta"] : undefined;
  if (isJsonObject(meta) && meta[PROTOCOL_VERSION_KEY] !== undefined) return undefined;
  const offered = isJsonObject(params) ? params["protocolVersion"] : undefined;
  const requested = typeof offered === "string" ? offered : "none";
  const speaks = SUPPORTED_VERSIONS.join(", ");
  return rpcError(
    UNSUPPORTED_PROTOCOL_VERSION,
    `Unsupported protocol version: ${requested} (this server speaks ${speaks} only: no initialize handshake; every request carries _meta)`,
    { supported: [...SUPPORTED_VERSIONS], requested },
  );
}
