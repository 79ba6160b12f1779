import { describe, expect, it } from "vitest";
import { createLiveText, previewOf, rowsOf } from "./live-text.js";

describe("previewOf", () => {
  it("shows a paragraph as it stands, a code block's complete lines only, and a table once its header is complete", () => {
    expect([previewOf("Some **bo"), previewOf("```ts\nconst a = 1;\ncon"), previewOf("```ts\na\n```\n"), previewOf("| a | b |\n"), previewOf("| a | b |\n|---|---|\n")]).toEqual([
      { text: "Some **bo", code: false },
      { text: "  const a = 1;\n", code: true },
      { text: "  a\n", code: true },
      { text: "", code: false },
      { text: "| a | b |\n|---|---|\n", code: false },
    ]);
  });

  it("shows control sequences as escapes and tabs as spaces", () => {
    expect(previewOf("a\u001b[2Jb\tc")).toEqual({ text: "a\\u001b[2Jb     c", code: false });
  });

  it("puts a tab's stop after wide characters by the columns they take", () => {
    expect(previewOf("日本\tx")).toEqual({ text: "日本    x", code: false });
  });
});

describe("rowsOf", () => {
  it("counts the rows a text takes, long lines wrapped by the terminal", () => {
    expect([rowsOf("abc", 10), rowsOf("abc\n", 10), rowsOf("x".repeat(25), 10), rowsOf("x".repeat(20), 10)]).toEqual([1, 2, 3, 2]);
  });

  it("counts emoji and CJK as two columns, a wide character at the edge moved to the next row", () => {
    expect([rowsOf("✅".repeat(5), 10), rowsOf("✅".repeat(6), 10), rowsOf("ab中ab中ab中", 3)]).toEqual([1, 2, 5]);
  });
});

describe("createLiveText", () => {
  const setup = (rows: number) => {
    const written: string[] = [];
    const live = createLiveText({ write: (text) => written.push(text), columns: () => 20, rows: () => rows });
    return { written, live };
  };

  it("writes what arrives and replaces it with the rendering once the block is complete", () => {
    const { written, live } = setup(24);
    live.show("Some **bold");
    live.show("Some **bold** words\nmore");
    live.finish("Some **bold** words\nmore\n\n", "Some bold words more\n");
    expect(written).toEqual(["Some **bold", "** words\nmore", "\n\n", "\r\u001b[3A\u001b[J", "Some bold words more\n"]);
  });

  it("draws again only the lines of a code block still on the screen", () => {
    const { written, live } = setup(3);
    live.show("```\na\nb\nc\n");
    live.finish("```\na\nb\nc\nd\n```\n", "  A\n  B\n  C\n  D\n");
    expect(written).toEqual(["  a\n  b\n  c\n", "  d\n", "\r\u001b[2A\u001b[J  C\n  D\n"]);
  });

  it("leaves a paragraph taller than the screen as it was shown", () => {
    const { written, live } = setup(3);
    live.show("one\ntwo\nthree\nfour");
    live.finish("one\ntwo\nthree\nfour\n\n", "one two three four\n");
    expect(written).toEqual(["one\ntwo\nthree\nfour", "\n\n", ""]);
  });
});
