import { describe, expect, it } from "vitest";
import { clipToWidth, fitToWidth, formatColumns, layoutTable, visibleWidth, wrapStyled, type TableText } from "./text-layout.js";

const BOLD = (text: string): string => `\u001b[1m${text}\u001b[22m`;
const plain = { border: (text: string) => text, head: (text: string) => text };

describe("visibleWidth", () => {
  it("counts columns, not styles, link sequences or combining marks, and wide characters as two", () => {
    expect([visibleWidth(BOLD("ok")), visibleWidth("\u001b]8;;https://a.example\u0007a\u001b]8;;\u0007"), visibleWidth("e\u0301"), visibleWidth("日本")]).toEqual([2, 1, 1, 4]);
  });
});

describe("wrapStyled", () => {
  it("wraps at word boundaries and cuts a word longer than a line where the line ends", () => {
    expect(wrapStyled("one two three four", 9)).toEqual(["one two", "three", "four"]);
    expect(wrapStyled("ab abcdefghijkl", 6)).toEqual(["ab abc", "defghi", "jkl"]);
  });

  it("closes a style open at a line's end and opens it again on the next line", () => {
    expect(wrapStyled(`a ${BOLD("bold words")} b`, 8)).toEqual(["a \u001b[1mbold\u001b[0m", "\u001b[1mwords\u001b[22m b"]);
  });

  it("keeps the lines the text already has", () => {
    expect(wrapStyled("one\ntwo", 20)).toEqual(["one", "two"]);
  });

  it("measures words of emoji and CJK by the columns they take, and cuts a long one between characters", () => {
    expect(wrapStyled("ok ✅ done ❌ 日本語のテキスト", 8)).toEqual(["ok ✅", "done ❌", "日本語の", "テキスト"]);
  });

  it("never cuts a cluster: an accent stays on its letter, a ZWJ family and a flag stay whole", () => {
    expect(wrapStyled("e\u0301e\u0301e\u0301 👨‍👩‍👧👨‍👩‍👧 🇫🇷🇫🇷", 2)).toEqual(["e\u0301e\u0301", "e\u0301", "👨‍👩‍👧", "👨‍👩‍👧", "🇫🇷", "🇫🇷"]);
  });

  it("carries a colour over a line break between wide characters", () => {
    expect(wrapStyled("\u001b[32m日本語\u001b[39m", 4)).toEqual(["\u001b[32m日本\u001b[0m", "\u001b[32m語\u001b[39m"]);
  });
});

describe("fitToWidth", () => {
  const banner = "mca · model claude-sonnet-5-5 · 14 tools · /home/someone/projects/app · session 0f8e2c1a";

  it("breaks a line of parts after a separator first, each part whole where it fits", () => {
    expect(fitToWidth(banner, 60).split("\n")).toEqual(["mca · model claude-sonnet-5-5 · 14 tools ·", "/home/someone/projects/app · session 0f8e2c1a"]);
  });

  it("wraps a part longer than a line by word, and leaves a line that fits as it is", () => {
    expect(fitToWidth("short\n1,234 tokens in (1,000 read from cache, 12 written) · 56 out", 30).split("\n")).toEqual([
      "short",
      "1,234 tokens in (1,000 read",
      "from cache, 12 written) ·",
      "56 out",
    ]);
  });

  it("keeps a dim line dim on each of its lines", () => {
    expect(fitToWidth("\u001b[2mone two · three\u001b[22m", 9).split("\n")).toEqual(["\u001b[2mone two ·\u001b[0m", "\u001b[2mthree\u001b[22m"]);
  });

  it("leaves the text as it is without a width", () => {
    expect(fitToWidth(banner, undefined)).toBe(banner);
  });
});

