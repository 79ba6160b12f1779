// Short one-line forms of tool arguments and results, shared by the plain and the terminal renderer.
import type { ToolArgs } from "../kernel/index.js";

export const ARGS_PREVIEW_CHARS = 200;
export const RESULT_PREVIEW_CHARS = 160;

export function previewArgs(args: ToolArgs, maxChars: number = ARGS_PREVIEW_CHARS): string {
  return clip(JSON.stringify(args), maxChars);
}

/** The first non-empty line of a result, clipped, with how many more lines there are. */
export function previewResult(text: string, maxChars: number = RESULT_PREVIEW_CHARS): string {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  const first = lines[0];
  if (first === undefined) return "(no output)";
  const more = lines.length > 1 ? ` (+${lines.length - 1} lines)` : "";
  return `${clip(first.trim(), maxChars)}${more}`;
}

function clip(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars - 1)}…`;
}
