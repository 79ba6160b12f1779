// The positioned JSON reader of every config file: a strict tokenizer (RFC 8259) that keeps each token's
// offset, and a reader that builds nodes remembering where they were written, catching what JSON.parse
// hides (a key written twice in one object: JSON.parse silently keeps the last one).

/** 1-based line and column in the text. */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

/** A key, or an array index, on the way from the root to a value. */
export type PathSegment = string | number;

export interface JsonMember {
  readonly keyOffset: number;
  readonly value: JsonNode;
}

export type JsonNode =
  | { readonly kind: "object"; readonly offset: number; readonly members: ReadonlyMap<string, JsonMember> }
  | { readonly kind: "array"; readonly offset: number; readonly items: readonly JsonNode[] }
  | { readonly kind: "string"; readonly offset: number; readonly value: string }
  | { readonly kind: "number"; readonly offset: number; readonly value: number }
  | { readonly kind: "boolean"; readonly offset: number; readonly value: boolean }
  | { readonly kind: "null"; readonly offset: number };

export type JsonReadError =
  | { readonly kind: "syntax"; readonly message: string; readonly offset: number }
  /** `path` leads to the object holding the key; `offset` is the second occurrence. */
  | { readonly kind: "duplicate-key"; readonly path: readonly PathSegment[]; readonly key: string; readonly offset: number };

export type JsonReadResult =
  | { readonly ok: true; readonly value: JsonNode }
  | { readonly ok: false; readonly error: JsonReadError };

/** Deeper nesting than any config needs; the limit keeps a hostile file from exhausting the stack. */
export const MAX_JSON_DEPTH = 64;

/** A syntax error anywhere wins over a duplicate key; otherwise the first duplicate in the text is reported. */
export function readJson(text: string): JsonReadResult {
  const nextToken = createJsonTokenizer(text);
  let token: JsonToken = { kind: "end", offset: 0 };
  let duplicate: JsonReadError | undefined;

  function isAt(char: Punctuation): boolean {
    return token.kind === "punctuation" && token.char === char;
  }

  function expected(what: string): JsonSyntaxError {
    const prefix = token.kind === "end" ? "unexpected end of file, " : "";
    return new JsonSyntaxError(`${prefix}expected ${what}`, token.offset);
  }

  function expect(char: Punctuation, what: string): void {
    if (!isAt(char)) throw expected(what);
    token = nextToken();
  }

  function object(path: readonly PathSegment[], depth: number): JsonNode {
    const offset = token.offset;
    token = nextToken();
    const members = new Map<string, JsonMember>();
    if (isAt("}")) {
      token = nextToken();
      return { kind: "object", offset, members };
    }
    for (;;) {
      if (token.kind !== "string") throw expected("a property name in double quotes");
      const key = token.value;
      const keyOffset = token.offset;
      if (members.has(key) && duplicate === undefined) duplicate = { kind: "duplicate-key", path, key, offset: keyOffset };
      token = nextToken();
      expect(":", "':' after a property name");
      const member = { keyOffset, value: value([...path, key], depth + 1) };
      if (!members.has(key)) members.set(key, member);
      if (isAt("}")) {
        token = nextToken();
        return { kind: "object", offset, members };
      }
      expect(",", "',' or '}' after a property value");
    }
  }

  function array(path: readonly PathSegment[], depth: number): JsonNode {
    const offset = token.offset;
    token = nextToken();
    const items: JsonNode[] = [];
    if (isAt("]")) {
      token = nextToken();
      return { kind: "array", offset, items };
    }
    for (;;) {
      items.push(value([...path, items.length], depth + 1));
      if (isAt("]")) {
        token = nextToken();
        return { kind: "array", offset, items };
      }
      expect(",", "',' or ']' after an array item");
    }
  }

  function value(path: readonly PathSegment[], depth: number): JsonNode {
    if (depth > MAX_JSON_DEPTH) throw new JsonSyntaxError(`nested more than ${MAX_JSON_DEPTH} levels deep`, token.offset);
    const current = token;
    switch (current.kind) {
      case "punctuation":
        if (current.char === "{") return object(path, depth);
        if (current.char === "[") return array(path, depth);
        throw new JsonSyntaxError(`unexpected '${current.char}', expected a value`, current.offset);
      case "string":
      case "number":
      case "boolean":
      case "null":
        token = nextToken();
        return current;
      case "end":
        throw new JsonSyntaxError("unexpected end of file, expected a value", current.offset);
      default:
        return unreachable(current);
    }
  }

  try {
    token = nextToken();
    const root = value([], 0);
    if (token.kind !== "end") throw new JsonSyntaxError("unexpected text after the end of the JSON value", token.offset);
    return duplicate === undefined ? { ok: true, value: root } : { ok: false, error: duplicate };
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    return { ok: false, error: { kind: "syntax", message: error.message, offset: error.offset } };
  }
}

function unreachable(token: never): never {
  throw new Error(`unhandled token ${JSON.stringify(token)}`);
}

// The tokenizer: readJson pulls tokens from it one at a time.

type Punctuation = "{" | "}" | "[" | "]" | ":" | ",";

