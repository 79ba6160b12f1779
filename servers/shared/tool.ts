// What a demo-server tool is: a plain object with its definition (as `tools/list` shows it) and a
// synchronous call that returns an outcome value; both servers keep their tools in tables of these.
import type { RequestMeta } from "./request-meta.js";
import type { RpcError } from "./rpc-error.js";
import type { JsonObject } from "../../src/mcp/index.js";

export type ToolDefinition = {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
  readonly annotations?: JsonObject;
};

export type ToolCall = {
  readonly arguments: JsonObject;
  readonly meta: RequestMeta;
  /** MRTR retry fields (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr), passed through untouched. */
  readonly inputResponses?: JsonObject;
  readonly requestState?: string;
};

export type TextBlock = { readonly type: "text"; readonly text: string };

export type ToolOutcome =
  | { readonly kind: "complete"; readonly content: readonly TextBlock[]; readonly isError?: boolean; readonly structuredContent?: JsonObject }
  | { readonly kind: "input_required"; readonly inputRequests: JsonObject; readonly requestState: string }
  /** A protocol-level refusal, e.g. -32021 when a needed client capability was not declared. */
  | { readonly kind: "error"; readonly error: RpcError };

export type ToolEntry = {
  readonly definition: ToolDefinition;
  /**
   * Answers as an event stream: a `notifications/progress` before the result when the request carried a
   * progressToken, a `notifications/message` after it when it carried a logLevel.
   */
  readonly streamed?: boolean;
  call(call: ToolCall): ToolOutcome;
};

/** A schema for a tool that takes no arguments (the shape the spec recommends). */
export const NO_ARGUMENTS: JsonObject = { type: "object", additionalProperties: false };

export function textOutcome(text: string, structuredContent?: JsonObject): ToolOutcome {
  return { kind: "complete", content: [{ type: "text", text }], ...(structuredContent ? { structuredContent } : {}) };
}

/** A failure the model can read and fix: a result with `isError: true`, not a protocol error. */
export function toolError(text: string): ToolOutcome {
  return { kind: "complete", content: [{ type: "text", text }], isError: true };
}

/** A required, non-empty string argument, or the tool error that names it. */
export function stringArgument(args: JsonObject, key: string): string | ToolOutcome {
  const value = args[key];
  if (typeof value === "string" && value.trim() !== "") return value;
  return toolError(`The argument "${key}" is required and must be a non-empty string.`);
}
