// Typed readers over JSON nodes, used to validate the config once at the boundary: each returns a typed
// value or throws a ConfigError naming the exact path, line and column.
import { ConfigError, formatPath } from "./config-error.js";
import { expandVariables, type Env } from "./expand-variables.js";
import type { JsonNode, PathSegment } from "./json-reader.js";
import { positionAt } from "./json-tokenizer.js";

export type JsonObjectNode = Extract<JsonNode, { kind: "object" }>;
export type Path = readonly PathSegment[];

export interface ReadContext {
  readonly file: string;
  readonly text: string;
  readonly env: Env;
}

export function fail(context: ReadContext, path: Path, offset: number, detail: string): never {
  throw new ConfigError(context.file, formatPath(path), detail, positionAt(context.text, offset));
}

const KIND_NAMES: Readonly<Record<JsonNode["kind"], string>> = {
  object: "an object",
  array: "an array",
  string: "a string",
  number: "a number",
  boolean: "a boolean",
  null: "null",
};

function mismatch(node: JsonNode, path: Path, context: ReadContext, wanted: string): never {
  return fail(context, path, node.offset, `must be ${wanted}, not ${KIND_NAMES[node.kind]}`);
}

export function readObject(node: JsonNode, path: Path, context: ReadContext): JsonObjectNode {
  return node.kind === "object" ? node : mismatch(node, path, context, "an object");
}

/** Catches typos: the first key (in the text's order) that is not in `allowed` is an error. */
export function rejectUnknownFields(
  object: JsonObjectNode,
  path: Path,
  allowed: readonly string[],
  context: ReadContext,
): void {
  for (const [key, member] of object.members) {
    if (allowed.includes(key)) continue;
    fail(context, [...path, key], member.keyOffset, `unknown field (expected one of: ${allowed.join(", ")})`);
  }
}

export function optionalField(object: JsonObjectNode, key: string): JsonNode | undefined {
  return object.members.get(key)?.value;
}

export function requiredField(object: JsonObjectNode, key: string, path: Path, context: ReadContext): JsonNode {
  return optionalField(object, key) ?? fail(context, [...path, key], object.offset, "is required");
}

export function readString(node: JsonNode, path: Path, context: ReadContext): string {
  return node.kind === "string" ? node.value : mismatch(node, path, context, "a string");
}

/** A string with `${VAR}` and `${VAR:-default}` expanded from the context's environment. */
export function readExpandedString(node: JsonNode, path: Path, context: ReadContext): string {
  const expansion = expandVariables(readString(node, path, context), context.env);
  return expansion.ok ? expansion.value : fail(context, path, node.offset, expansion.reason);
}

export function readNonEmptyExpandedString(node: JsonNode, path: Path, context: ReadContext): string {
  const value = readExpandedString(node, path, context);
  return value === "" ? fail(context, path, node.offset, "must not be empty") : value;
}

export function readExpandedStringArray(node: JsonNode, path: Path, context: ReadContext): string[] {
  if (node.kind !== "array") return mismatch(node, path, context, "an array of strings");
  return node.items.map((item, index) => readExpandedString(item, [...path, index], context));
}

/** An object of strings with the values expanded; `check` may reject a key or a value with a reason. */
export function readExpandedStringMap(
  node: JsonNode,
  path: Path,
  context: ReadContext,
  check: (key: string, value: string) => string | undefined = () => undefined,
): Record<string, string> {
  const object = node.kind === "object" ? node : mismatch(node, path, context, "an object of strings");
  const entries = [...object.members].map(([key, member]): [string, string] => {
    const value = readExpandedString(member.value, [...path, key], context);
    const problem = check(key, value);
    return problem === undefined ? [key, value] : fail(context, [...path, key], member.keyOffset, problem);
  });
  // fromEntries defines own properties, so a key such as "__proto__" stays an ordinary key.
  return Object.fromEntries(entries);
}

export function readPositiveInteger(node: JsonNode, path: Path, context: ReadContext, unit: string): number {
  if (node.kind === "number" && Number.isSafeInteger(node.value) && node.value > 0) return node.value;
  return fail(context, path, node.offset, `must be a positive integer (${unit})`);
}

export function readBoolean(node: JsonNode, path: Path, context: ReadContext): boolean {
  return node.kind === "boolean" ? node.value : mismatch(node, path, context, "true or false");
}
