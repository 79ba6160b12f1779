// A server's tool list: every page followed to its end (of a cursor "only present vs absent matters — an
// empty string is a valid cursor"), each cursor passed back untouched, and each tool kept verbatim as the
// revision defines a tool (only its icons checked: those a host could not load safely are left out):
// schemas are never rewritten or dereferenced, because the model and the
// conformance suite must see exactly what the server sent. What one server may offer is capped, and a
// listing far past the cap is not read to its end, so a server listing 300,000 tools costs what the cap allows.
import type { JsonSchema } from "../kernel/index.js";
import { readResultType } from "./call-result.js";
import { sanitizeIcons, type Icon } from "./icons.js";
import { isJsonObject, McpError, type JsonObject } from "./jsonrpc.js";

export const MAX_LIST_PAGES = 10_000;
/** The most tools one server offers the model unless the user's settings raise it (`MAX_TOOLS_SETTING`). */
export const MAX_TOOLS_PER_SERVER = 1000;
/** Where the user raises the cap, as warnings name it. */
export const MAX_TOOLS_SETTING = '"mcp": { "maxToolsPerServer": <n> } in your settings.json';
/** A listing is read to this many times the cap at most: past it, no page is fetched and no item held. */
export const LISTING_READ_FACTOR = 10;
/** Dropped tools are named one by one up to this many; the rest are counted in one more warning. */
const MAX_DROP_WARNINGS = 10;

/**
 * The tools a server's config entry lets mca offer: only those `include` names when it is given (`"*"` there
 * stands for every tool), and never one `exclude` names. A limit the user wrote is never widened.
 */
export interface ToolLimit {
  readonly include?: readonly string[];
  readonly exclude: readonly string[];
}

/** Whether a tool of this name may be offered under `limit` (none: every tool); `exclude` wins over `include`, as in Gemini CLI and Codex. */
export function isToolOffered(limit: ToolLimit | undefined, name: string): boolean {
  if (limit === undefined) return true;
  if (limit.exclude.includes(name)) return false;
  return limit.include === undefined || limit.include.includes("*") || limit.include.includes(name);
}

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
  /** The icons safe to pass on (icons.ts): for scripts, never drawn in the terminal; not part of the definition's hash. */
  readonly icons?: readonly Icon[];
}

/** A tool's display name: its `title`, else the older `annotations.title`; undefined when it has neither (or an empty one). */
export function toolTitle(info: { readonly title?: string; readonly annotations?: Readonly<Record<string, unknown>> }): string | undefined {
  const title = info.title ?? info.annotations?.title;
  return typeof title === "string" && title.trim() !== "" ? title : undefined;
}

function requiresTasks(execution: unknown): boolean {
  return isJsonObject(execution) && execution.taskSupport === "required";
}

function parseRemoteTool(value: unknown): RemoteToolInfo | Error {
  if (!isJsonObject(value)) return new Error("a tool is not an object");
  const { name, title, description, inputSchema, outputSchema, annotations, _meta, execution, icons } = value;
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
  // Icons that cannot be passed on safely are left out, not the tool: a picture never decides what a tool does.
  const safeIcons = sanitizeIcons(icons);
  return {
    name,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    ...(annotations === undefined ? {} : { annotations }),
    ...(_meta === undefined ? {} : { _meta }),
    ...(requiresTasks(execution) ? { taskSupport: "required" } : {}),
    ...(safeIcons === undefined ? {} : { icons: safeIcons }),
  };
}

/**
 * What of a server's listing is mounted: at most `maxTools` tools (MAX_TOOLS_PER_SERVER when absent), of
 * those its config's `limit` offers. An excluded tool is left out as it is read and never counts toward the
 * cap: a user who excludes tools to fit under it gets the ones after them.
 */
export interface ListingCap {
  readonly maxTools?: number | undefined;
  readonly limit?: ToolLimit | undefined;
}

/**
 * The tools of a whole listing, the first `maxTools` valid ones in the server's order that its limit offers;
 * a malformed tool, or a second tool of the same name, is dropped with a warning. Past the cap the rest is
 * refused with one warning.
 */
