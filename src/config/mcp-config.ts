// The validated MCP server config: what mcp.config.json (or --mcp-config) says, typed, with `${VAR}`
// already expanded. One union member per transport.

export interface StdioServerConfig {
  readonly alias: string;
  readonly transport: "stdio";
  readonly command: string;
  readonly args: readonly string[];
  /** Only the variables the config adds; the transport decides what it inherits from its own environment. */
  readonly env: Readonly<Record<string, string>>;
  /** As written in the file (not expanded, not resolved against any directory). */
  readonly cwd?: string;
  /** The cap on one message from the server (one stdout line); the transport's default when absent. */
  readonly maxLineBytes?: number;
  readonly timeoutMs?: number;
  readonly enabled: boolean;
}

export interface HttpServerConfig {
  readonly alias: string;
  readonly transport: "http";
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  readonly enabled: boolean;
}

export type McpServerConfig = StdioServerConfig | HttpServerConfig;

export interface McpConfig {
  /** The file as the user named it, for messages. */
  readonly file: string;
  /** In the order the file lists them, disabled ones included (with `enabled: false`). */
  readonly servers: readonly McpServerConfig[];
}
