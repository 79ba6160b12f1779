// Whether a value fits a form field, with a reason a person can act on: used for what the user types at a
// question and for answers supplied in an `--input-responses` file, so both are held to the same rules.
import type { FieldValue, FormField } from "./form-fields.js";

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
