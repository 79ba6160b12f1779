// What a tools/call result means (spec §3 "resultType"): finished work, or a request for more input that
// must never be handed to the model as if it were finished.
import { parseContentBlocks, type ContentBlock } from "./content-block.js";
import { isJsonObject, type JsonObject } from "./jsonrpc.js";

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