describe("clipToWidth", () => {
  it("cuts a line to the width with an ellipsis, never through a wide character", () => {
    expect([clipToWidth("abcdef", 4), clipToWidth("日本語テキスト", 6), clipToWidth("ok ✅✅✅", 6), clipToWidth("short", 10)]).toEqual(["abc…", "日本…", "ok ✅…", "short"]);
  });

  it("keeps only the ellipsis in one column and nothing in none, and the line whole without a width", () => {
    expect([clipToWidth("abc", 1), clipToWidth("abc", 0), clipToWidth("abc", undefined)]).toEqual(["…", "", "abc"]);
  });

  it("closes a style the cut leaves open", () => {
    expect(clipToWidth("\u001b[1mbold words\u001b[22m", 5)).toBe("\u001b[1mbold…\u001b[0m");
  });
});

describe("formatColumns", () => {
  it("pads a column of wide text by the columns it takes", () => {
    expect(formatColumns([["日本語", "a tool"], ["ok", "another"]])).toEqual(["日本語  a tool", "ok      another"]);
  });

  it("wraps a last column beside wide text within the width", () => {
    const lines = formatColumns([["/検索 <語>", "finds the words given in the files of the project"]], 40, "wrap");
    expect(lines).toEqual(["/検索 <語>  finds the words given in the", "            files of the project"]);
  });
});

describe("wrapStyled with a word of 200,000 characters (base64, a minified line)", () => {
  it("cuts it to the width without running out of stack", () => {
    const lines = wrapStyled("x".repeat(200_000), 80);
    expect({ count: lines.length, widest: Math.max(...lines.map(visibleWidth)) }).toEqual({ count: 2500, widest: 80 });
  });
});

describe("layoutTable", () => {
  const table: TableText = {
    header: ["name", "description"],
    rows: [
      ["alpha", "a long description that goes on"],
      ["beta", "short"],
    ],
    align: [null, null],
  };

  it("draws a grid when the table fits", () => {
    expect(layoutTable(table, 60, plain)).toEqual([
      "┌───────┬─────────────────────────────────┐",
      "│ name  │ description                     │",
      "├───────┼─────────────────────────────────┤",
      "│ alpha │ a long description that goes on │",
      "│ beta  │ short                           │",
      "└───────┴─────────────────────────────────┘",
    ]);
  });

  it("wraps the widest cells, with a rule between rows, when the grid is too wide", () => {
    const lines = layoutTable(table, 30, plain);
    expect(lines).toEqual([
      "┌───────┬────────────────────┐",
      "│ name  │ description        │",
      "├───────┼────────────────────┤",
      "│ alpha │ a long description │",
      "│       │ that goes on       │",
      "├───────┼────────────────────┤",
      "│ beta  │ short              │",
      "└───────┴────────────────────┘",
    ]);
    for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(30);
  });

  it("shows one record per row when the columns cannot all be wrapped within the width", () => {
    const wide: TableText = { header: ["a", "b", "c"], rows: [["1", "two words", "3"]], align: [null, null, null] };
    expect(layoutTable({ ...wide, header: ["first", "second", "third"] }, 20, plain)).toEqual(["first: 1", "second: two words", "third: 3"]);
    expect(layoutTable({ ...table, header: ["name", "description", "owner"], rows: [["alpha", "a long description that goes on", "x"], ["beta", "short", "y"]] }, 24, plain)).toEqual([
      "name: alpha",
      "description: a long",
      "  description that goes",
      "  on",
      "owner: x",
      "",
      "name: beta",
      "description: short",
      "owner: y",
    ]);
  });

  it("lines up the borders of a table with emoji and CJK cells", () => {
    const checks: TableText = { header: ["check", "ok"], rows: [["lint", "✅"], ["tests", "❌"], ["型検査", "✅ yes"]], align: [null, null] };
    expect(layoutTable(checks, 60, plain)).toEqual([
      "┌────────┬────────┐",
      "│ check  │ ok     │",
      "├────────┼────────┤",
      "│ lint   │ ✅     │",
      "│ tests  │ ❌     │",
      "│ 型検査 │ ✅ yes │",
      "└────────┴────────┘",
    ]);
  });

  it("aligns cells as the table's delimiter row says", () => {
    expect(layoutTable({ header: ["n", "x"], rows: [["1", "ab"], ["100", "c"]], align: ["right", "center"] }, 40, plain).slice(3, 5)).toEqual(["│   1 │ ab │", "│ 100 │ c  │"]);
  });
});
