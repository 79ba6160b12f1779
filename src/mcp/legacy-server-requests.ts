// What mca answers when a legacy (2025-11-25) server sends a request of its own: such servers wait for an
// answer, so each one gets one at once — `ping` succeeds, everything else is refused as not offered.
import { METHOD_NOT_FOUND, type JsonRpcRequest } from "./jsonrpc.js";
import type { ServerRequestAnswer } from "./peer.js";

/**
 * 2025-11-25 lifecycle: "The receiver MUST respond promptly with an empty response" to `ping`. mca declares
 * no client capability at `initialize`, so roots/list, sampling/createMessage and elicitation/create
 * should not come; if they do, -32601 tells the server at once instead of leaving it waiting.
 */
export function answerLegacyServerRequest(request: JsonRpcRequest): ServerRequestAnswer {
  if (request.method === "ping") return { result: {} };
  return { error: { code: METHOD_NOT_FOUND, message: `mca does not offer ${request.method}` } };
}
