// The methods the ticket system declares besides tools: it has no prompts and no resources, so the lists
// are empty (with cache hints, as every list result must carry) and reads and gets find nothing.
import { INVALID_PARAMS, rpcError } from "../shared/rpc-error.js";
import type { ExtraMethod } from "../shared/router.js";

export const TICKETS_EXTRA_METHODS: Readonly<Record<string, ExtraMethod>> = {
  "prompts/list": () => ({ kind: "complete", body: { prompts: [] }, cacheable: true }),
  "prompts/get": (params) => rpcError(INVALID_PARAMS, `Unknown prompt: ${String(params["name"])}`),
  "resources/list": () => ({ kind: "complete", body: { resources: [] }, cacheable: true }),
  "resources/templates/list": () => ({ kind: "complete", body: { resourceTemplates: [] }, cacheable: true }),
  // "Resource not found" is -32602 in 2026-07-28 (no longer -32002), with the uri in data.
  "resources/read": (params) => {
    const uri = params["uri"];
    if (typeof uri !== "string") return rpcError(INVALID_PARAMS, "Invalid params: params.uri must be a string");
    return rpcError(INVALID_PARAMS, `Resource not found: ${uri}`, { uri });
  },
};
