// Asks an MCP server's elicitation in the terminal. Form mode: accept / decline / cancel, then the fields
// one by one. URL mode: the full URL and its host, consent first; mca never opens anything itself.
import type { ChalkInstance } from "chalk";
import type { InputRequest } from "../../mcp/index.js";
import type { Asker, Choice } from "../terminal.js";
import { untrustedText } from "../untrusted-text.js";
import { checkFieldValue, parseNumberAnswer, readFormFields, type ElicitAction, type ElicitResult, type FieldValue, type FormField } from "./form.js";

export interface Asking {
  /** The alias of the server asking, from our own config. */
  readonly server: string;
  /** The server's own name for the tool being called. */
  readonly tool: string;
}

type FormRequest = Extract<InputRequest, { kind: "elicit-form" }>;
type UrlRequest = Extract<InputRequest, { kind: "elicit-url" }>;

const FORM_CHOICES: ReadonlyArray<Choice<ElicitAction>> = [
  { title: "Answer", value: "accept", description: "fill in the form and send it" },
  { title: "Decline", value: "decline", description: "tell the server no" },
  { title: "Cancel", value: "cancel", description: "dismiss it without a choice" },
];

const URL_CHOICES: ReadonlyArray<Choice<ElicitAction>> = [
  { title: "Open it myself", value: "accept", description: "mca prints the link and waits until you are done there" },
  { title: "Decline", value: "decline", description: "tell the server no" },
  { title: "Cancel", value: "cancel", description: "dismiss it without a choice" },
];

/** The field with every text the server wrote made safe to show; names and values are left as they are. */
function shownField(field: FormField): FormField {
  const texts = { label: untrustedText(field.label), ...(field.description === undefined ? {} : { description: untrustedText(field.description) }) };
  switch (field.kind) {
    case "choice":
    case "choices":
      return { ...field, ...texts, options: field.options.map((option) => ({ ...option, title: untrustedText(option.title) })) };
    case "string":
    case "number":
    case "boolean":
      return { ...field, ...texts };
    default: {
      const unknown: never = field;
      throw new Error(`unknown field ${JSON.stringify(unknown)}`);
    }
  }
}

function heading(chalk: ChalkInstance, asking: Asking, what: string, message: string): string {
  const who = `MCP server "${untrustedText(asking.server)}" ${what}, for its tool ${untrustedText(asking.tool)}:`;
  return `${chalk.yellow("input requested:")} ${who}\n  ${chalk.bold(untrustedText(message).replaceAll("\n", "\n  "))}`;
}

/**
 * The server, the tool and the message, then accept / decline / cancel and, on accept, the fields one by one
 * (typed answers checked before they are taken). The user's ElicitResult, or undefined when they pressed
 * Ctrl-C (or Escape) at a question.
 */
export async function askFormElicitation(request: FormRequest, asking: Asking, asker: Asker, chalk: ChalkInstance): Promise<ElicitResult | undefined> {
  asker.say(heading(chalk, asking, "asks you", request.message));
  const fields = readFormFields(request.requestedSchema);
  if (fields instanceof Error) {
    asker.say(chalk.red(`  mca cannot show this form (${untrustedText(fields.message)}): declined`));
    return { action: "decline" };
  }
  const action = await asker.select("Your answer", FORM_CHOICES);
  switch (action) {
    case undefined:
      return undefined;
    case "accept": {
      const content = await askFormFields(fields.map(shownField), asker);
      return content === undefined ? undefined : { action: "accept", content };
    }
    case "decline":
    case "cancel":
      return { action };
    default: {
      const unknown: never = action;
      throw new Error(`unknown action ${JSON.stringify(unknown)}`);
    }
  }
}

/** Only web pages: any other scheme (javascript:, file:, a custom handler) is declined without asking. */
function webUrl(text: string): URL | undefined {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  return url !== undefined && (url.protocol === "https:" || url.protocol === "http:") ? url : undefined;
}

/**
 * Prints the link and waits until the user says they are done there. "Accept" only means the user went:
 * the outcome comes from the retry (a URL elicitation's accept is never "done":
 * https://modelcontextprotocol.io/specification/2026-07-28/client/elicitation).
 */
export async function askUrlElicitation(request: UrlRequest, asking: Asking, asker: Asker, chalk: ChalkInstance): Promise<ElicitResult | undefined> {
  asker.say(heading(chalk, asking, "asks you to open a web page", request.message));
  const url = webUrl(request.url);
  if (url === undefined) {
    asker.say(chalk.red(`  ${JSON.stringify(untrustedText(request.url))} is not an http(s) URL: declined`));
    return { action: "decline" };
  }
  // `host` is already ASCII (an internationalised name shows as xn--…), so look-alike letters cannot hide.
  const plain = url.protocol === "http:" ? chalk.red("  (plain http: not encrypted)") : "";
  asker.say(`  URL:  ${untrustedText(url.href)}\n  host: ${chalk.bold.underline(url.host)}${plain}`);
  const action = await asker.select(`Open a page on ${url.host}?`, URL_CHOICES);
  switch (action) {
    case undefined:
      return undefined;
    case "accept": {
      asker.say(`Open this link in your browser:\n\n  ${untrustedText(url.href)}\n`);
      const done = await asker.text("Press Enter once you have finished there", "", () => undefined);
      if (done === undefined) return undefined;
      asker.say(chalk.dim("mca retries the call now: the server says whether it is done."));
      return { action: "accept" };
    }
    case "decline":
    case "cancel":
      return { action };
    default: {
      const unknown: never = action;
      throw new Error(`unknown action ${JSON.stringify(unknown)}`);
    }
  }
}

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
async function askFormFields(fields: readonly FormField[], asker: Asker): Promise<Record<string, FieldValue> | undefined> {
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
