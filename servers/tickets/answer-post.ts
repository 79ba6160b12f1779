// One POST body in, one reply out, in the order the spec and the conformance mock observe (digest §1,
// §5.4): parse → a legacy `initialize` refused with the versions spoken → version header present → `_meta` keys → header = `_meta` version → version supported →
// Mcp-Method / Mcp-Name / Mcp-Param-* → route (unknown method 404 + -32601).
import { checkRoutingHeaders, checkVersionHeaderMatches, checkVersionHeaderPresent, type HeaderLookup } from "./header-checks.js";
import { errorReply, type Reply } from "./http-reply.js";
import { parseIncoming } from "../shared/incoming.js";
import { checkProtocolVersion, readRequestMeta, refuseLegacyInitialize, type RequestMeta } from "../shared/request-meta.js";
import { answerMessages, route, type ServerSpec } from "../shared/router.js";
import type { RpcError } from "../shared/rpc-error.js";
import { isJsonObject, type JsonObject } from "../../src/mcp/index.js";

type Checked = { readonly params: JsonObject; readonly meta: RequestMeta };

function checkRequest(spec: ServerSpec, header: HeaderLookup, method: string, params: unknown): Checked | RpcError {
  const legacyInitialize = refuseLegacyInitialize(method, params);
  if (legacyInitialize) return legacyInitialize;
  const noVersionHeader = checkVersionHeaderPresent(header);
  if (noVersionHeader) return noVersionHeader;
  const meta = readRequestMeta(params);
  if ("code" in meta) return meta;
  const problem =
    checkVersionHeaderMatches(header, meta.protocolVersion) ??
    checkProtocolVersion(meta.protocolVersion) ??
    checkRoutingHeaders(header, method, isJsonObject(params) ? params : {}, spec.tools);
  return problem ?? { params: isJsonObject(params) ? params : {}, meta };
}

/**
 * `acceptsStream`: the client listed text/event-stream in Accept; a streamed answer to one that did not
 * falls back to plain JSON without its notifications.
 */
export function answerPost(spec: ServerSpec, header: HeaderLookup, body: string, acceptsStream: boolean): Reply {
  const incoming = parseIncoming(body);
  switch (incoming.kind) {
    case "invalid":
      return errorReply(incoming.id, incoming.error);
    case "notification":
      // 2026-07-28 defines no client→server notification over HTTP; accept and ignore (S:http: 202).
      return { kind: "accepted" };
    case "request":
      break;
    default: {
      const unreachable: never = incoming;
      return unreachable;
    }
  }
  const checked = checkRequest(spec, header, incoming.method, incoming.params);
  if ("code" in checked) return errorReply(incoming.id, checked);
  const answer = route(spec, incoming.method, checked.params, checked.meta);
  if (answer.kind === "error") return errorReply(incoming.id, answer.error);
  if (answer.streamed && acceptsStream) return { kind: "stream", messages: answerMessages(incoming.id, answer) };
  return { kind: "json", status: 200, body: { jsonrpc: "2.0", id: incoming.id, result: answer.result } };
}
