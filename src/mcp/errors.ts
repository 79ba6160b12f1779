// Every failure the MCP client reports is an McpError whose kind says what broke, so callers can
// decide (retry a list, mark a server disconnected, show the server's code) without parsing messages.

export type McpErrorKind =
  /** The server answered with a JSON-RPC error: `code` and `data` are the server's. */
  | "server"
  /** No answer within the request's timeout. */
  | "timeout"
  /** The connection is gone (child exited, client closed, framer cap hit); nothing more will arrive. */
  | "closed"
  /** One exchange broke before its response arrived (an event stream cut short); the connection may live. */
  | "broken"
  /** The server could not be reached or started at all (ENOENT, ECONNREFUSED, DNS). */
  | "unreachable"
  /** The server sent something the protocol does not allow (wrong content type, unknown resultType…). */
  | "protocol"
  /** The caller aborted. */
  | "aborted";

export class McpError extends Error {
  constructor(
    readonly kind: McpErrorKind,
    message: string,
    readonly code?: number,
    readonly data?: unknown,
    /** The HTTP status of the reply that failed, when there was one: 401/403 say "auth", never "legacy". */
    readonly httpStatus?: number,
  ) {
    super(message);
    this.name = "McpError";
  }
}
