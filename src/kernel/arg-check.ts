// Tool arguments checked against the tool's inputSchema before the call, so that a malformed call comes
// back to the model as an error it can fix. Deliberately shallow: the argument must be an object, the
// `required` keys must be present, and each top-level property with a primitive `type` (or a list of
// them) must have that type. Nested schemas, `$ref`, composition keywords, formats, enums and
// `additionalProperties` are left to the tool itself.
import type { JsonSchema } from "./tool.js";

/** null when the arguments pass; otherwise every problem found, in one sentence the model can act on. */
export function checkArgs(schema: JsonSchema, args: unknown): string | null {
  if (!isPlainObject(args)) return `arguments must be a JSON object, got ${typeName(args)}`;
  const problems: string[] = [];
  const required = schema.required;
  if (Array.isArray(required)) {
    for (const key of required) {
      if (typeof key === "string" && args[key] === undefined) problems.push(`missing required argument "${key}"`);
    }
  }
  const properties = schema.properties;
  if (isPlainObject(properties)) {
    for (const [key, property] of Object.entries(properties)) {
      const value = args[key];
      if (value === undefined || !isPlainObject(property)) continue;
      const expected = expectedTypes(property.type);
      if (expected.length > 0 && !expected.some((type) => hasType(value, type))) {
        problems.push(`"${key}" must be ${expected.join(" or ")}, got ${typeName(value)}`);
      }
    }
  }
  return problems.length === 0 ? null : problems.join("; ");
}

const KNOWN_TYPES = ["string", "number", "integer", "boolean", "object", "array", "null"];

function expectedTypes(type: unknown): string[] {
  const listed = Array.isArray(type) ? type : [type];
  const known = listed.filter((entry): entry is string => typeof entry === "string" && KNOWN_TYPES.includes(entry));
  // An unknown type name anywhere in the list means we cannot judge: accept rather than reject wrongly.
  return known.length === listed.length ? known : [];
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "object":
      return isPlainObject(value);
    case "array":
      return Array.isArray(value);
    case "null":
      return value === null;
    default:
      return true;
  }
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isInteger(value)) return "integer";
  return typeof value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
