import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { clusters, terminalRows, visibleWidth } from "./display-width.js";

const BOLD = (text: string): string => `\u001b[1m${text}\u001b[22m`;
const LINK = (uri: string, text: string): string => `\u001b]8;;${uri}\u0007${text}\u001b]8;;\u0007`;

describe("visibleWidth", () => {
  it("counts emoji as two columns: single, with a selector, a skin tone, a keycap, a flag and a ZWJ family", () => {
    const emoji = ["✅", "❌", "❤️", "👍🏽", "1️⃣", "🇫🇷", "👨‍👩‍👧", "🏳️‍🌈"];
    expect(emoji.map(visibleWidth)).toEqual([2, 2, 2, 2, 2, 2, 2, 2]);
  });

  it("counts CJK and fullwidth characters as two columns and halfwidth katakana as one", () => {
    expect([visibleWidth("日本語"), visibleWidth("한국어"), visibleWidth("ＡＢ"), visibleWidth("ｶﾀｶﾅ")]).toEqual([6, 6, 4, 4]);
  });

  it("counts combining marks, joiners and selectors as nothing", () => {
    expect([visibleWidth("e\u0301"), visibleWidth("a\u200db"), visibleWidth("\ufe0f"), visibleWidth("n\u0303\u0323")]).toEqual([1, 2, 0, 1]);
  });

  it("counts no column for styles, link sequences or the renderer's link marks", () => {
    expect([visibleWidth(BOLD("ok ✅")), visibleWidth(LINK("https://a.example", "日本")), visibleWidth("\u{e000}a\u{e001}")]).toEqual([5, 4, 1]);
  });

  it("counts the banner's Latin text one column a character, the middle dot included", () => {
    expect(visibleWidth("mca · model claude-sonnet-5 · café · naïve")).toBe(42);
  });
});

describe("visibleWidth beside string-width", () => {
  /** Every Latin character of the fast path, every single emoji the table draws as one, and sequences of each kind. */
  const corpus = [
    ...Array.from({ length: 0x300 - 0x20 }, (_, index) => String.fromCodePoint(0x20 + index)).filter((char) => !/\p{Cc}/u.test(char)),
    ...Array.from({ length: 0x20000 }, (_, index) => String.fromCodePoint(index)).filter((char) => /^\p{Emoji_Presentation}$/u.test(char)),
    "☝🏽", "✔️", "✔", "☑️", "©️", "©", "#️⃣", "*⃣", "🇯🇵", "🇦", "👩‍💻", "🧑🏾‍🚀", "👁️‍🗨️", "🏴‍☠️",
    "日本語のテキスト", "中文，标点。", "한글", "ｶﾞｷﾞ", "ﾊﾟ", "Ａ", "ｈｅｌｌｏ", "नमस्ते", "कि", "ภาษาไทย", "e\u0301\u0302", "\u200b", "\u00ad",
    "abc", "a\tb", "→ ← ↑", "─│┌┐", "⠋⠙⠹", "●", "✓ ✗", "…", "—", "€", "Ω", "∑",
  ];

  it("gives every cluster of the corpus the width string-width gives it", () => {
    const disagreements = corpus.filter((text) => visibleWidth(text) !== stringWidth(text)).map((text) => ({ text, ours: visibleWidth(text), stringWidth: stringWidth(text) }));
    expect(disagreements).toEqual([]);
  });
});

describe("clusters", () => {
  it("keeps a cluster whole: a base with its marks, an emoji sequence, a flag", () => {
    expect([...clusters("e\u0301✅👨‍👩‍👧🇫🇷a")]).toEqual(["e\u0301", "✅", "👨‍👩‍👧", "🇫🇷", "a"]);
  });

  it("keeps clusters whole across the pieces a long text is segmented in", () => {
    const text = `a${"🇫🇷".repeat(300)}${"e\u0301".repeat(300)}${"👨‍👩‍👧".repeat(100)}`;
    expect([...clusters(text)]).toEqual(["a", ...Array<string>(300).fill("🇫🇷"), ...Array<string>(300).fill("e\u0301"), ...Array<string>(100).fill("👨‍👩‍👧")]);
  });

  it("steps through 200,000 characters of CJK in one pass", () => {
    expect(visibleWidth("日本語✅".repeat(50_000))).toBe(400_000);
  });
});

describe("terminalRows", () => {
  it("counts a line of narrow text as its width over the terminal's, rounded up", () => {
    expect([terminalRows("", 10), terminalRows("x".repeat(10), 10), terminalRows("x".repeat(11), 10)]).toEqual([1, 1, 2]);
  });

  it("starts a row where a wide character would stand across the last column", () => {
    // "ab中" fills a row of three with its last column empty; six columns of text take five rows.
    expect(terminalRows("ab中ab中ab中", 3)).toBe(5);
  });

  it("counts one row on a terminal of unknown width", () => {
    expect(terminalRows("日本".repeat(100), Number.POSITIVE_INFINITY)).toBe(1);
  });
});
