// A server's tool list: every page followed to its end (spec §4: "only present vs absent matters — an
// empty string is a valid cursor"), each cursor passed back untouched, and each tool kept verbatim (spec
// §4 "Tool definition"): schemas are never rewritten or dereferenced, because the model and the
// conformance suite must see exactly what the server sent.
import type { JsonSchema } from "../kernel/index.js";
import { readResultType } from "./call-result.js";
import { isJsonObject, McpError, type JsonObject } from "./jsonrpc.js";

export const MAX_LIST_PAGES = 10_000;

export interface RemoteToolInfo {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: JsonSchema;
  /** Any JSON Schema 2020-12, which may also be a boolean. */
  readonly outputSchema?: JsonSchema | boolean;
  /** The server's claims about its own tool: untrusted. */
  readonly annotations?: JsonObject;
  readonly _meta?: JsonObject;
  /**
   * `execution.taskSupport` (2025-11-25, now the tasks extension): "required" means the server runs the tool
   * only as a task, which mca does not do. Other values, or none, mean a plain call works.
   */
  readonly taskSupport?: "required";
}

function requiresTasks(execution: unknown): boolean {
  return isJsonObject(execution) && execution.taskSupport === "required";
}

function parseRemoteTool(value: unknown): RemoteToolInfo | Error {
  if (!isJsonObject(value)) return new Error("a tool is not an object");
  const { name, title, description, inputSchema, outputSchema, annotations, _meta, execution } = value;
  if (typeof name !== "string" || name === "") return new Error("a tool has no name");
  const invalid = (what: string): Error => new Error(`tool ${JSON.stringify(name)}: ${what}`);
  if (!isJsonObject(inputSchema)) return invalid("`inputSchema` is not an object");
  if (title !== undefined && typeof title !== "string") return invalid("`title` is not a string");
  if (description !== undefined && typeof description !== "string") return invalid("`description` is not a string");
  if (outputSchema !== undefined && !isJsonObject(outputSchema) && typeof outputSchema !== "boolean") {
    return invalid("`outputSchema` is not a schema");
  }
  if (annotations !== undefined && !isJsonObject(annotations)) return invalid("`annotations` is not an object");
  if (_meta !== undefined && !isJsonObject(_meta)) return invalid("`_meta` is not an object");
  return {
    name,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    ...(annotations === undefined ? {} : { annotations }),
    ...(_meta === undefined ? {} : { _meta }),
    ...(requiresTasks(execution) ? { taskSupport: "required" } : {}),
  };
}

/** The tools of a whole listing; a malformed tool, or a second tool of the same name, is dropped with a warning. */
export function readToolList(items: readonly unknown[], warn: (message: string) => void): RemoteToolInfo[] {
  const tools: RemoteToolInfo[] = [];
  const names = new Set<string>();
  for (const item of items) {
    const tool = parseRemoteTool(item);
    if (tool instanceof Error) {
      warn(`dropping a tool from tools/list: ${tool.message}`);
    } else if (names.has(tool.name)) {
      warn(`dropping a second tool named "${tool.name}": tool names must be unique per server`);
    } else {
      names.add(tool.name);
      tools.push(tool);
    }
  }
  return tools;
}

export interface ListPagesInput {
  /** The server's alias, for the errors. */
  readonly server: string;
  /** e.g. "tools/list"; names the list in errors. */
  readonly method: string;
  /** The array each page carries, e.g. "tools". */
  readonly itemsKey: string;
  readonly fetchPage: (cursor: string | undefined) => Promise<JsonObject>;
}

/** Every item of every page, in order; a server that repeats a cursor is refused instead of followed forever. */
export async function collectPages(input: ListPagesInput): Promise<unknown[]> {
  const { server, method, itemsKey } = input;
  const fail = (page: number, what: string): McpError => new McpError("protocol", `${method} page ${page}: ${what}`, { server });
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
  throw new McpError("protocol", `${method} has more than ${MAX_LIST_PAGES} pages`, { server });
}
