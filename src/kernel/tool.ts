// The one tool shape of the agent: local tools and mounted MCP tools are both plain objects of this type,
// so truncation, the approval gate, loop detection and snapshots treat them alike.

/** How a tool may affect the world; it picks the gate's default. "remote" tools always default to ask. */
export type ToolKind = "read" | "write" | "exec" | "remote";

/** A JSON Schema object describing a tool's arguments, kept verbatim (never rewritten or dereferenced). */
export type JsonSchema = { readonly [key: string]: unknown };

export type ToolArgs = Record<string, unknown>;

export interface ToolResult {
  /** Everything the model will read; the kernel truncates it, the tool never does. */
  readonly text: string;
  readonly isError: boolean;
}

export interface ToolContext {
  /** Aborted when the user presses Ctrl-C once; a tool stops its work and settles promptly. */
  readonly signal: AbortSignal;
  /** Progress for the user's eyes (a spinner line); never reaches the model. */
  readonly onProgress?: (message: string) => void;
}

export interface Tool {
  /** The name the model sees (for remote tools, the flat `mcp__alias__tool`). */
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly kind: ToolKind;
  /** "local", or the alias of the MCP server the tool comes from. */
  readonly source: string;
  /** The name the tool has at its source (the server's own name for a remote tool). */
  readonly originalName: string;
  /** A remote tool's self-declared annotations: shown to the user, never trusted by the gate. */
  readonly annotations?: Readonly<Record<string, unknown>>;
  /** Files (absolute paths) this call would change; the kernel snapshots them before `run`. */
  readonly changes?: (args: ToolArgs) => readonly string[];
  /** Errors the model can fix come back as `isError: true`; a throw is caught by the kernel and becomes one. */
  run(args: ToolArgs, context: ToolContext): Promise<ToolResult>;
}
