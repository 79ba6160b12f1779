// Calls a local tool the way the kernel does: its arguments parsed once, then the typed run; an
// argument the tool refuses comes back as the error result with the tool's own message.
import type { Tool, ToolArgs, ToolContext, ToolResult } from "../../kernel/index.js";

export async function callTool<A>(tool: Tool<A>, args: ToolArgs, context: ToolContext): Promise<ToolResult> {
  if (tool.parse === undefined) throw new Error(`${tool.name} has no parse: local tools check their own arguments`);
  const parsed = tool.parse(args);
  if (parsed instanceof Error) return { text: parsed.message, isError: true };
  return tool.run(parsed, context);
}
