// The one guard both demo servers use to look inside untrusted JSON without casts.
import type { JsonObject } from "../../src/mcp/index.js";

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
