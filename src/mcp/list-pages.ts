// Follows a paginated list to its end (spec §4: "only present vs absent matters — an empty string is a
// valid cursor"), passing each cursor back untouched, and refusing to loop when a server does.
import { readResultType } from "./call-outcome.js";
import { McpError } from "./errors.js";
import type { JsonObject } from "./jsonrpc.js";

export const MAX_LIST_PAGES = 10_000;

export interface ListPagesInput {
  readonly label: string;
  /** e.g. "tools/list"; names the list in errors. */
  readonly method: string;
  /** The array each page carries, e.g. "tools". */
  readonly itemsKey: string;
  readonly fetchPage: (cursor: string | undefined) => Promise<JsonObject>;
}

/** Every item of every page, in order. */
export async function collectPages(input: ListPagesInput): Promise<unknown[]> {
  const { label, method, itemsKey } = input;
  const fail = (page: number, what: string): McpError => new McpError("protocol", `${label}: ${method} page ${page}: ${what}`);
  const items: unknown[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; page <= MAX_LIST_PAGES; page += 1) {
    const result = await input.fetchPage(cursor);
    const resultType = readResultType(result);
    if (resultType instanceof Error) throw fail(page, resultType.message);
    if (resultType !== "complete") throw fail(page, `a list cannot be ${resultType}`);
    const pageItems = result[itemsKey];
    if (!Array.isArray(pageItems)) throw fail(page, `\`${itemsKey}\` is not an array`);
    items.push(...pageItems);
    const next = result.nextCursor;
    // null is not in the schema, but servers that serialise absent fields as null mean "no more".
    if (next === undefined || next === null) return items;
    if (typeof next !== "string") throw fail(page, "`nextCursor` is not a string");
    if (seenCursors.has(next)) throw fail(page, `the cursor ${JSON.stringify(next)} was already used; the list would never end`);
    seenCursors.add(next);
    cursor = next;
  }
  throw new McpError("protocol", `${label}: ${method} has more than ${MAX_LIST_PAGES} pages`);
}
