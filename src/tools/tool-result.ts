// The two shapes a local tool's result takes: errors are values the model can read, never throws.
import type { ToolResult } from "../kernel/index.js";

export function okResult(text: string): ToolResult {
  return { text, isError: false };
}

export function errorResult(text: string): ToolResult {
  return { text, isError: true };
}
