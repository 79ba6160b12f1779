// What the next model request will carry, in tokens, section by section (`/context`, `mca context`).
import type { ToolSpec } from "../kernel/index.js";

/** About four characters a token, the estimate used wherever the API's own count is not at hand. */
export const CHARS_PER_TOKEN = 4;

export function estimateTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Tool definitions as the model gets them (name, description, input schema), estimated; none cost nothing. */
export function definitionTokens(tools: readonly ToolSpec[]): number {
  if (tools.length === 0) return 0;
  return estimateTokens(JSON.stringify(tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))).length);
}
