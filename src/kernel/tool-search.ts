// Tool search: an index over many tool definitions that finds the few a task needs, so that thousands of
// remote tools cost a model only their names until it looks one up. A query is words, ranked by BM25 over
// each tool's name, parameter names and description, or a regular expression written `/…/`.
import type { ToolSpec } from "./ports.js";
import { describeError } from "./settle.js";

export interface ToolMatch {
  readonly name: string;
  readonly score: number;
}

export type ToolQuery =
  | { readonly kind: "words"; readonly terms: readonly string[]; readonly text: string }
  | { readonly kind: "regex"; readonly pattern: RegExp };

export interface ToolIndex {
  /** The best matches first (ties in the order the tools were given); a query that cannot be read finds nothing. */
  search(query: string | ToolQuery, limit?: number): readonly ToolMatch[];
}

export const DEFAULT_SEARCH_LIMIT = 5;
export const MAX_SEARCH_LIMIT = 20;
/** A regular expression is tested against a name and a description cut to this many characters... */
export const MAX_REGEX_SUBJECT_CHARS = 200;
/** ...and may be this long. */
export const MAX_REGEX_PATTERN_CHARS = 200;
/** Unbounded repetitions (`*`, `+`, `{n,}`) in one pattern: each one more multiplies a mismatch's worst case by the subject's length. */
export const MAX_REGEX_UNBOUNDED = 2;

// How much a word counts where it stands: a word of the name says most about what the tool does.
const FIELD_WEIGHTS = { name: 3, parameter: 2, description: 1 } as const;
// BM25's usual constants: term-frequency saturation and length normalisation.
const K1 = 1.2;
const B = 0.75;
/** A query equal to a tool's whole name puts that tool first. */
const EXACT_NAME_BONUS = 1000;
const STOP_WORDS = new Set(["a", "an", "and", "the", "of", "to", "in", "on", "for", "with", "by", "or", "is", "it", "this", "that", "from", "as", "at", "be", "tool", "tools"]);

/**
 * The words of a text: split at anything not a letter or digit and at camelCase humps (`getHTTPUser` →
 * get, http, user), lower-cased, a plural's `s` dropped so that `issues` finds `create_issue`.
 */
export function toolWords(text: string): string[] {
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2");
  return spaced
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "")
    .map((word) => (word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word));
}

/** The parameter names of a tool's input schema (top level: what a model fills in). */
export function parameterNames(tool: ToolSpec): string[] {
  const properties = tool.inputSchema.properties;
  return typeof properties === "object" && properties !== null && !Array.isArray(properties) ? Object.keys(properties) : [];
}

/**
 * A query as typed: `/pattern/` (optionally `/pattern/i`, always case-insensitive) is a regular
 * expression; anything else is words. An Error says what a model can fix.
 */
export function parseToolQuery(text: string): ToolQuery | Error {
  const trimmed = text.trim();
  const regex = /^\/(.*)\/i?$/s.exec(trimmed);
  if (regex === null) {
    const terms = toolWords(trimmed).filter((word) => !STOP_WORDS.has(word));
    return terms.length === 0 && trimmed === "" ? new Error("the query is empty: give words or a /regular expression/") : { kind: "words", terms, text: trimmed };
  }
  const source = regex[1] ?? "";
  const problem = regexProblem(source);
  if (problem !== null) return new Error(`the regular expression /${source.slice(0, MAX_REGEX_PATTERN_CHARS)}/ cannot be used: ${problem}`);
  try {
    return { kind: "regex", pattern: new RegExp(source, "i") };
  } catch (error) {
    return new Error(`the regular expression /${source}/ is invalid: ${describeError(error)}`);
  }
}

// A backtracking engine can take exponential time on a group that repeats something which itself
// repeats or branches (`(a+)+`, `(a|aa)*`), and polynomial time on many unbounded repetitions in a row.
// Those shapes are refused before the pattern runs; a search then costs at most the subjects' length to
// the power MAX_REGEX_UNBOUNDED, per subject.
function regexProblem(source: string): string | null {
  if (source === "") return "it is empty";
  if (source.length > MAX_REGEX_PATTERN_CHARS) return `it is longer than ${MAX_REGEX_PATTERN_CHARS} characters`;
  if (/\\[1-9]|\\k</.test(source)) return "back-references are not allowed";
  const groups: { repeats: boolean }[] = [];
  let unbounded = 0;
  for (let at = 0; at < source.length; at++) {
    const char = source[at];
    if (char === "\\") {
      at += 1;
      continue;
    }
    if (char === "[") {
      at = classEnd(source, at);
      continue;
    }
    const group = groups.at(-1);
    if (char === "(") {
      groups.push({ repeats: false });
      at = groupBodyStart(source, at) - 1;
    } else if (char === "|" && group !== undefined) group.repeats = true;
    else if (char === ")") {
      const closed = groups.pop();
      if (closed?.repeats === true && isUnboundedAt(source, at + 1)) return "a repeated group may not itself repeat or branch (it can take exponential time)";
      if (closed?.repeats === true && groups.length > 0) groups[groups.length - 1] = { repeats: true };
    } else if (isUnboundedAt(source, at) || char === "?" || char === "{") {
      if (isUnboundedAt(source, at)) unbounded += 1;
      if (group !== undefined) group.repeats = true;
    }
  }
  return unbounded > MAX_REGEX_UNBOUNDED ? `it repeats without bound more than ${MAX_REGEX_UNBOUNDED} times` : null;
}

