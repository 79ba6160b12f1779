// Arguments of `/call <tool> <json>` and `mca call <tool> [json]`, validated into a tool name and an
// arguments object with errors that say what is wrong.
import type { ToolArgs } from "../kernel/index.js";

export interface CallLine {
  readonly tool: string;
  readonly args: ToolArgs;
}

/** `read_file {"path": "a b.txt"}`: the tool name, then everything after it is JSON (spaces allowed). */
export function parseCallLine(text: string): CallLine | Error {
  const trimmed = text.trim();
  if (trimmed === "") return new Error("usage: /call <tool> <json>");
  const match = /^(\S+)\s*([\s\S]*)$/.exec(trimmed);
  const tool = match?.[1];
  if (tool === undefined) return new Error("usage: /call <tool> <json>");
  const args = parseCallArgs(tool, match?.[2]);
  return args instanceof Error ? args : { tool, args };
}

/** No text means `{}`; anything else must be a JSON object. */
export function parseCallArgs(tool: string, json: string | undefined): ToolArgs | Error {
  if (json === undefined || json.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return new Error(`invalid JSON arguments for ${tool}: ${reason}`);
  }
  if (!isArgsObject(value)) {
    return new Error(`arguments for ${tool} must be a JSON object, got ${describeJson(value)}`);
  }
  return value;
}

function isArgsObject(value: unknown): value is ToolArgs {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describeJson(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
