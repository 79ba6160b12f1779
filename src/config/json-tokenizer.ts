// A strict JSON tokenizer (RFC 8259) over the raw text of a config file, keeping every token's offset so
// that errors can name a line and column; json-reader.ts builds values from its tokens.

export type Punctuation = "{" | "}" | "[" | "]" | ":" | ",";

export type JsonToken =
  | { readonly kind: "punctuation"; readonly char: Punctuation; readonly offset: number }
  | { readonly kind: "string"; readonly value: string; readonly offset: number }
  | { readonly kind: "number"; readonly value: number; readonly offset: number }
  | { readonly kind: "boolean"; readonly value: boolean; readonly offset: number }
  | { readonly kind: "null"; readonly offset: number }
  | { readonly kind: "end"; readonly offset: number };

/** The text is not JSON; `offset` is where reading stopped. */
export class JsonSyntaxError extends Error {
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
export function positionAt(text: string, offset: number): { readonly line: number; readonly column: number } {
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
export function createJsonTokenizer(text: string): () => JsonToken {
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
