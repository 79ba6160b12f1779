// Argument completion (https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion):
// `completion/complete` asks a server that declares `completions` for the values of one argument of a prompt
// or one variable of a resource template, given what is typed so far and the arguments already filled in.
// Also where in a resource template a typed URI stops, so Tab knows which variable it is on. Everything the
// server answers is its own text: the CLI shows it only through its filter.
import { isJsonObject, McpError, type JsonObject } from "./jsonrpc.js";
import type { RequestOptions } from "./peer.js";

/** "Servers MUST NOT return more than 100 items" — and a server that does is cut to them. */
export const MAX_COMPLETION_VALUES = 100;

/** What completion needs of a server; a ServerConnection is one. */
export interface CompletionSource {
  readonly alias: string;
  /** What the server declared when it came up. */
  readonly capabilities: JsonObject;
  request(method: string, params?: JsonObject, options?: RequestOptions): Promise<JsonObject | McpError>;
}

/** Whose argument is completed: a prompt's (by name) or a resource template's (by its template). */
export type CompletionRef = { readonly type: "ref/prompt"; readonly name: string } | { readonly type: "ref/resource"; readonly uri: string };

export interface CompletionQuestion {
  readonly ref: CompletionRef;
  /** The argument (or template variable) being typed, and what is typed of it so far. */
  readonly argument: { readonly name: string; readonly value: string };
  /** The other arguments already given, for a server whose values depend on them. */
  readonly context: Readonly<Record<string, string>>;
}

/** "Servers that support completions MUST declare the completions capability." */
export function offersCompletions(source: Pick<CompletionSource, "capabilities">): boolean {
  return isJsonObject(source.capabilities.completions);
}

/** The request's params: `context` only when there is something in it. */
export function completionParams(question: CompletionQuestion): JsonObject {
  const { ref, argument, context } = question;
  return {
    ref: { ...ref },
    argument: { name: argument.name, value: argument.value },
    ...(Object.keys(context).length === 0 ? {} : { context: { arguments: { ...context } } }),
  };
}

/** `completion.values` of a result, the strings among them, at most MAX_COMPLETION_VALUES. */
export function completionValues(result: JsonObject): string[] | Error {
  const completion = result.completion;
  if (!isJsonObject(completion)) return new Error("the result has no `completion` object");
  if (!Array.isArray(completion.values)) return new Error("`completion.values` is not an array");
  return completion.values.filter((value): value is string => typeof value === "string").slice(0, MAX_COMPLETION_VALUES);
}

/** The server's values for one argument; a failed request is the value returned. */
export async function requestCompletion(source: CompletionSource, question: CompletionQuestion, options: RequestOptions = {}): Promise<string[] | McpError> {
  const result = await source.request("completion/complete", completionParams(question), options);
  if (result instanceof McpError) return result;
  const values = completionValues(result);
  return values instanceof Error ? new McpError("protocol", `completion/complete: ${values.message}`, { server: source.alias }) : values;
}

// ---------------------------------------------------------------------------------------------------
// Where a typed URI stands in a resource template (RFC 6570).

/** An expression's operator: what its expansion starts with, and whether reserved characters pass unencoded. */
const OPERATORS: Readonly<Record<string, { readonly lead: string; readonly named: boolean; readonly reserved: boolean }>> = {
  "": { lead: "", named: false, reserved: false },
  "+": { lead: "", named: false, reserved: true },
  "#": { lead: "#", named: false, reserved: true },
  ".": { lead: ".", named: false, reserved: false },
  "/": { lead: "/", named: false, reserved: false },
  ";": { lead: ";", named: true, reserved: false },
  "?": { lead: "?", named: true, reserved: false },
  "&": { lead: "&", named: true, reserved: false },
};

type Part = { readonly kind: "literal"; readonly text: string } | { readonly kind: "variable"; readonly name: string; readonly lead: string; readonly reserved: boolean };

/** The template as literals and one-variable expressions; undefined for what Tab does not follow (lists, modifiers, a broken brace). */
function templateParts(template: string): Part[] | undefined {
  const parts: Part[] = [];
  let rest = template;
  while (rest !== "") {
    const open = rest.indexOf("{");
    if (open === -1) {
      parts.push({ kind: "literal", text: rest });
      break;
    }
    if (open > 0) parts.push({ kind: "literal", text: rest.slice(0, open) });
    const close = rest.indexOf("}", open);
    if (close === -1) return undefined;
    const body = rest.slice(open + 1, close);
    const operator = OPERATORS[body.slice(0, 1)] === undefined ? "" : body.slice(0, 1);
    const name = body.slice(operator.length);
    const style = OPERATORS[operator];
    if (style === undefined || !/^[A-Za-z0-9_][A-Za-z0-9_.]*$/u.test(name)) return undefined;
    parts.push({ kind: "variable", name, lead: style.named ? `${style.lead}${name}=` : style.lead, reserved: style.reserved });
    rest = rest.slice(close + 1);
  }
  return parts;
}

/** The variable a typed URI ends in: its name, what is typed of it, where that starts, and the variables before it. */
export interface TemplatePosition {
  readonly variable: string;
  readonly value: string;
  /** `typed.slice(0, start)` is kept; a value goes after it. */
  readonly start: number;
  /** Whether a value may keep reserved characters (`{+var}`, `{#var}`), else it is percent-encoded. */
  readonly reserved: boolean;
  readonly before: Readonly<Record<string, string>>;
}

/**
 * Where `typed` ends inside `template`, when it ends inside a variable: the literals must match as written,
 * and each earlier variable's value runs up to the literal that follows it. Undefined when the text leaves the
 * template, or ends in a literal.
 */
export function templatePosition(template: string, typed: string): TemplatePosition | undefined {
  const parts = templateParts(template);
  if (parts === undefined) return undefined;
  const before: Record<string, string> = {};
  let at = 0;
  for (const [index, part] of parts.entries()) {
    const literal = part.kind === "literal" ? part.text : part.lead;
    if (!typed.startsWith(literal, at)) return undefined;
    at += literal.length;
    if (part.kind === "literal") continue;
    const next = parts[index + 1];
    const stop = next === undefined ? "" : next.kind === "literal" ? next.text.slice(0, 1) : next.lead.slice(0, 1);
    const end = stop === "" ? -1 : typed.indexOf(stop, at);
    if (end === -1) return { variable: part.name, value: decode(typed.slice(at)), start: at, reserved: part.reserved, before };
    before[part.name] = decode(typed.slice(at, end));
    at = end;
  }
  return undefined;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A value as it goes into the URI: percent-encoded, as RFC 6570 expands it. */
export function expandValue(value: string, reserved: boolean): string {
  return reserved ? encodeURI(value) : encodeURIComponent(value);
}

/** What is fixed before a template's first variable (`greeting://{name}` → `greeting://`): what Tab offers to start one. */
export function templateStart(template: string): string {
  const open = template.indexOf("{");
  return open === -1 ? template : template.slice(0, open);
}
