// `x-mcp-header` (spec §5.3): a tool's input schema may ask for some arguments to travel also as
// `Mcp-Param-<Name>` headers. Reading the annotations validates them; a tool with a bad one is dropped.
import type { JsonSchema, ToolArgs } from "../kernel/index.js";
import type { ParamHeader } from "./transport.js";

export type ParamHeaderSpec = {
  readonly header: string;
  readonly path: readonly string[];
  readonly type: "string" | "integer" | "boolean";
};

const ANNOTATION = "x-mcp-header";
/** RFC 9110 `token = 1*tchar`. */
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Keywords whose values are instance data, not schemas: an `x-mcp-header` key inside them annotates nothing. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);
/** Keywords whose values map arbitrary names to schemas, so the names themselves are never annotations. */
const SCHEMA_MAP_KEYWORDS = new Set(["$defs", "definitions", "patternProperties", "dependentSchemas"]);

type Found = { readonly at: string; readonly path: readonly string[] | null; readonly schema: Record<string, unknown> };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Collects every schema object that carries the annotation, with its JSON pointer and, when it is reached
 * from the root through `properties` keys only, its argument path (otherwise null).
 */
function collect(schema: unknown, at: string, path: readonly string[] | null, found: Found[]): void {
  if (Array.isArray(schema)) {
    schema.forEach((item, index) => collect(item, `${at}/${index}`, null, found));
    return;
  }
  if (!isRecord(schema)) return;
  if (ANNOTATION in schema) found.push({ at, path, schema });
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === ANNOTATION || DATA_KEYWORDS.has(keyword)) continue;
    const here = `${at}/${keyword}`;
    if ((keyword === "properties" || SCHEMA_MAP_KEYWORDS.has(keyword)) && isRecord(value)) {
      for (const [name, child] of Object.entries(value)) {
        const childPath = keyword === "properties" && path !== null ? [...path, name] : null;
        collect(child, `${here}/${name}`, childPath, found);
      }
    } else {
      collect(value, here, null, found);
    }
  }
}

function readOne(entry: Found): ParamHeaderSpec | Error {
  const header = entry.schema[ANNOTATION];
  const shown = typeof header === "string" ? JSON.stringify(header) : String(header);
  if (entry.path === null || entry.path.length === 0) {
    return new Error(`x-mcp-header ${shown} at ${entry.at || "/"} is not reachable from the root through properties only`);
  }
  const where = `property ${JSON.stringify(entry.path.join("."))}`;
  if (typeof header !== "string") return new Error(`${where}: x-mcp-header is not a string`);
  if (header === "") return new Error(`${where}: x-mcp-header is empty`);
  if (!HTTP_TOKEN.test(header)) return new Error(`${where}: x-mcp-header ${shown} is not a valid header token`);
  const type = entry.schema["type"];
  if (type !== "string" && type !== "integer" && type !== "boolean") {
    const typeText = type === undefined ? "no type" : `type ${JSON.stringify(type)}`;
    return new Error(`${where}: x-mcp-header ${shown} is on a property of ${typeText} (only string, integer or boolean)`);
  }
  return { header, path: entry.path, type };
}

/** An Error whose message names the reason, e.g. `property "region": x-mcp-header "My Region" is not a valid header token`. */
export function readParamHeaderSpecs(inputSchema: JsonSchema): readonly ParamHeaderSpec[] | Error {
  const found: Found[] = [];
  collect(inputSchema, "", [], found);
  const specs: ParamHeaderSpec[] = [];
  const seen = new Map<string, ParamHeaderSpec>();
  for (const entry of found) {
    const spec = readOne(entry);
    if (spec instanceof Error) return spec;
    const earlier = seen.get(spec.header.toLowerCase());
    if (earlier !== undefined) {
      return new Error(
        `property ${JSON.stringify(spec.path.join("."))}: x-mcp-header ${JSON.stringify(spec.header)} ` +
          `duplicates ${JSON.stringify(earlier.header)} of property ${JSON.stringify(earlier.path.join("."))}`,
      );
    }
    seen.set(spec.header.toLowerCase(), spec);
    specs.push(spec);
  }
  return specs;
}

function valueAt(args: ToolArgs, path: readonly string[]): unknown {
  let value: unknown = args;
  for (const key of path) {
    if (!isRecord(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

/**
 * Stringified values for the present, non-null annotated arguments (integers as decimals, booleans
 * true/false). A value the schema does not allow (an object, a fraction or an unsafe integer where an
 * integer is due) is left out: the server then rejects the call with -32020 and says why.
 */
export function paramHeaderValues(specs: readonly ParamHeaderSpec[], args: ToolArgs): ParamHeader[] {
  const headers: ParamHeader[] = [];
  for (const spec of specs) {
    const value = valueAt(args, spec.path);
    if (typeof value === "string" || typeof value === "boolean") {
      headers.push({ name: spec.header, value: String(value) });
    } else if (typeof value === "number" && Number.isSafeInteger(value)) {
      headers.push({ name: spec.header, value: String(value) });
    }
  }
  return headers;
}
