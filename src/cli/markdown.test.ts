import { afterAll, describe, expect, it } from "vitest";
import { createMarkdownBlocks, loadMarkdownRenderer, terminalDrawsHyperlinks } from "./markdown.js";

// marked-terminal decides once, as it loads, whether the terminal draws links, and then makes every link one
// (showing only its text). Told that it does, the renderer must still decide by itself.
const forcedHyperlink = process.env.FORCE_HYPERLINK;
process.env.FORCE_HYPERLINK = "1";
afterAll(() => {
  if (forcedHyperlink === undefined) delete process.env.FORCE_HYPERLINK;
  else process.env.FORCE_HYPERLINK = forcedHyperlink;
});

describe("createMarkdownBlocks", () => {
  it("gives each block once a blank line completes it, and the rest at the end", () => {
    const blocks = createMarkdownBlocks();
    expect(blocks.push("# Title\n")).toBe("");
    expect(blocks.push("\nSome ")).toBe("# Title\n\n");
    expect(blocks.push("words.\n")).toBe("");
    expect(blocks.push("\n- a\n- b")).toBe("Some words.\n\n");
    expect(blocks.end()).toBe("- a\n- b");
    expect(blocks.end()).toBe("");
  });

  it("keeps a fenced code block whole, blank lines inside it included, until its closing fence", () => {
    const blocks = createMarkdownBlocks();
    expect(blocks.push("```ts\nconst a = 1;\n\n")).toBe("");
    expect(blocks.push("const b = 2;\n``")).toBe("");
    // A shorter or different fence does not close it.
    expect(blocks.push("`\n")).toBe("```ts\nconst a = 1;\n\nconst b = 2;\n```\n");
    expect(blocks.push("~~~~\n```\n\n~~~\n\nnot yet")).toBe("");
    expect(blocks.push("\n~~~~\n")).toBe("~~~~\n```\n\n~~~\n\nnot yet\n~~~~\n");
  });

  it("cuts a delta that completes several blocks at the last boundary", () => {
    const blocks = createMarkdownBlocks();
    expect(blocks.push("one\n\ntwo\n\nthree")).toBe("one\n\ntwo\n\n");
    expect(blocks.end()).toBe("three");
  });
});

describe("loadMarkdownRenderer", () => {
  it("renders headings, emphasis, tables and code without leaving the Markdown marks", async () => {
    const render = await loadMarkdownRenderer(() => 60);
    const shown = render("# Title\n\nSome **bold** text.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nconst x = 1;\n```\n");
    expect(shown).toContain("Title");
    expect(shown).not.toContain("**bold**");
    expect(shown).toContain("bold");
    expect(shown).toContain("│");
    expect(shown).toContain("const");
    expect(shown).not.toContain("```");
  });

  it("shows a control sequence in the model's text instead of passing it to the terminal", async () => {
    const render = await loadMarkdownRenderer(() => 60);
    const shown = render("Copy this \u001b]52;c;ZXZpbA==\u0007 and \u009b2J.\n");
    expect(shown).toContain("\\u001b]52;c;ZXZpbA==\\u0007");
    expect(shown).not.toContain("\u001b]52");
    expect(shown).not.toContain("\u0007");
    expect(shown).not.toContain("\u009b");
  });
});

