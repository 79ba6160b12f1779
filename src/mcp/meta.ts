// The `_meta` every 2026-07-28 request carries in its params (spec §1: it replaces `initialize`), built
// fresh for each request so that nothing one request carries leaks into another.
import { isJsonObject, type JsonObject } from "./jsonrpc.js";

export const PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
export const CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
export const CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo";
export const LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel";
export const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";

export type LogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

export interface RequestMetaInput {
  readonly protocolVersion: string;
  readonly clientCapabilities: JsonObject;
  /** Display only: "self-reported; display/logging only", never a security input. */
  readonly clientVersion: string;
  /** Opts in to `notifications/progress` for this one request. */
  readonly progressToken?: string | number;
  /** Opts in to `notifications/message` at this level and above for this one request. */
  readonly logLevel?: LogLevel;
}

export function buildRequestMeta(input: RequestMetaInput): JsonObject {
  const meta: JsonObject = {
    [PROTOCOL_VERSION_KEY]: input.protocolVersion,
    [CLIENT_CAPABILITIES_KEY]: structuredClone(input.clientCapabilities),
    [CLIENT_INFO_KEY]: { name: "mca", version: input.clientVersion },
  };
  if (input.progressToken !== undefined) meta.progressToken = input.progressToken;
  if (input.logLevel !== undefined) meta[LOG_LEVEL_KEY] = input.logLevel;
  return meta;
}

/**
 * The request's params with `_meta` set — inside params, never at the top level of the message. Keys the
 * caller put in its own `_meta` (e.g. `traceparent`) stay; ours win where both name the same key.
 */
export function withMeta(params: JsonObject, meta: JsonObject): JsonObject {
  const callerMeta = isJsonObject(params._meta) ? params._meta : {};
  return { ...params, _meta: { ...callerMeta, ...meta } };
}
