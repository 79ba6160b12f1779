// A form elicitation (https://modelcontextprotocol.io/specification/2026-07-28/client/elicitation): its
// `requestedSchema` read into typed fields ("a flat object of primitive properties": string,
// number/integer, boolean, single and multiple choice), whether a value fits a field, and the ElicitResult
// that answers it. Typed answers and `--input-responses` files meet the same checks.
import { isJsonObject, type JsonObject } from "../../mcp/index.js";

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

/** Single choice comes as `enum`, `enum` + `enumNames` or `oneOf` of const/title; several choices as an array of `enum` or `anyOf` items. */
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

/**
 * The client's answer to an `elicitation/create` request (ElicitResult, sent inside a multi round-trip
 * retry's `inputResponses`): accept with the form's content, decline ("no"), or cancel (dismissed without a
 * choice). It carries no `resultType`.
 */
export type ElicitResult =
  | { readonly action: "accept"; readonly content?: Readonly<Record<string, FieldValue>> }
  | { readonly action: "decline" }
  | { readonly action: "cancel" };

export const ELICIT_ACTIONS = ["accept", "decline", "cancel"] as const;
export type ElicitAction = (typeof ELICIT_ACTIONS)[number];

// Whether a value fits a field, with a reason a person can act on ("must be …").
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function checkFormat(format: string | undefined, value: string): string | undefined {
  switch (format) {
    case "email":
      return EMAIL.test(value) ? undefined : "must be an email address";
    case "uri":
      return URL.canParse(value) ? undefined : "must be a URI";
    case "date":
      return DATE.test(value) && !Number.isNaN(Date.parse(value)) ? undefined : "must be a date (YYYY-MM-DD)";
    case "date-time":
      return Number.isNaN(Date.parse(value)) ? "must be a date and time (ISO 8601)" : undefined;
    default:
      return undefined;
  }
}

function checkBounds(value: number, minimum: number | undefined, maximum: number | undefined, what: string): string | undefined {
  if (minimum !== undefined && value < minimum) return `must be at least ${minimum}${what}`;
  if (maximum !== undefined && value > maximum) return `must be at most ${maximum}${what}`;
  return undefined;
}

/** Undefined when `value` fits `field`, else why not ("must be …"). */
export function checkFieldValue(field: FormField, value: unknown): string | undefined {
  switch (field.kind) {
    case "string":
      if (typeof value !== "string") return "must be a string";
      return checkBounds(value.length, field.minLength, field.maxLength, " characters long") ?? checkFormat(field.format, value);
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
      if (field.integer && !Number.isInteger(value)) return "must be a whole number";
      return checkBounds(value, field.minimum, field.maximum, "");
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be true or false";
    case "choice":
      return field.options.some((option) => option.value === value) ? undefined : `must be one of ${field.options.map((option) => JSON.stringify(option.value)).join(", ")}`;
    case "choices": {
      if (!Array.isArray(value)) return "must be a list of choices";
      const unknown = value.find((item) => !field.options.some((option) => option.value === item));
      if (unknown !== undefined) return `has ${JSON.stringify(unknown)}, which is not one of the choices`;
      return checkBounds(value.length, field.minItems, field.maxItems, " choices");
    }
    default: {
      const unknown: never = field;
      throw new Error(`unknown field ${JSON.stringify(unknown)}`);
    }
  }
}

/** Undefined when `content` answers the form: every required field present, every value fitting, no stranger. */
export function checkFormContent(fields: readonly FormField[], content: Readonly<Record<string, FieldValue>>): string | undefined {
  for (const name of Object.keys(content)) {
    if (!fields.some((field) => field.name === name)) return `"${name}" is not a field of the form`;
  }
  for (const field of fields) {
    const value = content[field.name];
    if (value === undefined) {
      if (field.required) return `"${field.name}" is required`;
      continue;
    }
    const problem = checkFieldValue(field, value);
    if (problem !== undefined) return `"${field.name}" ${problem}`;
  }
  return undefined;
}

/** What the user typed at a number question: a number, "" for no answer, or why it is not one. */
export function parseNumberAnswer(field: Extract<FormField, { kind: "number" }>, typed: string): number | "" | { readonly problem: string } {
  const text = typed.trim();
  if (text === "") return "";
  const value = Number(text);
  if (Number.isNaN(value)) return { problem: "must be a number" };
  const problem = checkFieldValue(field, value);
  return problem === undefined ? value : { problem };
}
