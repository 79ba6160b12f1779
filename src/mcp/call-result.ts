// A tools/call result, from the wire to the text the model reads (tools/call and its `resultType`,
// https://modelcontextprotocol.io/specification/2026-07-28/server/tools):
// the content blocks validated once as they arrive, finished work kept apart from a request for more input
// (which must never be handed to the model as finished), images passed on as images, and other non-text
// blocks described in a line instead of dumped (base64 would burn the 8,000-character budget on noise).
import { formatBytes, imageLine, type ToolImage, type ToolResult } from "../kernel/index.js";
import { checkImage } from "./image-content.js";
import { isJsonObject, type JsonObject } from "./jsonrpc.js";
import { checkStructuredContent, type DeclaredOutput, type OutputCheck } from "./output-schema.js";
import type { RequestOptions } from "./peer.js";

/** The options of one tools/call. */
export interface CallToolOptions extends RequestOptions {
  /** A retry after `input_required`: the answers, and the server's `requestState` echoed untouched. */
  readonly inputResponses?: JsonObject;
  readonly requestState?: string;
}

// ---------------------------------------------------------------------------------------------------
// Content blocks: required fields are checked, optional fields of the wrong type left out, an unknown type
// is an error.

type Common = { readonly annotations?: JsonObject; readonly _meta?: JsonObject };

type TextContent = Common & { readonly type: "text"; readonly text: string };
type ImageContent = Common & { readonly type: "image"; readonly data: string; readonly mimeType: string };
type AudioContent = Common & { readonly type: "audio"; readonly data: string; readonly mimeType: string };
type ResourceLinkContent = Common & {
  readonly type: "resource_link";
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
};
type EmbeddedResource = {
  readonly uri: string;
  readonly mimeType?: string;
  readonly text?: string;
  /** Base64. */
  readonly blob?: string;
};
type EmbeddedResourceContent = Common & { readonly type: "resource"; readonly resource: EmbeddedResource };

export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLinkContent | EmbeddedResourceContent;

/** The optional fields of `block` named in `keys` that hold a value of the expected type. */
function optional<T>(block: JsonObject, keys: readonly string[], is: (value: unknown) => value is T): Record<string, T> {
  const picked: Record<string, T> = {};
  for (const key of keys) {
    const value = block[key];
    if (is(value)) picked[key] = value;
  }
  return picked;
}

const isString = (value: unknown): value is string => typeof value === "string";
const isNumber = (value: unknown): value is number => typeof value === "number";

const missing = (type: string, key: string): Error => new Error(`a "${type}" block has no string \`${key}\``);

function parseResource(value: unknown): EmbeddedResource | Error {
  if (!isJsonObject(value) || typeof value.uri !== "string") return missing("resource", "resource.uri");
  return { uri: value.uri, ...optional(value, ["mimeType", "text", "blob"], isString) };
}

export function parseBlock(block: unknown): ContentBlock | Error {
  if (!isJsonObject(block)) return new Error("not an object");
  const common: Common = optional(block, ["annotations", "_meta"], isJsonObject);
  const { type } = block;
  switch (type) {
    case "text":
      return typeof block.text === "string" ? { ...common, type, text: block.text } : missing(type, "text");
    case "image":
    case "audio":
      if (typeof block.data !== "string") return missing(type, "data");
      if (typeof block.mimeType !== "string") return missing(type, "mimeType");
      return { ...common, type, data: block.data, mimeType: block.mimeType };
    case "resource_link": {
      if (typeof block.uri !== "string") return missing(type, "uri");
      if (typeof block.name !== "string") return missing(type, "name");
      const extra = { ...optional(block, ["title", "description", "mimeType"], isString), ...optional(block, ["size"], isNumber) };
      return { ...common, ...extra, type, uri: block.uri, name: block.name };
    }
    case "resource": {
      const resource = parseResource(block.resource);
      return resource instanceof Error ? resource : { ...common, type, resource };
    }
    default:
      return new Error(`unknown type ${JSON.stringify(type)}`);
  }
}

function parseContentBlocks(value: unknown): ContentBlock[] | Error {
  if (!Array.isArray(value)) return new Error("`content` is not an array");
  const blocks: ContentBlock[] = [];
  for (const [index, item] of value.entries()) {
    const block = parseBlock(item);
    if (block instanceof Error) return new Error(`content[${index}]: ${block.message}`);
    blocks.push(block);
  }
  return blocks;
}

