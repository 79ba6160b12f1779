import { describe, expect, it } from "vitest";
import { createMarkdownBlocks, loadMarkdownRenderer } from "./markdown.js";

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