describe("loadMarkdownRenderer's layout", () => {
  /** What the terminal shows, its styles left out: the unit tests run without colour, the pty tests with it. */
  const shown = async (markdown: string, columns = 60): Promise<string> => (await loadMarkdownRenderer(() => columns))(markdown).replace(/\u001b\[[0-9;]*m/gu, "");

  it("renders inline marks inside list items: emphasis, code and links", async () => {
    expect(await shown("* it prints **ok**\n* run `node x.js`\n* [a link](https://x.example)\n")).toBe("  • it prints ok\n  • run node x.js\n  • a link (https://x.example)\n");
  });

  it("indents nested lists under their item, with a bullet for each depth and numbers kept", async () => {
    expect(await shown("- top\n  - nested *em*\n    - deeper `code`\n- second\n\n9. nine\n10. ten\n")).toBe(
      "  • top\n    ◦ nested em\n      ▪ deeper code\n  • second\n\n  9.  nine\n  10. ten\n",
    );
  });

  it("wraps a list item's text under itself within the width", async () => {
    expect(await shown("- a list item whose words go past the end of the line\n", 30)).toBe("  • a list item whose words\n    go past the end of the\n    line\n");
  });

  it("renders a block quote's inline marks and lists behind a bar, wrapped within the width", async () => {
    expect(await shown("> quoted **bold** and `code` and more words to wrap\n> - a list\n", 30)).toBe("│ quoted bold and code and\n│ more words to wrap\n│ \n│   • a list\n");
  });

  it("renders inline marks inside table cells", async () => {
    expect(await shown("| a | b |\n|---|---|\n| **x** | `y` |\n")).toBe("┌───┬───┐\n│ a │ b │\n├───┼───┤\n│ x │ y │\n└───┴───┘\n");
  });

  it("wraps the cells of a table too wide for the terminal, and never breaks a row across the screen", async () => {
    const table = `| name | description |\n|---|---|\n| alpha | ${"words that go on ".repeat(4)}|\n`;
    const lines = (await shown(table, 40)).trimEnd().split("\n");
    expect(lines[3]).toBe("│ alpha │ words that go on words     │");
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
  });

  it("lines up a table's borders when its cells hold emoji drawn two columns wide", async () => {
    expect(await shown("| check | result |\n|---|:---:|\n| lint | ✅ |\n| tests | ❌ |\n")).toBe(
      "┌───────┬────────┐\n│ check │ result │\n├───────┼────────┤\n│ lint  │   ✅   │\n│ tests │   ❌   │\n└───────┴────────┘\n",
    );
  });

  it("wraps a heading of wide characters within the width left to it (two columns less than the terminal)", async () => {
    expect(await shown("## 日本語の見出しはとても長くなることがあります\n", 24)).toBe("## 日本語の見出しはと\nても長くなることがあり\nます\n");
  });

  it("shows one record per row when a table's columns cannot fit the terminal even wrapped", async () => {
    const table = "| name | kind | description | owner | status |\n|---|---|---|---|---|\n| alpha | tool | what it does | someone | ok |\n| beta | prompt | short | x | failed |\n";
    expect(await shown(table, 40)).toBe(
      "name: alpha\nkind: tool\ndescription: what it does\nowner: someone\nstatus: ok\n\nname: beta\nkind: prompt\ndescription: short\nowner: x\nstatus: failed\n",
    );
  });
});

describe("loadMarkdownRenderer's links", () => {
  const OSC8 = "\u001b]8;";

  it("shows the target after a link's text when they differ, and never makes such a link clickable", async () => {
    const render = await loadMarkdownRenderer(() => 80, true);
    expect(render("See [the docs](https://evil.example/x) now.\n")).toBe("See the docs (https://evil.example/x) now.\n");
    expect(render("[https://good.example](https://evil.example)\n")).toBe("https://good.example (https://evil.example)\n");
  });

  it("shows the text's own rendering before the target", async () => {
    const render = await loadMarkdownRenderer(() => 80, true);
    expect(render("[**bold** docs](https://x.example)\n")).toBe("bold docs (https://x.example)\n");
  });

  it("makes a link clickable only when its text is its URL, and only where the terminal draws links", async () => {
    const link = "https://a.example/b";
    const markdown = `Go to <${link}> or ${link} or [${link}](${link}).\n`;
    const clickable = `${OSC8};${link}\u0007${link}${OSC8};\u0007`;
    expect((await loadMarkdownRenderer(() => 80, true))(markdown)).toBe(`Go to ${clickable} or ${clickable} or ${clickable}.\n`);
    expect((await loadMarkdownRenderer(() => 80, false))(markdown)).toBe(`Go to ${link} or ${link} or ${link}.\n`);
  });

  it("keeps a clickable link whole when the paragraph is wrapped through it", async () => {
    const link = `https://a.example/${"long-path/".repeat(6)}`;
    const shown = (await loadMarkdownRenderer(() => 30, true))(`Words before <${link}> and after.\n`);
    // The link's text is cut over four lines; its sequences are whole around it.
    expect(shown.split("\n").length).toBe(5);
    expect(shown.replace(/\n/g, "")).toBe(`Words before ${OSC8};${link}\u0007${link}${OSC8};\u0007 and after.`);
  });

  it("shows the private-use marks a clickable link is made with as escapes when the model writes them", async () => {
    const render = await loadMarkdownRenderer(() => 80, true);
    expect(render("a \u{e000}b\u{e001} c\n")).toBe("a \\ue000b\\ue001 c\n");
  });

  it("shows an e-mail address as itself, its mailto: link being no other place", async () => {
    const render = await loadMarkdownRenderer(() => 80, false);
    expect(render("Write to a@b.example.\n")).toBe("Write to a@b.example.\n");
  });

  it("shows a control sequence in a link's target instead of passing it to the terminal", async () => {
    const render = await loadMarkdownRenderer(() => 80, true);
    const shown = render("[x](https://a.example/\u001b]8;;https://evil.example\u0007)\n");
    expect(shown).toBe("x (https://a.example/\\u001b]8;;https://evil.example\\u0007)\n");
  });
});

describe("terminalDrawsHyperlinks", () => {
  it("says yes for terminals known to draw OSC 8 links, and lets FORCE_HYPERLINK decide", () => {
    const cases: ReadonlyArray<[Record<string, string>, boolean]> = [
      [{}, false],
      [{ TERM: "xterm-256color" }, false],
      [{ TERM_PROGRAM: "iTerm.app" }, true],
      [{ TERM_PROGRAM: "WezTerm" }, true],
      [{ WT_SESSION: "x" }, true],
      [{ TERM: "xterm-kitty" }, true],
      [{ VTE_VERSION: "4902" }, false],
      [{ VTE_VERSION: "7600" }, true],
      [{ FORCE_HYPERLINK: "1" }, true],
      [{ FORCE_HYPERLINK: "0", TERM_PROGRAM: "iTerm.app" }, false],
    ];
    expect(cases.map(([env]) => terminalDrawsHyperlinks(env))).toEqual(cases.map(([, draws]) => draws));
  });
});