// ---------------------------------------------------------------------------------------------------
// The outcome of a call: finished work, or a request for more input.

export type CallToolOutcome =
  | {
      readonly kind: "complete";
      readonly content: ContentBlock[];
      readonly structuredContent?: unknown;
      readonly isError: boolean;
    }
  | {
      readonly kind: "input_required";
      readonly inputRequests: Record<string, unknown>;
      /** Opaque: echoed byte for byte on the retry, never parsed. */
      readonly requestState?: string;
    };

/**
 * "Absent `resultType` (legacy server) MUST be treated as complete"; "a value the client does not
 * recognise MUST be treated as invalid".
 */
export function readResultType(result: JsonObject): "complete" | "input_required" | Error {
  const { resultType } = result;
  if (resultType === undefined || resultType === "complete") return "complete";
  if (resultType === "input_required") return "input_required";
  return new Error(`unknown resultType ${JSON.stringify(resultType)}`);
}

export function parseCallOutcome(result: JsonObject): CallToolOutcome | Error {
  const resultType = readResultType(result);
  if (resultType instanceof Error) return resultType;
  switch (resultType) {
    case "complete": {
      const content = parseContentBlocks(result.content);
      if (content instanceof Error) return content;
      const outcome = { kind: resultType, content, isError: result.isError === true };
      return "structuredContent" in result ? { ...outcome, structuredContent: result.structuredContent } : outcome;
    }
    case "input_required": {
      const { inputRequests, requestState } = result;
      if (inputRequests !== undefined && !isJsonObject(inputRequests)) return new Error("`inputRequests` is not an object");
      if (requestState !== undefined && typeof requestState !== "string") return new Error("`requestState` is not a string");
      if (inputRequests === undefined && requestState === undefined) {
        return new Error("an input_required result has neither `inputRequests` nor `requestState`");
      }
      const outcome = { kind: resultType, inputRequests: inputRequests ?? {} };
      return requestState === undefined ? outcome : { ...outcome, requestState };
    }
    default: {
      const unreachable: never = resultType;
      return unreachable;
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// What the model reads: text blocks as they are, images (and image blobs of embedded resources) checked
// and sent as images with a line in their place, everything else described in a line.

function sizeOfBase64(data: string): string {
  return formatBytes(Math.floor((data.length * 3) / 4));
}

/** A server's MIME type as it may be shown: a plain `type/subtype`, or else quoted and clipped. */
function shownType(mimeType: string): string {
  return /^[\w.+-]{1,60}\/[\w.+-]{1,60}$/.test(mimeType) ? mimeType : JSON.stringify(mimeType.slice(0, 60));
}

/** A server's name or URI inside a line: as it is when it is one short printable line, else quoted and clipped. */
function shownWord(text: string): string {
  return /^[^\p{Cc}\p{Zl}\p{Zp}\]]{1,200}$/u.test(text) ? text : JSON.stringify(text.slice(0, 200));
}

/** The local tool that reads a server's resource by its alias and URI (resources.ts, which imports this module, offers it). */
const READ_RESOURCE_TOOL = "read_mcp_resource";

/** A link says how to read it: with the resource tool, the server's alias and the exact URI as JSON. */
function resourceLinkLine(block: ResourceLinkContent, alias: string | undefined): string {
  const about = `${shownWord(block.name)} ${shownWord(block.uri)}${block.mimeType === undefined ? "" : ` (${shownType(block.mimeType)})`}`;
  if (alias === undefined) return `[resource link: ${about}]`;
  return `[resource link: ${about}; read it with ${READ_RESOURCE_TOOL} ${JSON.stringify({ server: alias, uri: block.uri })}]`;
}

export type Part = { readonly text: string; readonly image?: ToolImage };

function imagePart(data: string, mimeType: string): Part {
  const image = checkImage(data, mimeType);
  if (image instanceof Error) return { text: `[image ${shownType(mimeType)}: ${image.message}; not shown]` };
  return { text: imageLine(image), image };
}

/** One block as the model reads it; `alias`, the server's, lets a resource link say how to read it. */
export function describeBlock(block: ContentBlock, alias?: string): Part {
  switch (block.type) {
    case "text":
      return { text: block.text };
    case "image":
      return imagePart(block.data, block.mimeType);
    case "audio":
      return { text: `[audio ${shownType(block.mimeType)}, ${sizeOfBase64(block.data)}; not shown: the model takes no audio]` };
    case "resource_link":
      return { text: resourceLinkLine(block, alias) };
    case "resource": {
      const { uri, mimeType, text, blob } = block.resource;
      const heading = `[resource ${uri}${mimeType ? ` (${shownType(mimeType)})` : ""}`;
      if (text !== undefined) return { text: `${heading}]\n${text}` };
      if (blob !== undefined && mimeType?.toLowerCase().startsWith("image/")) {
        const image = imagePart(blob, mimeType);
        return { ...image, text: `${heading}]\n${image.text}` };
      }
      return { text: `${heading}, ${sizeOfBase64(blob ?? "")} of binary data; not shown as text]` };
    }
    default: {
      const unknown: never = block;
      throw new Error(`unknown content block ${JSON.stringify(unknown)}`);
    }
  }
}

/** Where a result comes from: the server's alias, and the tool as the server lists it (its outputSchema). */
export interface ResultOrigin {
  readonly alias: string;
  readonly tool?: DeclaredOutput;
}

/**
 * "Servers MUST provide structured results that conform to this schema": a tool with an outputSchema whose
 * result has no structured content fails the check too. A failed result (`isError`) is not checked.
 */
function checkOutput(outcome: Extract<CallToolOutcome, { kind: "complete" }>, tool: DeclaredOutput | undefined): Promise<OutputCheck> | OutputCheck {
  if (tool?.outputSchema === undefined || outcome.isError) return { kind: "valid" };
  if (outcome.structuredContent === undefined) return { kind: "invalid", errors: ["the result has no structuredContent"] };
  return checkStructuredContent(tool, outcome.structuredContent);
}

/**
 * The finished result: one text with a line where each image stood, and the images that passed their
 * checks; structured content is shown only when no block carries text. A result whose structured content
 * does not match the tool's outputSchema is a failed result naming where and why.
 */
export async function completeResult(outcome: Extract<CallToolOutcome, { kind: "complete" }>, origin?: ResultOrigin): Promise<ToolResult> {
  const check = await checkOutput(outcome, origin?.tool);
  if (check.kind === "invalid") return { text: `structured result does not match the tool's outputSchema: ${check.errors.join("; ")}`, isError: true };
  const parts = outcome.content.map((block) => describeBlock(block, origin?.alias));
  const hasText = outcome.content.some((block) => block.type === "text");
  const texts = parts.map((part) => part.text);
  if (!hasText && outcome.structuredContent !== undefined) texts.push(JSON.stringify(outcome.structuredContent));
  if (check.kind === "unchecked") texts.push(`[the tool's outputSchema cannot be used, so its structured result was not checked: ${check.reason}]`);
  const text = texts.length === 0 ? "(the tool returned no content)" : texts.join("\n");
  const images = parts.flatMap((part) => (part.image === undefined ? [] : [part.image]));
  return images.length === 0 ? { text, isError: outcome.isError } : { text, isError: outcome.isError, images };
}

function describeInputRequest(key: string, request: unknown): string {
  if (typeof request !== "object" || request === null) return `- ${key}: (unreadable request)`;
  const method = "method" in request && typeof request.method === "string" ? request.method : "unknown method";
  const params = "params" in request && typeof request.params === "object" && request.params !== null ? request.params : {};
  const message = "message" in params && typeof params.message === "string" ? `: ${params.message}` : "";
  return `- ${key}: ${method}${message}`;
}

/** An `input_required` result is never finished work: the model is told what the server still needs. */
export function inputRequiredText(alias: string, tool: string, outcome: Extract<CallToolOutcome, { kind: "input_required" }>): string {
  const requests = Object.entries(outcome.inputRequests).map(([key, request]) => describeInputRequest(key, request));
  return [
    `The call did not finish: MCP server "${alias}" needs more input before "${tool}" can complete, and it was not provided.`,
    ...(requests.length > 0 ? ["It asked for:", ...requests] : ["It asked to be called again later."]),
  ].join("\n");
}
