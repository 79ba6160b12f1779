// Multi round-trip requests (the 2026-07-28 revision's `input_required` results): the input requests an `input_required` result carries, parsed at the
// boundary into a typed union; which kinds mca declares it can answer (and so may be asked); and the loop
// that answers them and retries the call until it completes.
import type { ToolArgs } from "../kernel/index.js";
import type { CallToolOptions, CallToolOutcome } from "./call-result.js";
import { isJsonObject, McpError, METHOD_NOT_FOUND, type JsonObject } from "./jsonrpc.js";
import type { RequestOptions, ServerRequestAnswer } from "./peer.js";

// ---------------------------------------------------------------------------------------------------
// The requests the revision defines: exactly `elicitation/create` (form or URL mode), `sampling/createMessage`
// and `roots/list`.

export type InputRequest =
  | {
      readonly kind: "elicit-form";
      readonly message: string;
      /** "a flat object of primitive properties"; kept verbatim for whoever builds the form. */
      readonly requestedSchema: JsonObject;
      readonly params: JsonObject;
    }
  | {
      readonly kind: "elicit-url";
      readonly message: string;
      /** Show its host and get consent; `accept` never means done: the outcome is learned by retrying. */
      readonly url: string;
      readonly params: JsonObject;
    }
  | {
      readonly kind: "sampling";
      readonly messages: readonly JsonObject[];
      readonly maxTokens: number;
      /** A tool-enabled sampling request needs the `sampling.tools` capability. */
      readonly usesTools: boolean;
      readonly params: JsonObject;
    }
  | { readonly kind: "roots"; readonly params: JsonObject };

export type InputRequestKind = InputRequest["kind"];

function parseElicitation(params: JsonObject): InputRequest | Error {
  const { mode, message, requestedSchema, url } = params;
  if (typeof message !== "string") return new Error("elicitation/create: `message` is not a string");
  // "missing `mode` ⇒ form"
  if (mode === undefined || mode === "form") {
    if (!isJsonObject(requestedSchema)) return new Error("elicitation/create: `requestedSchema` is not an object");
    return { kind: "elicit-form", message, requestedSchema, params };
  }
  if (mode === "url") {
    if (typeof url !== "string") return new Error("elicitation/create: `url` is not a string");
    return { kind: "elicit-url", message, url, params };
  }
  return new Error(`elicitation/create: unknown mode ${JSON.stringify(mode)}`);
}

function parseSampling(params: JsonObject): InputRequest | Error {
  const { messages, maxTokens, tools } = params;
  if (!Array.isArray(messages) || !messages.every(isJsonObject)) {
    return new Error("sampling/createMessage: `messages` is not a list of messages");
  }
  if (typeof maxTokens !== "number" || !Number.isInteger(maxTokens)) {
    return new Error("sampling/createMessage: `maxTokens` is not an integer");
  }
  return { kind: "sampling", messages, maxTokens, usesTools: Array.isArray(tools) && tools.length > 0, params };
}

function parseInputRequest(value: unknown): InputRequest | Error {
  if (!isJsonObject(value)) return new Error("an input request is not an object");
  const { method, params } = value;
  if (params !== undefined && !isJsonObject(params)) return new Error("an input request's `params` is not an object");
  const given = params ?? {};
  switch (method) {
    case "elicitation/create":
      return parseElicitation(given);
    case "sampling/createMessage":
      return parseSampling(given);
    case "roots/list":
      return { kind: "roots", params: given };
    default:
      return new Error(`unknown input request method ${JSON.stringify(method)}`);
  }
}

/** Every entry of `inputRequests`, or an Error naming the first key that is not a valid request. */
export function parseInputRequests(inputRequests: Readonly<Record<string, unknown>>): Record<string, InputRequest> | Error {
  const parsed: Record<string, InputRequest> = {};
  for (const [key, value] of Object.entries(inputRequests)) {
    const request = parseInputRequest(value);
    if (request instanceof Error) return new Error(`input request ${JSON.stringify(key)}: ${request.message}`);
    parsed[key] = request;
  }
  return parsed;
}

// ---------------------------------------------------------------------------------------------------
// What mca can answer, and the `clientCapabilities` that say exactly that: a server "MUST NOT include an
// input request kind the client did not declare", so we declare no more.

export interface InputSupport {
  readonly elicitationForm?: boolean;
  readonly elicitationUrl?: boolean;
  /** Plain sampling only: mca never declares `sampling.tools`. */
  readonly sampling?: boolean;
  readonly roots?: boolean;
}

/** What a client that answers nothing declares: `{}`, "no optional capabilities". */
const NO_INPUT_SUPPORT: InputSupport = {};

