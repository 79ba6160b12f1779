import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, positionAt, readJson } from "./json-reader.js";

describe("readJson", () => {
  it("reads every kind of value with the offset it starts at", () => {
    expect(readJson('{"a": [1, -2.5e1, "x"], "b": true, "c": null}')).toEqual({
      ok: true,
      value: {
        kind: "object",
        offset: 0,
        members: new Map([
          [
            "a",
            {
              keyOffset: 1,
              value: {
                kind: "array",
                offset: 6,
                items: [
                  { kind: "number", offset: 7, value: 1 },
                  { kind: "number", offset: 10, value: -25 },
                  { kind: "string", offset: 18, value: "x" },
                ],
              },
            },
          ],
          ["b", { keyOffset: 24, value: { kind: "boolean", offset: 29, value: true } }],
          ["c", { keyOffset: 35, value: { kind: "null", offset: 40 } }],
        ]),
      },
    });
  });

  it("decodes string escapes, including \\u escapes that form a surrogate pair", () => {
    expect(readJson('"a\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude80"')).toEqual({
      ok: true,
      value: { kind: "string", offset: 0, value: 'a"\\/\b\f\n\r\té🚀' },
    });
  });

  it("skips a leading byte order mark", () => {
    expect(readJson("\ufeff[]")).toEqual({ ok: true, value: { kind: "array", offset: 1, items: [] } });
  });

  it("keeps a __proto__ key as an ordinary member", () => {
    const read = readJson('{"__proto__": 1}');
    expect(read.ok && read.value.kind === "object" && [...read.value.members.keys()]).toEqual(["__proto__"]);
  });

  it("reports a key written twice in one object, with the object's path and the second key's offset", () => {
    expect(readJson('{"a": {"x": [{"k": 1, "k": 2}]}}')).toEqual({
      ok: false,
      error: { kind: "duplicate-key", path: ["a", "x", 0], key: "k", offset: 22 },
    });
  });

  it("does not mistake the same key in sibling objects for a duplicate", () => {
    expect(readJson('[{"k": 1}, {"k": 2}]').ok).toBe(true);
  });

  it("reports a syntax error before a duplicate key that comes earlier", () => {
    expect(readJson('{"k": 1, "k": 2, }')).toEqual({
      ok: false,
      error: { kind: "syntax", message: "expected a property name in double quotes", offset: 17 },
    });
  });

  it.each([
    ["a missing comma", '{"a": 1 "b": 2}', "expected ',' or '}' after a property value", 8],
    ["a trailing comma in an array", "[1,]", "unexpected ']', expected a value", 3],
    ["a missing colon", '{"a" 1}', "expected ':' after a property name", 5],
    ["a single-quoted string", "{'a': 1}", 'unexpected character "\'"', 1],
    ["a comment", "// hi\n{}", 'unexpected character "/"', 0],
    ["a line break inside a string", '"a\nb"', "unescaped control character or line break in string", 2],
    ["an unterminated string", '"abc', "unterminated string", 0],
    ["an invalid escape", '"\\x"', 'invalid escape "\\x" in string', 1],
    ["a short \\u escape", '"\\u12"', "invalid \\u escape in string: expected 4 hex digits", 1],
    ["a number without digits after the point", "1.", "invalid number: expected a digit", 2],
    ["a bare minus", "-", "invalid number: expected a digit", 1],
    ["a misspelt literal", "[tru]", 'unexpected character "t"', 1],
    ["text after the value", "{} {}", "unexpected text after the end of the JSON value", 3],
    ["an empty file", "  ", "unexpected end of file, expected a value", 2],
    ["a file that stops inside an object", '{"a": ', "unexpected end of file, expected a value", 6],
    ["a file that stops before a key", '{"a": 1,', "unexpected end of file, expected a property name in double quotes", 8],
    ["a file that stops after a value", '[1', "unexpected end of file, expected ',' or ']' after an array item", 2],
  ])("reports %s as a syntax error at its offset", (_name, text, message, offset) => {
    expect(readJson(text)).toEqual({ ok: false, error: { kind: "syntax", message, offset } });
  });

  it("refuses nesting deeper than MAX_JSON_DEPTH instead of exhausting the stack", () => {
    const text = "[".repeat(100_000);
    expect(readJson(text)).toEqual({
      ok: false,
      error: { kind: "syntax", message: `nested more than ${MAX_JSON_DEPTH} levels deep`, offset: MAX_JSON_DEPTH + 1 },
    });
  });
});

describe("positionAt", () => {
  it("gives 1-based line and column", () => {
    const text = "{\n  \"a\": 1,\n  x\n}";
    expect(positionAt(text, text.indexOf("x"))).toEqual({ line: 3, column: 3 });
    expect(positionAt(text, 0)).toEqual({ line: 1, column: 1 });
  });
});
