// Request builders for the demo-server tests: the `_meta` a 2026-07-28 client puts on every request.
import type { JsonObject } from "../../src/mcp/index.js";

export const VERSION = "2026-07-28";

export function meta(extra: JsonObject = {}): JsonObject {
  return {
    "io.modelcontextprotocol/protocolVersion": VERSION,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "servers-test", version: "0.0.0" },
    ...extra,
  };
}

export function request(id: number | string, method: string, params: JsonObject = {}, metaExtra: JsonObject = {}): JsonObject {
  return { jsonrpc: "2.0", id, method, params: { ...params, _meta: meta(metaExtra) } };
}

export const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";

/** The value at a path of object keys and array indexes inside parsed JSON, or undefined. */
export function valueAt(value: unknown, ...path: (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = Reflect.get(current, key);
  }
  return current;
}