/** The `clientCapabilities` for `support`; each present value is an object, never `true`. */
export function clientCapabilities(support: InputSupport = NO_INPUT_SUPPORT): JsonObject {
  const capabilities: JsonObject = {};
  const elicitation: JsonObject = {};
  // `elicitation: {}` would mean form only; the modes are named so that the declaration reads as meant.
  if (support.elicitationForm === true) elicitation.form = {};
  if (support.elicitationUrl === true) elicitation.url = {};
  if (Object.keys(elicitation).length > 0) capabilities.elicitation = elicitation;
  if (support.roots === true) capabilities.roots = {};
  if (support.sampling === true) capabilities.sampling = {};
  return capabilities;
}

/** Why `request` is outside what was declared, or undefined when it may be answered. */
function undeclaredReason(request: InputRequest, support: InputSupport): string | undefined {
  switch (request.kind) {
    case "elicit-form":
      return support.elicitationForm === true ? undefined : "a form elicitation, and mca did not declare elicitation.form";
    case "elicit-url":
      return support.elicitationUrl === true ? undefined : "a URL elicitation, and mca did not declare elicitation.url";
    case "sampling":
      if (support.sampling !== true) return "sampling, and mca did not declare sampling";
      return request.usesTools ? "sampling with tools, and mca did not declare sampling.tools" : undefined;
    case "roots":
      return support.roots === true ? undefined : "the roots list, and mca did not declare roots";
    default: {
      const unknown: never = request;
      throw new Error(`unknown input request ${JSON.stringify(unknown)}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// SEP-1034 (https://github.com/modelcontextprotocol/modelcontextprotocol/issues/1034): every primitive field
// of a form may carry a `default`, and a client applies it where the person left the field out, so that
// "accept" with the form as shown means the server's defaults.

/** A default mca sends back: a primitive, or a multi-select's list of strings; anything else is not a form value. */
function isFormValue(value: unknown): boolean {
  if (typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/** An accepted form's `content` with the schema's defaults for the fields it left out; any other answer as it is. */
export function withFormDefaults(request: InputRequest, answer: unknown): unknown {
  if (request.kind !== "elicit-form" || !isJsonObject(answer) || answer.action !== "accept") return answer;
  const properties = request.requestedSchema.properties;
  if (!isJsonObject(properties)) return answer;
  const given = isJsonObject(answer.content) ? answer.content : {};
  const content: JsonObject = {};
  for (const [field, schema] of Object.entries(properties)) {
    if (isJsonObject(schema) && isFormValue(schema.default) && !Object.hasOwn(given, field)) content[field] = schema.default;
  }
  return Object.keys(content).length === 0 ? answer : { ...answer, content: { ...content, ...given } };
}

// ---------------------------------------------------------------------------------------------------
// The loop the revision asks of a client: a tools/call answered with `input_required` is answered and
// retried — same name and arguments, a new JSON-RPC id, the server's `requestState` echoed untouched — for as
// many rounds as the server asks, up to a cap.

/** "loop until complete or an error — bound the rounds". */
const MAX_INPUT_ROUNDS = 8;

export type CompleteOutcome = Extract<CallToolOutcome, { kind: "complete" }>;
type InputRequiredOutcome = Extract<CallToolOutcome, { kind: "input_required" }>;

/** `McpClient.callTool` (which throws its failures) or `ServerConnection.callTool` (which returns them). */
export type CallTool = (name: string, args: ToolArgs, options?: CallToolOptions) => Promise<CallToolOutcome | McpError>;

export interface InputAskContext {
  /** The server's own name for the tool. */
  readonly tool: string;
  /** 1 for the first answer, 2 when the server asks again after a retry… */
  readonly round: number;
  readonly signal?: AbortSignal;
}

/**
 * One response per request key: `ElicitResult`, `CreateMessageResult`, `ListRootsResult` (no `resultType`).
 * `{ abandon }` gives up (the user declined): "the server is not waiting", so nothing is retried.
 */
export type InputAnswer = (
  requests: Record<string, InputRequest>,
  context: InputAskContext,
) => Promise<Record<string, unknown> | { readonly abandon: string }>;

/** What the composer gives the mounting: what it can answer (declared through clientCapabilities) and how. */
export interface InputResponder {
  readonly support: InputSupport;
  answer(
    requests: Record<string, InputRequest>,
    context: InputAskContext & { readonly server: string },
  ): Promise<Record<string, unknown> | { readonly abandon: string }>;
}

export interface CompletionOptions extends RequestOptions {
  readonly answer: InputAnswer;
  readonly maxRounds?: number;
  /** What the client declared; a request outside it is refused without asking. Unchecked when absent. */
  readonly support?: InputSupport;
}

type Retry = { readonly inputResponses?: JsonObject; readonly requestState?: string };

export function isAbandon(answer: Record<string, unknown>): answer is { readonly abandon: string } {
  return typeof answer.abandon === "string";
}

async function nextRetry(name: string, outcome: InputRequiredOutcome, round: number, options: CompletionOptions): Promise<Retry | McpError> {
  // "If present: echo it byte-for-byte… If absent: MUST NOT send one."
  const state: Retry = outcome.requestState === undefined ? {} : { requestState: outcome.requestState };
  const requests = parseInputRequests(outcome.inputRequests);
  if (requests instanceof Error) return new McpError("protocol", `tools/call ${name}: ${requests.message}`);
  // "If absent (state-only, e.g. load shedding): MAY retry immediately."
  if (Object.keys(requests).length === 0) return state;
  if (options.support !== undefined) {
    for (const [key, request] of Object.entries(requests)) {
      const why = undeclaredReason(request, options.support);
      if (why !== undefined) return new McpError("protocol", `tools/call ${name}: the server asked (${JSON.stringify(key)}) for ${why}`);
    }
  }
  const answer = await options.answer(requests, { tool: name, round, ...(options.signal ? { signal: options.signal } : {}) });
  if (isAbandon(answer)) return new McpError("aborted", `tools/call ${name}: the input the server asked for was not given: ${answer.abandon}`);
  if (options.signal?.aborted) return new McpError("aborted", `tools/call ${name} was aborted while its input was being gathered`);
  const inputResponses: JsonObject = {};
  for (const [key, response] of Object.entries(answer)) {
    const request = requests[key];
    inputResponses[key] = request === undefined ? response : withFormDefaults(request, response);
  }
  return { ...state, inputResponses };
}

/**
 * Calls `name` and answers every `input_required` until the result is complete. Failures the call returns
 * come back as they are; what goes wrong in between (a malformed or undeclared request, an abandoned
 * answer, too many rounds) comes back as an McpError value.
 */
export async function callToolToCompletion(call: CallTool, name: string, args: ToolArgs, options: CompletionOptions): Promise<CompleteOutcome | McpError> {
  const maxRounds = options.maxRounds ?? MAX_INPUT_ROUNDS;
  const { signal, timeoutMs, onNotification, wantProgress, logLevel } = options;
  const requestOptions: RequestOptions = { signal, timeoutMs, onNotification, wantProgress, logLevel };
  let outcome = await call(name, args, requestOptions);
  for (let round = 1; ; round += 1) {
    if (outcome instanceof McpError) return outcome;
    switch (outcome.kind) {
      case "complete":
        return outcome;
      case "input_required": {
        if (round > maxRounds) {
          return new McpError("protocol", `tools/call ${name}: the server still asked for input after ${maxRounds} rounds; giving up`);
        }
        const retry = await nextRetry(name, outcome, round, options);
        if (retry instanceof McpError) return retry;
        // A retry is an independent request: the peer gives it a new id, and its answers travel on it alone.
        outcome = await call(name, args, { ...requestOptions, ...retry });
        break;
      }
      default: {
        const unknown: never = outcome;
        throw new Error(`unknown outcome ${JSON.stringify(unknown)}`);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// The legacy wire (2025-11-25): the same three kinds arrive as JSON-RPC requests of the server's own, one at
// a time, while a call is in flight. They go to the same responder, under the same declaration.

/** JSON-RPC's "Invalid params"; 2025-11-25 sampling: "-1" is the code a client uses when the user rejects. */
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;
const USER_REJECTED = -1;

export interface LegacyAskContext {
  readonly server: string;
  /** The server's name for the tool whose call is in flight, "" when none is known. */
  readonly tool: string;
}

/**
 * Answers a legacy server's `elicitation/create`, `sampling/createMessage` or `roots/list` through the
 * responder, refusing at once what mca did not declare. A declined elicitation is the `decline` its result
 * defines; a declined sampling or roots request is an error, as 2025-11-25 says of a rejected sampling.
 */
export async function answerLegacyInputRequest(
  method: string,
  params: JsonObject,
  responder: InputResponder,
  context: LegacyAskContext,
): Promise<ServerRequestAnswer> {
  const request = parseInputRequest({ method, params });
  if (request instanceof Error) return { error: { code: INVALID_PARAMS, message: request.message } };
  const why = undeclaredReason(request, responder.support);
  if (why !== undefined) return { error: { code: METHOD_NOT_FOUND, message: `the server asked for ${why}` } };
  const answer = await responder.answer({ request }, { ...context, round: 1 });
  if (isAbandon(answer)) {
    if (method === "elicitation/create") return { result: { action: "decline" } };
    return { error: { code: USER_REJECTED, message: `the user declined: ${answer.abandon}` } };
  }
  const result = withFormDefaults(request, answer.request);
  return isJsonObject(result) ? { result } : { error: { code: INTERNAL_ERROR, message: `${method}: mca has no answer to give` } };
}