type JsonToken =
  | { readonly kind: "punctuation"; readonly char: Punctuation; readonly offset: number }
  | { readonly kind: "string"; readonly value: string; readonly offset: number }
  | { readonly kind: "number"; readonly value: number; readonly offset: number }
  | { readonly kind: "boolean"; readonly value: boolean; readonly offset: number }
  | { readonly kind: "null"; readonly offset: number }
  | { readonly kind: "end"; readonly offset: number };

/** The text is not JSON; `offset` is where reading stopped. */
class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = "JsonSyntaxError";
  }
}

const PUNCTUATION = new Set<string>(["{", "}", "[", "]", ":", ","]);
const WHITESPACE = new Set<string>([" ", "\t", "\n", "\r"]);
const ESCAPES = new Map<string, string>([
  ['"', '"'],
  ["\\", "\\"],
  ["/", "/"],
  ["b", "\b"],
  ["f", "\f"],
  ["n", "\n"],
  ["r", "\r"],
  ["t", "\t"],
]);
const LITERALS: readonly { readonly word: string; readonly token: (offset: number) => JsonToken }[] = [
  { word: "true", token: (offset) => ({ kind: "boolean", value: true, offset }) },
  { word: "false", token: (offset) => ({ kind: "boolean", value: false, offset }) },
  { word: "null", token: (offset) => ({ kind: "null", offset }) },
];
const BYTE_ORDER_MARK = 0xfeff;

function isPunctuation(char: string): char is Punctuation {
  return PUNCTUATION.has(char);
}

function isDigit(char: string): boolean {
  return char >= "0" && char <= "9";
}

function isHexDigit(char: string): boolean {
  return isDigit(char) || (char >= "a" && char <= "f") || (char >= "A" && char <= "F");
}

/** 1-based line and column of an offset; columns count UTF-16 code units. */
export function positionAt(text: string, offset: number): SourcePosition {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index++) {
    if (text.charCodeAt(index) === 0x0a) {
      line += 1;
      lineStart = index + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Returns a function that yields the next token on each call, an `end` token at the end, and throws JsonSyntaxError. */
function createJsonTokenizer(text: string): () => JsonToken {
  // Editors on Windows may save a byte order mark; it is not part of the JSON text.
  let offset = text.charCodeAt(0) === BYTE_ORDER_MARK ? 1 : 0;

  function digits(): void {
    if (!isDigit(text.charAt(offset))) throw new JsonSyntaxError("invalid number: expected a digit", offset);
    while (isDigit(text.charAt(offset))) offset += 1;
  }

  function number(): JsonToken {
    const start = offset;
    if (text.charAt(offset) === "-") offset += 1;
    if (text.charAt(offset) === "0") offset += 1;
    else digits();
    if (text.charAt(offset) === ".") {
      offset += 1;
      digits();
    }
    if (text.charAt(offset) === "e" || text.charAt(offset) === "E") {
      offset += 1;
      if (text.charAt(offset) === "+" || text.charAt(offset) === "-") offset += 1;
      digits();
    }
    return { kind: "number", value: Number(text.slice(start, offset)), offset: start };
  }

  /** At a backslash; returns the character it stands for and moves past it. */
  function escape(): string {
    const letter = text.charAt(offset + 1);
    const simple = ESCAPES.get(letter);
    if (simple !== undefined) {
      offset += 2;
      return simple;
    }
    if (letter !== "u") throw new JsonSyntaxError(`invalid escape "\\${letter}" in string`, offset);
    const hex = text.slice(offset + 2, offset + 6);
    if (hex.length < 4 || ![...hex].every(isHexDigit)) {
      throw new JsonSyntaxError("invalid \\u escape in string: expected 4 hex digits", offset);
    }
    offset += 6;
    return String.fromCharCode(Number.parseInt(hex, 16));
  }

  function string(): JsonToken {
    const start = offset;
    offset += 1;
    let value = "";
    let chunkStart = offset;
    for (;;) {
      if (offset >= text.length) throw new JsonSyntaxError("unterminated string", start);
      const code = text.charCodeAt(offset);
      if (code === 0x22) {
        value += text.slice(chunkStart, offset);
        offset += 1;
        return { kind: "string", value, offset: start };
      }
      if (code === 0x5c) {
        value += text.slice(chunkStart, offset) + escape();
        chunkStart = offset;
      } else if (code < 0x20) {
        throw new JsonSyntaxError("unescaped control character or line break in string", offset);
      } else {
        offset += 1;
      }
    }
  }

  return function next(): JsonToken {
    while (WHITESPACE.has(text.charAt(offset))) offset += 1;
    const start = offset;
    if (start >= text.length) return { kind: "end", offset: start };
    const char = text.charAt(start);
    if (isPunctuation(char)) {
      offset += 1;
      return { kind: "punctuation", char, offset: start };
    }
    if (char === '"') return string();
    if (char === "-" || isDigit(char)) return number();
    const literal = LITERALS.find(({ word }) => text.startsWith(word, start));
    if (literal !== undefined) {
      offset += literal.word.length;
      return literal.token(start);
    }
    const character = String.fromCodePoint(text.codePointAt(start) ?? 0);
    throw new JsonSyntaxError(`unexpected character ${JSON.stringify(character)}`, start);
  }
}