export function readToolList(
  items: readonly unknown[],
  warn: (message: string) => void,
  options: ListingCap & { readonly cut?: boolean } = {},
): RemoteToolInfo[] {
  const maxTools = options.maxTools ?? MAX_TOOLS_PER_SERVER;
  const tools: RemoteToolInfo[] = [];
  const names = new Set<string>();
  let dropped = 0;
  const drop = (message: string): void => {
    dropped += 1;
    if (dropped <= MAX_DROP_WARNINGS) warn(message);
  };
  let index = 0;
  for (; index < items.length && tools.length < maxTools; index += 1) {
    const tool = parseRemoteTool(items[index]);
    if (tool instanceof Error) {
      drop(`dropping a tool from tools/list: ${tool.message}`);
    } else if (names.has(tool.name)) {
      drop(`dropping a second tool named ${JSON.stringify(tool.name)}: tool names must be unique per server`);
    } else {
      names.add(tool.name);
      if (isToolOffered(options.limit, tool.name)) tools.push(tool);
    }
  }
  if (dropped > MAX_DROP_WARNINGS) warn(`dropping ${dropped - MAX_DROP_WARNINGS} more tools from tools/list (malformed or named twice)`);
  if (index < items.length || options.cut === true) warn(capWarning(items.length, tools.length, maxTools, options.cut === true));
  return tools;
}

function capWarning(listed: number, mounted: number, maxTools: number, cut: boolean): string {
  const count = cut ? `more than ${listed} tools (the listing was read no further)` : `${listed} tools`;
  return `lists ${count}: ${mounted} are mounted and the rest are not, since one server offers at most ` +
    `${maxTools} (raise it with ${MAX_TOOLS_SETTING})`;
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

export interface CollectedItems {
  readonly items: unknown[];
  /** The listing went on past `maxItems`, and was not read further. */
  readonly cut: boolean;
}

/**
 * Every item of every page, in order, up to `maxItems`: a listing that goes on past it is not read to its
 * end. A server that repeats a cursor is refused instead of followed forever.
 */
export async function collectPages(input: ListPagesInput & { readonly maxItems?: number }): Promise<CollectedItems> {
  const { server, method, itemsKey } = input;
  const maxItems = input.maxItems ?? Number.POSITIVE_INFINITY;
  const fail = (page: number, what: string): McpError => new McpError("protocol", `${method} page ${page}: ${what}`, { server });
  const items: unknown[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; page <= MAX_LIST_PAGES; page += 1) {
    const result = await input.fetchPage(cursor);
    const resultType = readResultType(result);
    if (resultType instanceof Error) throw fail(page, resultType.message);
    if (resultType !== "complete") throw fail(page, `a list cannot be ${resultType}`);
    const pageItems: unknown = result[itemsKey];
    if (!Array.isArray(pageItems)) throw fail(page, `\`${itemsKey}\` is not an array`);
    // One at a time: spreading a page of 200,000 items into push() overflows the stack.
    const room = Math.min(pageItems.length, maxItems - items.length);
    for (let index = 0; index < room; index += 1) items.push(pageItems[index]);
    if (room < pageItems.length) return { items, cut: true };
    const next = result.nextCursor;
    // null is not in the schema, but servers that serialise absent fields as null mean "no more".
    if (next === undefined || next === null) return { items, cut: false };
    if (typeof next !== "string") throw fail(page, "`nextCursor` is not a string");
    if (seenCursors.has(next)) throw fail(page, `the cursor ${JSON.stringify(next)} was already used; the list would never end`);
    if (items.length >= maxItems) return { items, cut: true };
    seenCursors.add(next);
    cursor = next;
  }
  throw new McpError("protocol", `${method} has more than ${MAX_LIST_PAGES} pages`, { server });
}

/** A server's whole tool list as mounted: read to `LISTING_READ_FACTOR` times the cap, then capped. */
export async function listServerTools(input: ListingCap & {
  readonly server: string;
  readonly fetchPage: (cursor: string | undefined) => Promise<JsonObject>;
  readonly warn: (message: string) => void;
}): Promise<RemoteToolInfo[]> {
  const maxTools = input.maxTools ?? MAX_TOOLS_PER_SERVER;
  const { items, cut } = await collectPages({
    server: input.server,
    method: "tools/list",
    itemsKey: "tools",
    fetchPage: input.fetchPage,
    maxItems: maxTools * LISTING_READ_FACTOR,
  });
  return readToolList(items, input.warn, { maxTools, cut, limit: input.limit });
}
