import { describe, expect, it } from "vitest";
import { compileGlob, globMatches, literalPrefix } from "./glob.js";

/** The glob as a RegExp, as rules were once matched: right on short texts, exponential on hostile ones. */
function reference(pattern: string): RegExp {
  let source = "";
  for (const char of pattern) {
    if (char === "*") source += "[\\s\\S]*";
    else if (char === "?") source += "[\\s\\S]";
    else source += char.replace(/[.+^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "u");
}

/** Every string over `alphabet` up to `length` characters. */
function strings(alphabet: readonly string[], length: number): string[] {
  const all = [""];
  let previous = [""];
  for (let size = 1; size <= length; size += 1) {
    previous = previous.flatMap((prefix) => alphabet.map((char) => prefix + char));
    all.push(...previous);
  }
  return all;
}

describe("compileGlob", () => {
  it("splits the pattern on stars into runs of literals and counts of ?, one star standing for a run of them", () => {
    expect(compileGlob("a??b*c***d?*")).toEqual({ starred: true, segments: [["a", 2, "b"], ["c"], ["d", 1], []] });
    expect(compileGlob("read_file")).toEqual({ starred: false, segments: [["read_file"]] });
  });
});

describe("literalPrefix", () => {
  it("is the pattern up to its first * or ?, or the whole of a pattern without either", () => {
    expect(["mcp__notes__*", "mcp__note?__*", "?x", "*", "read_file", ""].map((pattern) => literalPrefix(compileGlob(pattern)))).toEqual([
      "mcp__notes__",
      "mcp__note",
      "",
      "",
      "read_file",
      "",
    ]);
  });
});

type Case = readonly [pattern: string, text: string, matches: boolean];

/** Each case with what the glob says of it, to compare whole against the cases as written. */
function judged(cases: readonly Case[]): Case[] {
  return cases.map(([pattern, text]) => [pattern, text, globMatches(compileGlob(pattern), text)]);
}

describe("globMatches", () => {
  it("matches exactly one code point with ?, a character outside the BMP included", () => {
    const cases: Case[] = [
      ["a?c", "abc", true],
      ["a?c", "a😀c", true],
      ["a??c", "a😀c", false],
      ["*?", "😀", true],
      ["?*?", "😀", false],
    ];
    expect(judged(cases)).toEqual(cases);
  });

  it("never matches half of a surrogate pair with a lone surrogate of the rule", () => {
    const cases: Case[] = [
      ["a\ud83d*", "a😀", false],
      ["*\ude00", "a😀", false],
      ["*\ude00", "a\ude00", true],
    ];
    expect(judged(cases)).toEqual(cases);
  });

  it("does not let the first and last segments share characters", () => {
    const cases: Case[] = [
      ["ab*ba", "aba", false],
      ["ab*ba", "abba", true],
      ["a*b*a", "aba", true],
      ["a*bb*a", "abba", true],
      ["a*bb*a", "aba", false],
    ];
    expect(judged(cases)).toEqual(cases);
  });

  it("agrees with the regular-expression reading on every short text over a small alphabet", () => {
    const patterns = strings(["a", "b", "*", "?"], 5);
    const texts = strings(["a", "b", "😀"], 4);
    const disagreements = patterns.flatMap((pattern) => {
      const [glob, regExp] = [compileGlob(pattern), reference(pattern)];
      return texts.filter((text) => globMatches(glob, text) !== regExp.test(text)).map((text) => [pattern, text]);
    });
    expect(disagreements).toEqual([]);
  });

  it("finds a segment with ? in it longer than 32 code points", () => {
    const pattern = `x*${"ab?".repeat(15)}*y`;
    const cases: Case[] = [
      [pattern, `x--${"abc".repeat(14)}ab😀-y`, true],
      [pattern, `x--${"abc".repeat(14)}ac😀-y`, false],
      [pattern, `x${"abc".repeat(15)}`, false],
    ];
    expect(judged(cases)).toEqual(cases);
  });

  it("decides a hostile pattern against a 1 MB text, on which the regular expression never ends", () => {
    const long = `(${"x".repeat(1_000_000)})`;
    const patterns = ["*(************************Z)", "*(************************x)", "*x*x*x*x*x*x*x*x*x*x*x*x*x*x*x*x*x*y", `*${"?".repeat(40)}y*`, `*${"x?".repeat(40)}y*`];
    expect(patterns.map((pattern) => globMatches(compileGlob(pattern), long))).toEqual([false, true, false, false, false]);
  });
});
