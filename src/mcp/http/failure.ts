// The failures of an exchange over HTTP that say more than an McpError does: the status of a refused reply
// and the challenge it carried (what the login reads), a legacy session the server no longer knows, and a
// login nobody could give here. The layers above only ask `instanceof`; nothing HTTP sits on McpError.
import { McpError, type McpErrorDetails, type McpErrorKind } from "../jsonrpc.js";

export interface HttpFailureDetails extends McpErrorDetails {
  /** The HTTP status of the reply that failed: 401/403 say "auth", never "legacy". */
  readonly status: number;
  /** The `WWW-Authenticate` of a 401 or 403 reply: what the server asks for to let the request in. */
  readonly wwwAuthenticate?: string;
  /**
   * 2025-11-25 Streamable HTTP: the request carried an `Mcp-Session-Id` and the server answered 404, so the
   * session is gone; the client "MUST start a new session by sending a new InitializeRequest".
   */
  readonly sessionExpired?: boolean;
}

export class HttpFailure extends McpError {
  readonly status: number;
  readonly wwwAuthenticate: string | undefined;
  readonly sessionExpired: boolean;

  constructor(kind: McpErrorKind, message: string, details: HttpFailureDetails) {
    super(kind, message, details);
    this.status = details.status;
    this.wwwAuthenticate = details.wwwAuthenticate;
    this.sessionExpired = details.sessionExpired === true;
  }
}

/** The server asks for a login nobody could give here (no stored token, no terminal): `mca mcp login` fixes it. */
export class LoginNeeded extends McpError {
  constructor(message: string, server: string) {
    super("protocol", message, { server });
  }
}

/** Whether `error` says the legacy session its request carried is gone. */
export function isLostSession(error: unknown): error is HttpFailure {
  return error instanceof HttpFailure && error.sessionExpired;
}

/** The failure of a send stopped by its signal: the signal's reason when it is an McpError, or one naming the message. */
export function abortFailure(server: string, subject: string, reason: unknown): McpError {
  return reason instanceof McpError ? reason : new McpError("aborted", `${subject} was stopped`, { server });
}

/** The HTTP status of the reply `error` failed on, if it failed on one. */
export function httpStatusOf(error: McpError): number | undefined {
  return error instanceof HttpFailure ? error.status : undefined;
}
