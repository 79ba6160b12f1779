// The model's Markdown on a real pseudo-terminal, streamed by a fake Messages API: each construct rendered
// where it stands, tables kept whole within the width, and a long answer shown while it is being written.
import { describe, expect, it } from "vitest";
import { replyEvents } from "../model/test-support/sse-replies.js";
import { ptyChatPerTest, type PtyChat } from "./test-support/pty-chat.js";

const MODEL = "claude-sonnet-5-5";
const SIZE = { columns: 60, rows: 24 };
/** What the chat writes to take a block's preview off the screen before drawing its rendering. */
const ERASE_BELOW = "\u001b[J";

const each = ptyChatPerTest();

/** The screen without its styles and cursor movements: the text a reader sees, in the order it came. */
function text(screen: string): string {
  return screen.replace(/\u001b\[[0-9;?]*[A-Za-z]/gu, "").replace(/\u001b\]8;[^\u0007]*\u0007/gu, "");
}

/** A chat on a 60-column terminal whose model answers with `chunks`, `paceMs` before each event. */
async function chatAnswering(chunks: readonly string[], paceMs?: number | readonly number[]): Promise<PtyChat> {
  const events = replyEvents(MODEL, [{ type: "text", chunks }], "end_turn");
  // The Markdown renderer loads once the prompt is up, and an answer that starts before it stays plain. In the
  // bundle the launcher requires the renderer's file at once, in the same turn of the event loop that draws the
  // prompt, so it is ready before the chat reads a key.
  const started = await each.startApiChat([{ kind: "stream", events, ...(paceMs === undefined ? {} : { paceMs }) }], ["--model", MODEL], "bundle", SIZE);
  started.type("go\r");
  return started;
}

async function answerShown(chunks: readonly string[]): Promise<string> {
  const chat = await chatAnswering(chunks);
  await chat.until(/this turn/);
  // From the last time a block's preview was erased for its rendering, if one was.
  const screen = chat.screen();
  const end = screen.lastIndexOf("25 tokens in");
  return text(screen.slice(Math.max(screen.lastIndexOf("go\r\n") + 4, screen.lastIndexOf(ERASE_BELOW, end) + ERASE_BELOW.length), end));
}

describe("Markdown on the terminal", () => {
  it("renders inline marks inside list items", async () => {
    const shown = await answerShown(["* it prints **ok**\n* run `node x.js`\n", "* see [the docs](https://x.example)\n"]);
    expect(shown).toContain("  • it prints ok\r\n  • run node x.js\r\n  • see the docs (https://x.example)\r\n");
    expect(shown).not.toMatch(/\*\*|`/u);
  }, 30_000);

  it("indents nested lists under their items", async () => {
    const shown = await answerShown(["- top\n  - nested *em*\n    - deeper `code`\n- second\n"]);
    expect(shown).toContain("  • top\r\n    ◦ nested em\r\n      ▪ deeper code\r\n  • second\r\n");
  }, 30_000);

  it("renders a block quote's inline marks behind a bar", async () => {
    const shown = await answerShown(["> quoted **bold** and `code`\n"]);
    expect(shown).toContain("│ quoted bold and code\r\n");
  }, 30_000);

  it("renders inline marks inside table cells", async () => {
    const shown = await answerShown(["| a | b |\n|---|---|\n| **x** | `y` |\n"]);
    expect(shown).toContain("│ a │ b │\r\n├───┼───┤\r\n│ x │ y │\r\n└───┴───┘\r\n");
  }, 30_000);

  it("wraps the cells of a table too wide for the terminal, every line within the width", async () => {
    const row = (name: string) => `| ${name} | tool | ${"what it does in words ".repeat(2)}| someone | ok | today |\n`;
    const shown = await answerShown(["| name | kind | description | owner | status | since |\n|---|---|---|---|---|---|\n", row("alpha"), row("beta")]);
    expect(shown).toContain("│ alpha │ tool │ what it does │ someone │ ok     │ today │\r\n│       │      │ in words     │         │        │       │\r\n");
    // The table as drawn last (the spinner's frames may stand before it on its first row).
    for (const line of shown.slice(shown.lastIndexOf("┌")).split("\r\n")) expect(line.length).toBeLessThanOrEqual(SIZE.columns);
  }, 30_000);

  it("shows a table whose columns cannot fit the terminal even wrapped as one record per row", async () => {
    const header = Array.from({ length: 8 }, (_, index) => `column${index + 1}`);
    const row = (name: string) => `| ${header.map((column) => `${name} ${column}`).join(" | ")} |\n`;
    const shown = await answerShown([`| ${header.join(" | ")} |\n|${"---|".repeat(8)}\n`, row("alpha"), row("beta")]);
    expect(shown).toContain("column1: alpha column1\r\ncolumn2: alpha column2\r\n");
    expect(shown).toContain("column8: alpha column8\r\n\r\ncolumn1: beta column1\r\n");
    for (const line of shown.slice(shown.lastIndexOf("column1: alpha")).split("\r\n")) expect(line.length).toBeLessThanOrEqual(SIZE.columns);
  }, 30_000);
});

describe("streaming on the terminal", () => {
  it("shows a code block's lines while the block is still being written, and highlights it when it closes", async () => {
    const lines = Array.from({ length: 60 }, (_, index) => `const line${String(index).padStart(2, "0")} = ${index};\n`);
    // 60 lines over 3 s, each line an event of its own after 50 ms.
    const chat = await chatAnswering(["Here is the file:\n\n```js\n", ...lines, "```\n"], 50);
    await chat.until(/const line05 = 5;/u);
    const early = text(chat.screen());
    expect(early).not.toContain("line59");
    await chat.until(/this turn/u);
    // Plain while streaming; once closed, the lines in view are drawn again in colour.
    expect(early).toContain("  const line05 = 5;\r\n");
    expect(chat.screen()).toMatch(/\u001b\[[0-9;]*mconst\u001b\[[0-9;]*m line59/u);
  }, 30_000);

  it("shows a paragraph as it streams, then its rendering once complete", async () => {
    const chat = await chatAnswering(["Some **bold", "** words that ", "keep coming", " slowly.\n\nNext."], 400);
    await chat.until(/Some \*\*bold/u);
    expect(text(chat.screen())).not.toContain("keep coming");
    await chat.until(/this turn/u);
    const screen = chat.screen();
    expect(text(screen.slice(screen.lastIndexOf(ERASE_BELOW)))).not.toContain("**");
    expect(chat.screen()).toMatch(/\u001b\[1mbold\u001b\[22m words that keep coming slowly\./u);
  }, 30_000);

  it("spins with the seconds counted when nothing has arrived for a second, below the line being written", async () => {
    // The third event (the first words) comes at once, the next after 2.5 s of silence.
    // The chat holds back the last few characters of streamed words until it knows they begin no secret.
    const chat = await chatAnswering(["Half a line that goes on for a while and then stops", " and the rest.\n"], [0, 0, 0, 0, 2500]);
    await chat.until(/Half a line that goes on/u);
    await chat.until(/thinking · 1 s/u);
    await chat.until(/this turn/u);
    // The spinner stood on the line below, and the words went on where they had stopped.
    expect(chat.screen()).toMatch(/Half a line that goes on[^\r\n]*\r\n\r\u001b\[K. thinking · 1 s[\s\S]*\r\u001b\[K\u001b\[1A\u001b\[\d+G[^\r\n]*the rest\./u);
    const screen = chat.screen();
    expect(text(screen.slice(screen.lastIndexOf(ERASE_BELOW)))).toContain("Half a line that goes on for a while and then stops and\r\nthe rest.");
  }, 30_000);
});
