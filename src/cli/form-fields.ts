// A form elicitation's `requestedSchema` read into typed fields: "a flat object of primitive properties"
// (spec §3) — string, number/integer, boolean, and the enum variants (single choice as `enum`, `enum` +
// `enumNames` or `oneOf` of const/title; several choices as an array of `enum` or `anyOf` items).
import { isJsonObject, type JsonObject } from "../mcp/index.js";

export interface FieldOption {
  readonly value: string;
  readonly title: string;
}

interface FieldBase {
  readonly name: string;
  /** The schema's `title`, else the property's name. */
  readonly label: string;
  readonly description?: string;
  readonly required: boolean;
}

export type FormField =
  | (FieldBase & { readonly kind: "string"; readonly default?: string; readonly minLength?: number; readonly maxLength?: number; readonly format?: string })
  | (FieldBase & { readonly kind: "number"; readonly integer: boolean; readonly default?: number; readonly minimum?: number; readonly maximum?: number })
  | (FieldBase & { readonly kind: "boolean"; readonly default?: boolean })
  | (FieldBase & { readonly kind: "choice"; readonly options: readonly FieldOption[]; readonly default?: string })
  | (FieldBase & {
      readonly kind: "choices";
      readonly options: readonly FieldOption[];
      readonly default?: readonly string[];
      readonly minItems?: number;
      readonly maxItems?: number;
    });

/** A value a form answers with (ElicitResult `content` values). */
export type FieldValue = string | number | boolean | readonly string[];

function optionalNumber(schema: JsonObject, key: string): number | undefined {
  const value = schema[key];
  return typeof value === "number" ? value : undefined;
}

function optionalString(schema: JsonObject, key: string): string | undefined {
  const value = schema[key];
  return typeof value === "string" ? value : undefined;
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/** `[{const, title}]` as options, or undefined when the list is not of that shape. */
function titledOptions(list: unknown): FieldOption[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const options: FieldOption[] = [];
  for (const item of list) {
    if (!isJsonObject(item) || typeof item.const !== "string") return undefined;
    options.push({ value: item.const, title: typeof item.title === "string" ? item.title : item.const });
  }
  return options;
}

function enumOptions(values: readonly string[], names: unknown): FieldOption[] {
  return values.map((value, index) => ({ value, title: isStringList(names) ? (names[index] ?? value) : value }));
}

function readChoices(base: FieldBase, schema: JsonObject): FormField | Error {
  const items = schema.items;
  if (!isJsonObject(items)) return new Error(`property "${base.name}": an array needs \`items\``);
  const options = isStringList(items.enum) ? enumOptions(items.enum, undefined) : titledOptions(items.anyOf);
  if (options === undefined) return new Error(`property "${base.name}": an array's items must be an \`enum\` or an \`anyOf\` of const/title`);
  const minItems = optionalNumber(schema, "minItems");
  const maxItems = optionalNumber(schema, "maxItems");
  const chosen = isStringList(schema.default) ? schema.default : undefined;
  return { ...base, kind: "choices", options, ...(chosen ? { default: chosen } : {}), ...(minItems === undefined ? {} : { minItems }), ...(maxItems === undefined ? {} : { maxItems }) };
}

function readField(name: string, schema: unknown, required: boolean): FormField | Error {
  if (!isJsonObject(schema)) return new Error(`property "${name}" is not an object`);
  const title = optionalString(schema, "title");
  const description = optionalString(schema, "description");
  const base: FieldBase = { name, label: title ?? name, required, ...(description === undefined ? {} : { description }) };
  const fallback = schema.default;
  switch (schema.type) {
    case "string": {
      const options = isStringList(schema.enum) ? enumOptions(schema.enum, schema.enumNames) : titledOptions(schema.oneOf);
      if (options !== undefined) return { ...base, kind: "choice", options, ...(typeof fallback === "string" ? { default: fallback } : {}) };
      const minLength = optionalNumber(schema, "minLength");
      const maxLength = optionalNumber(schema, "maxLength");
      const format = optionalString(schema, "format");
      return {
        ...base,
        kind: "string",
        ...(typeof fallback === "string" ? { default: fallback } : {}),
        ...(minLength === undefined ? {} : { minLength }),
        ...(maxLength === undefined ? {} : { maxLength }),
        ...(format === undefined ? {} : { format }),
      };
    }
    case "number":
    case "integer": {
      const minimum = optionalNumber(schema, "minimum");
      const maximum = optionalNumber(schema, "maximum");
      return {
        ...base,
        kind: "number",
        integer: schema.type === "integer",
        ...(typeof fallback === "number" ? { default: fallback } : {}),
        ...(minimum === undefined ? {} : { minimum }),
        ...(maximum === undefined ? {} : { maximum }),
      };
    }
    case "boolean":
      return { ...base, kind: "boolean", ...(typeof fallback === "boolean" ? { default: fallback } : {}) };
    case "array":
      return readChoices(base, schema);
    default:
      return new Error(`property "${name}" has a type mca cannot ask for: ${JSON.stringify(schema.type)}`);
  }
}

/** The form's fields in the schema's order, or an Error naming the first property that cannot be shown. */
export function readFormFields(requestedSchema: JsonObject): FormField[] | Error {
  const { properties, required } = requestedSchema;
  if (properties !== undefined && !isJsonObject(properties)) return new Error("`properties` is not an object");
  const requiredNames = isStringList(required) ? required : [];
  const fields: FormField[] = [];
  for (const [name, schema] of Object.entries(properties ?? {})) {
    const field = readField(name, schema, requiredNames.includes(name));
    if (field instanceof Error) return field;
    fields.push(field);
  }
  return fields;
}
