// The questions Tab puts to an MCP server (`completion/complete`): the values of an MCP prompt command's
// argument, `/mcp__<alias>__<prompt> name=va` or by position, and of a resource template's variable after
// `@alias:`. Each answer becomes whole words for the line, and only values that show as themselves are offered:
// readline prints a candidate and inserts the one chosen exactly as they are.
import {
  expandValue,
  McpError,
  offersCompletions,
  requestCompletion,
  templatePosition,
  type CompletionQuestion,
  type CompletionSource,
  type PromptArgument,
} from "../mcp/index.js";
import { untrustedText } from "./untrusted-text.js";

/** A question Tab may ask a server (completion.ts asks it, debounced and within its time limit). */
export interface ServerQuestion {
  /** Two questions with the same key have the same answer: the server is asked once. */
  readonly key: string;
  /** The part of the line the candidates replace. */
  readonly word: string;
  ask(signal: AbortSignal): Promise<readonly string[]>;
}

/** A value as one word of a command's arguments: quoted (as prompt-commands reads quotes) when it must be. */
export function argumentWord(value: string): string {
  return /^[^\s"'=\\]+$/u.test(value) ? value : `"${value.replace(/["\\]/gu, (char) => `\\${char}`)}"`;
}

function question(source: CompletionSource, asked: CompletionQuestion, word: string, toWord: (value: string) => string): ServerQuestion {
  return {
    key: JSON.stringify([source.alias, asked]),
    word,
    async ask(signal) {
      const values = await requestCompletion(source, asked, { signal });
      if (values instanceof McpError) return [];
      return values.filter((value) => value !== "" && untrustedText(value) === value).map(toWord);
    },
  };
}

/**
 * Tab after `@alias:` on a URI that ends inside a variable of one of the server's templates (the first that
 * fits): the server's values for it, with the variables typed before it as context. The values are
 * percent-encoded as the template expands them, so each candidate is a URI.
 */
export function templateQuestion(source: CompletionSource, templates: readonly string[], word: string): ServerQuestion | undefined {
  if (!offersCompletions(source)) return undefined;
  const colon = word.indexOf(":");
  const typed = word.slice(colon + 1);
  for (const template of templates) {
    const position = templatePosition(template, typed);
    if (position === undefined) continue;
    const kept = word.slice(0, colon + 1 + position.start);
    const asked: CompletionQuestion = { ref: { type: "ref/resource", uri: template }, argument: { name: position.variable, value: position.value }, context: position.before };
    return question(source, asked, word, (value) => `${kept}${expandValue(value, position.reserved)}`);
  }
  return undefined;
}

/** A word of the argument text as the command will read it: its name when written `name=value`, and what it holds. */
interface TypedWord {
  readonly name?: string;
  readonly value: string;
}

function typedWord(raw: string): TypedWord {
  const equals = raw.indexOf("=");
  return equals > 0 ? { name: raw.slice(0, equals), value: raw.slice(equals + 1) } : { value: raw };
}

/**
 * Tab at the end of a prompt command's arguments: the argument the last word fills (by its `name=`, or by its
 * position among the arguments not named) and what is typed of it, the others given so far as context. Words
 * with quotes are not followed: the user finishes those by hand.
 */
export function promptArgumentQuestion(source: CompletionSource, prompt: string, declared: readonly PromptArgument[], argText: string): ServerQuestion | undefined {
  if (!offersCompletions(source) || /["']/u.test(argText)) return undefined;
  const raws = argText.split(/\s+/u);
  const last = raws.pop() ?? "";
  const words = raws.filter((raw) => raw !== "").map(typedWord);
  const current = typedWord(last);
  const named = new Set(words.flatMap((word) => (word.name === undefined ? [] : [word.name])));
  if (current.name !== undefined) named.add(current.name);
  const open = declared.filter((arg) => !named.has(arg.name));
  const context: Record<string, string> = {};
  let position = 0;
  for (const word of words) {
    const name = word.name ?? open[position++]?.name;
    if (name !== undefined && declared.some((arg) => arg.name === name)) context[name] = word.value;
  }
  const argument = current.name ?? open[position]?.name;
  if (argument === undefined || !declared.some((arg) => arg.name === argument)) return undefined;
  const lead = current.name === undefined ? "" : `${current.name}=`;
  const asked: CompletionQuestion = { ref: { type: "ref/prompt", name: prompt }, argument: { name: argument, value: current.value }, context };
  return question(source, asked, last, (value) => `${lead}${argumentWord(value)}`);
}
