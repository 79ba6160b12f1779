// The `_meta` the raw clients put on every request, built once: the SDK server insists on it, and mca and
// the SDK build theirs per request, so the raw clients show what the protocol costs without that work.
import { PROTOCOL_VERSION } from "../servers/answers.js";

export const RAW_META = {
  "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1.0.0" },
} as const;

export function requestLine(id: number, method: string, params: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: RAW_META } });
}

/** The `result` of a parsed response, or the error it carries as an Error. */
export function resultOf(message: unknown): Record<string, unknown> | Error {
  if (typeof message !== "object" || message === null) return new Error("a response is not an object");
  if ("error" in message) return new Error(`the server answered an error: ${JSON.stringify(message.error)}`);
  if (!("result" in message) || typeof message.result !== "object" || message.result === null) return new Error("a response has no result");
  return { ...message.result };
}

/** Follows `nextCursor` to the end with `request` doing one round trip. */
export async function countAllTools(request: (params: Record<string, unknown>) => Promise<Record<string, unknown>>): Promise<number> {
  let count = 0;
  let cursor: unknown;
  do {
    const page = await request(cursor === undefined ? {} : { cursor });
    if (!Array.isArray(page.tools)) throw new Error("a tools/list page has no tools array");
    count += page.tools.length;
    cursor = page.nextCursor;
  } while (typeof cursor === "string");
  return count;
}