/** Where a group's own pattern begins: after `(`, `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!` or `(?<name>`. */
function groupBodyStart(source: string, open: number): number {
  if (source[open + 1] !== "?") return open + 1;
  if (source[open + 2] !== "<" || source[open + 3] === "=" || source[open + 3] === "!") return open + (source[open + 2] === "<" ? 4 : 3);
  const close = source.indexOf(">", open);
  return close < 0 ? source.length : close + 1;
}

/** `*`, `+` or `{n,}` at `at`. */
function isUnboundedAt(source: string, at: number): boolean {
  const char = source[at];
  return char === "*" || char === "+" || (char === "{" && /^\{\d+,\}/.test(source.slice(at)));
}

/** The index of the `]` that closes the character class opened at `open` (or the last index). */
function classEnd(source: string, open: number): number {
  for (let at = open + 1; at < source.length; at++) {
    if (source[at] === "\\") at += 1;
    else if (source[at] === "]" && at > open + 1) return at;
  }
  return source.length - 1;
}

interface Posting {
  readonly tool: number;
  readonly weight: number;
}

/** An index over `tools`, built once: an inverted list of weighted words, and each tool's bounded texts for regexes. */
export function createToolIndex(tools: readonly ToolSpec[]): ToolIndex {
  const postings = new Map<string, Posting[]>();
  const lengths = new Float64Array(tools.length);
  const names = tools.map((tool) => tool.name);
  tools.forEach((tool, index) => {
    const weights = new Map<string, number>();
    const add = (words: readonly string[], weight: number): void => {
      for (const word of words) weights.set(word, (weights.get(word) ?? 0) + weight);
      lengths[index] = (lengths[index] ?? 0) + words.length * weight;
    };
    add(toolWords(tool.name), FIELD_WEIGHTS.name);
    add(parameterNames(tool).flatMap(toolWords), FIELD_WEIGHTS.parameter);
    add(toolWords(tool.description), FIELD_WEIGHTS.description);
    for (const [word, weight] of weights) {
      const list = postings.get(word);
      if (list === undefined) postings.set(word, [{ tool: index, weight }]);
      else list.push({ tool: index, weight });
    }
  });
  const averageLength = tools.length === 0 ? 1 : Math.max(1, lengths.reduce((sum, length) => sum + length, 0) / tools.length);
  const regexSubjects = tools.map((tool) => [tool.name.slice(0, MAX_REGEX_SUBJECT_CHARS), tool.description.slice(0, MAX_REGEX_SUBJECT_CHARS)] as const);

  const searchWords = (query: Extract<ToolQuery, { kind: "words" }>): Float64Array => {
    const scores = new Float64Array(tools.length);
    for (const term of new Set(query.terms)) {
      const list = postings.get(term);
      if (list === undefined) continue;
      const idf = Math.log(1 + (tools.length - list.length + 0.5) / (list.length + 0.5));
      for (const { tool, weight } of list) {
        const norm = K1 * (1 - B + (B * (lengths[tool] ?? 0)) / averageLength);
        scores[tool] = (scores[tool] ?? 0) + (idf * weight * (K1 + 1)) / (weight + norm);
      }
    }
    names.forEach((name, index) => {
      if (name === query.text) scores[index] = (scores[index] ?? 0) + EXACT_NAME_BONUS;
    });
    return scores;
  };
  // A match in the name counts double one in the description.
  const searchRegex = ({ pattern }: Extract<ToolQuery, { kind: "regex" }>): Float64Array =>
    Float64Array.from(regexSubjects, ([name, description]) => (pattern.test(name) ? 2 : 0) + (pattern.test(description) ? 1 : 0));

  return {
    search(query, limit = DEFAULT_SEARCH_LIMIT) {
      const parsed = typeof query === "string" ? parseToolQuery(query) : query;
      if (parsed instanceof Error) return [];
      const scores = parsed.kind === "words" ? searchWords(parsed) : searchRegex(parsed);
      return topMatches(scores, names, Math.max(0, Math.min(Math.floor(limit), MAX_SEARCH_LIMIT)));
    },
  };
}

/** The `limit` best positive scores, highest first, ties in index order, without sorting every tool. */
function topMatches(scores: Float64Array, names: readonly string[], limit: number): ToolMatch[] {
  const best: { index: number; score: number }[] = [];
  scores.forEach((score, index) => {
    if (score <= 0 || limit === 0) return;
    if (best.length === limit && score <= (best.at(-1)?.score ?? 0)) return;
    let at = best.length;
    while (at > 0 && (best[at - 1]?.score ?? 0) < score) at -= 1;
    best.splice(at, 0, { index, score });
    if (best.length > limit) best.pop();
  });
  return best.map(({ index, score }) => ({ name: names[index] ?? "", score: Math.round(score * 1000) / 1000 }));
}
