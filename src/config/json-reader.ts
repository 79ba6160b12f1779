// Reads JSON text into nodes that remember where they were written, and catches what JSON.parse hides:
// a key written twice in one object (JSON.parse silently keeps the last one).
import { createJsonTokenizer, JsonSyntaxError, type JsonToken, type Punctuation } from "./json-tokenizer.js";

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
