// The requests an `input_required` result carries (spec §3 "Shapes"), parsed at the boundary into a typed
// union: exactly `elicitation/create` (form or URL mode), `sampling/createMessage` and `roots/list`.
import { isJsonObject, type JsonObject } from "./jsonrpc.js";

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

export function parseInputRequest(value: unknown): InputRequest | Error {
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
