// `tools/list` pagination: a server-chosen page size and an opaque cursor (base64url of the offset of the
// next page). "Invalid cursor ⇒ -32602"; only this file knows what a cursor holds.
import { INVALID_PARAMS, rpcError, type RpcError } from "./rpc-error.js";
import type { ToolDefinition, ToolEntry } from "./tool.js";

const CURSOR_PREFIX = "tools@";

export type ToolsPage = { readonly tools: readonly ToolDefinition[]; readonly nextCursor?: string };

export function encodeCursor(offset: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${offset}`, "utf8").toString("base64url");
}

function decodeCursor(cursor: string, total: number): number | undefined {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const match = /^tools@([1-9][0-9]{0,5})$/.exec(text);
  if (match?.[1] === undefined || encodeCursor(Number(match[1])) !== cursor) return undefined;
  const offset = Number(match[1]);
  return offset < total ? offset : undefined;
}

export function toolsPage(entries: readonly ToolEntry[], cursor: unknown, pageSize: number): ToolsPage | RpcError {
  let offset = 0;
  if (cursor !== undefined) {
    const decoded = typeof cursor === "string" ? decodeCursor(cursor, entries.length) : undefined;
    if (decoded === undefined) return rpcError(INVALID_PARAMS, `Invalid params: unknown cursor ${JSON.stringify(cursor)}`);
    offset = decoded;
  }
  const end = offset + pageSize;
  const tools = entries.slice(offset, end).map((entry) => entry.definition);
  return end < entries.length ? { tools, nextCursor: encodeCursor(end) } : { tools };
}
