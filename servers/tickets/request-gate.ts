// The checks made before a body is read (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports#streamable-http): a foreign Origin or Host is refused
// with 403 (DNS rebinding), anything but POST to the endpoint with 405.
import { failure, INVALID_REQUEST, rpcError } from "../shared/rpc-error.js";
import type { Reply } from "./http-reply.js";

export const MCP_PATH = "/mcp";
const LOCAL_HOSTNAMES: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);

export type RequestLine = {
  readonly method: string;
  readonly path: string;
  readonly origin: string | undefined;
  readonly host: string | undefined;
};

function hostnameOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.hostname : undefined;
  } catch {
    return undefined;
  }
}

/** localhost, 127.0.0.1 or [::1], any port; `null` and other schemes are foreign. */
export function isLocalOrigin(origin: string): boolean {
  return LOCAL_HOSTNAMES.has(hostnameOf(origin.trim()) ?? "");
}

export function isLocalHost(host: string): boolean {
  return LOCAL_HOSTNAMES.has(hostnameOf(`http://${host.trim()}`) ?? "");
}

function refused(status: number, message: string, headers?: Readonly<Record<string, string>>): Reply {
  return { kind: "json", status, body: failure(null, rpcError(INVALID_REQUEST, message)), ...(headers ? { headers } : {}) };
}

/** The refusal for this request line, or undefined when the body may be read. */
export function gateRequest(line: RequestLine): Reply | undefined {
  if (line.origin !== undefined && !isLocalOrigin(line.origin)) {
    return refused(403, `Forbidden: Origin ${JSON.stringify(line.origin)} is not a localhost origin`);
  }
  if (line.host !== undefined && !isLocalHost(line.host)) {
    return refused(403, `Forbidden: Host ${JSON.stringify(line.host)} is not localhost`);
  }
  if (line.path !== MCP_PATH) return refused(404, `Not found: the MCP endpoint is ${MCP_PATH}`);
  if (line.method !== "POST") {
    return refused(405, `Method not allowed: ${line.method}; this 2026-07-28 endpoint takes POST only`, { Allow: "POST" });
  }
  return undefined;
}
