// Asks a form elicitation's fields one by one: each with its title, description and whether it is
// required; typed answers are checked before they are taken, optional fields may be left empty.
import type { Asker, Choice } from "./prompt-asker.js";
import { checkFieldValue, parseNumberAnswer } from "./form-check.js";
import type { FieldValue, FormField } from "./form-fields.js";

/** The value of the "no answer" choice of an optional single-choice field; never sent. */
const SKIP = "\u0000skip";

function questionText(field: FormField): string {
  const format = field.kind === "string" && field.format !== undefined ? `, ${field.format}` : "";
  const integer = field.kind === "number" && field.integer ? ", whole number" : "";
  return `${field.label} (${field.required ? "required" : "optional"}${format}${integer})`;
}

async function askField(field: FormField, asker: Asker): Promise<FieldValue | "" | undefined> {
  const message = questionText(field);
  switch (field.kind) {
    case "string":
      return asker.text(message, field.default ?? "", (typed) => {
        if (typed === "") return field.required ? "this field is required" : undefined;
        return checkFieldValue(field, typed);
      });
    case "number": {
      const typed = await asker.text(message, field.default === undefined ? "" : String(field.default), (text) => {
        const parsed = parseNumberAnswer(field, text);
        if (parsed === "") return field.required ? "this field is required" : undefined;
        return typeof parsed === "number" ? undefined : parsed.problem;
      });
      if (typed === undefined) return undefined;
      const parsed = parseNumberAnswer(field, typed);
      return typeof parsed === "number" ? parsed : "";
    }
    case "boolean":
      return asker.confirm(message, field.default ?? false);
    case "choice": {
      const choices: Array<Choice<string>> = field.options.map((option) => ({ title: option.title, value: option.value }));
      if (!field.required) choices.push({ title: "(no answer)", value: SKIP });
      const initial = Math.max(0, choices.findIndex((choice) => choice.value === field.default));
      const picked = await asker.select(message, choices, initial);
      return picked === SKIP ? "" : picked;
    }
    case "choices": {
      const choices = field.options.map((option) => ({ title: option.title, value: option.value }));
      const picked = await asker.multiselect(message, choices, field.default ?? [], (values) => checkFieldValue(field, values));
      if (picked === undefined) return undefined;
      return picked.length === 0 && !field.required ? "" : picked;
    }
    default: {
      const unknown: never = field;
      throw new Error(`unknown field ${JSON.stringify(unknown)}`);
    }
  }
}

/** The form's content (ElicitResult `content`), or undefined when the user cancelled a question. */
export async function askFormFields(fields: readonly FormField[], asker: Asker): Promise<Record<string, FieldValue> | undefined> {
  const content: Record<string, FieldValue> = {};
  for (const field of fields) {
    if (field.description !== undefined) asker.say(`  ${field.label}: ${field.description}`);
    const value = await askField(field, asker);
    if (value === undefined) return undefined;
    // An empty answer to an optional field leaves it out of the content.
    if (value !== "") content[field.name] = value;
  }
  return content;
}
