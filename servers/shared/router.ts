// Routes a validated request to its answer: the methods both demo servers have (`server/discover`,
// `tools/list`, `tools/call`) plus a server's own table of extra methods; anything else is -32601.
import { checkProtocolVersion, logLevelAdmits, readRequestMeta, refuseLegacyInitialize, SUPPORTED_VERSIONS, type RequestMeta } from "./request-meta.js";
import { completeResult, inputRequiredResult, type CacheHint, type ServerIdentity } from "./results.js";
import { failure, INVALID_PARAMS, METHOD_NOT_FOUND, rpcError, type RpcError } from "./rpc-error.js";
import { toolsPage } from "./tools-page.js";
import type { ToolEntry, ToolOutcome } from "./tool.js";
import { isJsonObject, type JsonObject, type JsonRpcId, type JsonRpcMessage } from "../../src/mcp/index.js";

export type Notification = { readonly jsonrpc: "2.0"; readonly method: string; readonly params: JsonObject };

export type Answer =
  | {
      readonly kind: "result";
      readonly result: JsonObject;
      /** Request-scoped notifications to send before and after the response, in order. */
      readonly before: readonly Notification[];
      readonly after: readonly Notification[];
      /** HTTP answers this one as an event stream. */
      readonly streamed: boolean;
    }
  | { readonly kind: "error"; readonly error: RpcError };

/** An extra method: its complete body (enveloped here) or an error. */
export type MethodReply = { readonly kind: "complete"; readonly body: JsonObject; readonly cacheable: boolean } | RpcError;
export type ExtraMethod = (params: JsonObject) => MethodReply;

export type ServerSpec = {
  readonly identity: ServerIdentity;
  readonly capabilities: JsonObject;
  readonly cache: CacheHint;
  readonly tools: readonly ToolEntry[];
  readonly toolsPerPage: number;
  readonly methods?: Readonly<Record<string, ExtraMethod>>;
};

/** Methods of the 2025-11-25 era that 2026-07-28 removed; the -32601 says what replaced them. */
const REMOVED_METHODS: Readonly<Record<string, string>> = {
  initialize: `this server speaks ${SUPPORTED_VERSIONS.join(", ")} only: no handshake, every request carries _meta; try server/discover`,
  ping: "removed in 2026-07-28",
  "logging/setLevel": "removed in 2026-07-28: send _meta io.modelcontextprotocol/logLevel per request",
  "resources/subscribe": "removed in 2026-07-28: replaced by subscriptions/listen",
  "resources/unsubscribe": "removed in 2026-07-28: replaced by subscriptions/listen",
};

function result(body: JsonObject): Answer {
  return { kind: "result", result: body, before: [], after: [], streamed: false };
}

function error(e: RpcError): Answer {
  return { kind: "error", error: e };
}

/** The whole pipeline where there are no headers (stdio): legacy initialize → `_meta` → version → route. */
export function answerMessage(spec: ServerSpec, method: string, params: unknown): Answer {
  const legacyInitialize = refuseLegacyInitialize(method, params);
  if (legacyInitialize) return error(legacyInitialize);
  const meta = readRequestMeta(params);
  if ("code" in meta) return error(meta);
  const unsupported = checkProtocolVersion(meta.protocolVersion);
  if (unsupported) return error(unsupported);
  return route(spec, method, isJsonObject(params) ? params : {}, meta);
}

/** Routes a request whose `_meta` and version were already checked. */
export function route(spec: ServerSpec, method: string, params: JsonObject, meta: RequestMeta): Answer {
  switch (method) {
    case "server/discover":
      return result(
        completeResult(spec.identity, { supportedVersions: [...SUPPORTED_VERSIONS], capabilities: spec.capabilities }, spec.cache),
      );
    case "tools/list": {
      const page = toolsPage(spec.tools, params["cursor"], spec.toolsPerPage);
      return "code" in page ? error(page) : result(completeResult(spec.identity, { ...page }, spec.cache));
    }
    case "tools/call":
      return callTool(spec, params, meta);
  }
  const extra = spec.methods?.[method];
  if (extra) {
    const reply = extra(params);
    if ("code" in reply) return error(reply);
    return result(completeResult(spec.identity, reply.body, reply.cacheable ? spec.cache : undefined));
  }
  const why = REMOVED_METHODS[method];
  return error(rpcError(METHOD_NOT_FOUND, `Method not found: ${method}${why ? ` (${why})` : ""}`));
}

function callTool(spec: ServerSpec, params: JsonObject, meta: RequestMeta): Answer {
  const name = params["name"];
  if (typeof name !== "string") return error(rpcError(INVALID_PARAMS, "Invalid params: params.name must be a string"));
  const entry = spec.tools.find((tool) => tool.definition.name === name);
  if (!entry) return error(rpcError(INVALID_PARAMS, `Unknown tool: ${name}`, { name }));
  const args = params["arguments"] ?? {};
  const inputResponses = params["inputResponses"];
  const requestState = params["requestState"];
  if (!isJsonObject(args)) return error(rpcError(INVALID_PARAMS, "Invalid params: params.arguments must be an object"));
  if (inputResponses !== undefined && !isJsonObject(inputResponses)) {
    return error(rpcError(INVALID_PARAMS, "Invalid params: params.inputResponses must be an object"));
  }
  if (requestState !== undefined && typeof requestState !== "string") {
    return error(rpcError(INVALID_PARAMS, "Invalid params: params.requestState must be a string"));
  }
  const outcome = entry.call({
    arguments: args,
    meta,
    ...(inputResponses === undefined ? {} : { inputResponses }),
    ...(requestState === undefined ? {} : { requestState }),
  });
  const answer = toolAnswer(spec.identity, outcome);
  if (answer.kind === "error" || !entry.streamed) return answer;
  return { ...answer, before: progressNotices(name, meta), after: logNotices(name, meta), streamed: true };
}

function toolAnswer(identity: ServerIdentity, outcome: ToolOutcome): Answer {
  switch (outcome.kind) {
    case "complete":
      return result(completeResult(identity, {
        content: [...outcome.content],
        ...(outcome.isError ? { isError: true } : {}),
        ...(outcome.structuredContent ? { structuredContent: outcome.structuredContent } : {}),
      }));
    case "input_required":
      return result(inputRequiredResult(identity, outcome.inputRequests, outcome.requestState));
    case "error":
      return error(outcome.error);
    default: {
      const unreachable: never = outcome;
      return unreachable;
    }
  }
}

/** "Only if the request set _meta.progressToken" (https://modelcontextprotocol.io/specification/2026-07-28/basic/utilities/progress). */
function progressNotices(tool: string, meta: RequestMeta): Notification[] {
  if (meta.progressToken === undefined) return [];
  const params = { progressToken: meta.progressToken, progress: 1, total: 2, message: `${tool}: started` };
  return [{ jsonrpc: "2.0", method: "notifications/progress", params }];
}

/** "Absent logLevel ⇒ server MUST NOT send notifications/message". */
function logNotices(tool: string, meta: RequestMeta): Notification[] {
  if (!logLevelAdmits(meta.logLevel, "info")) return [];
  const params = { level: "info", logger: tool, data: `${tool}: finished; this message follows the response on purpose` };
  return [{ jsonrpc: "2.0", method: "notifications/message", params }];
}

/** The messages that carry an answer, in sending order: notifications before, the response, notifications after. */
export function answerMessages(id: JsonRpcId, answer: Answer): JsonRpcMessage[] {
  if (answer.kind === "error") return [failure(id, answer.error)];
  return [...answer.before, { jsonrpc: "2.0", id, result: answer.result }, ...answer.after];
}
