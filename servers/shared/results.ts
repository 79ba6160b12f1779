// Result envelopes: every result carries `resultType` and the server's identity in `_meta`; cacheable
// ones also carry `ttlMs` and `cacheScope`: how long a client may keep the answer, and for whom.
import { SERVER_INFO_KEY } from "./request-meta.js";
import type { JsonObject } from "../../src/mcp/index.js";

export type ServerIdentity = { readonly name: string; readonly title?: string; readonly version: string };

export type CacheHint = { readonly ttlMs: number; readonly cacheScope: "public" | "private" };

export function completeResult(identity: ServerIdentity, body: JsonObject, cache?: CacheHint): JsonObject {
  return {
    ...body,
    resultType: "complete",
    ...(cache === undefined ? {} : { ttlMs: cache.ttlMs, cacheScope: cache.cacheScope }),
    _meta: { [SERVER_INFO_KEY]: identity },
  };
}

/** Never cacheable: "Not on input_required results". */
export function inputRequiredResult(identity: ServerIdentity, inputRequests: JsonObject, requestState: string): JsonObject {
  return { resultType: "input_required", inputRequests, requestState, _meta: { [SERVER_INFO_KEY]: identity } };
}
