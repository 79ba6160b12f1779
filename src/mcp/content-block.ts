// The content blocks of a tool result (spec §4 "tools/call"), validated once as they arrive: required
// fields are checked, optional fields of the wrong type are left out, an unknown block type is an error.
import { isJsonObject, type JsonObject } from "./jsonrpc.js";

type Common = { readonly annotations?: JsonObject; readonly _meta?: JsonObject };

export type TextContent = Common & { readonly type: "text"; readonly text: string };
export type ImageContent = Common & { readonly type: "image"; readonly data: string; readonly mimeType: string };
export type AudioContent = Common & { readonly type: "audio"; readonly data: string; readonly mimeType: string };
export type ResourceLinkContent = Common & {
  readonly type: "resource_link";
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
};
export type EmbeddedResource = {
  readonly uri: string;
  readonly mimeType?: string;
  readonly text?: string;
  /** Base64. */
  readonly blob?: string;
};
export type EmbeddedResourceContent = Common & { readonly type: "resource"; readonly resource: EmbeddedResource };

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

function parseBlock(block: unknown): ContentBlock | Error {
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

export function parseContentBlocks(value: unknown): ContentBlock[] | Error {
  if (!Array.isArray(value)) return new Error("`content` is not an array");
  const blocks: ContentBlock[] = [];
  for (const [index, item] of value.entries()) {
    const block = parseBlock(item);
    if (block instanceof Error) return new Error(`content[${index}]: ${block.message}`);
    blocks.push(block);
  }
  return blocks;
}
