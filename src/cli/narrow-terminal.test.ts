// The chat on a real pseudo-terminal 60 columns wide: the lines mca prints itself (the banner, /status, the
// cost line) are wrapped by word within the screen, never cut by the terminal at its edge, and a table whose
// cells hold emoji keeps its borders in line. Widths are judged by string-width, not by mca's own measure.
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { replyEvents } from "../model/test-support/sse-replies.js";
import { ptyChatPerTest, type PtyChat } from "./test-support/pty-chat.js";
import { screenRows } from "./test-support/screen-rows.js";

const MODEL = "claude-sonnet-5-5";
const SIZE = { columns: 60, rows: 24 };
const COST_LINE = /\d+ tokens in \(\d+ read from cache, \d+ written\) · \d+ out · ~\$[\d.]+ this turn · ~\$[\d.]+ this session/u;
const TABLE = "| check | result |\n|---|---|\n| lint | ✅ passed |\n| tests | ❌ 2 failed |\n| 型検査 | ✅ |\n";
/** The Markdown renderer loads once the prompt is up: the answer is asked for again until one comes rendered. */
const MAX_ASKS = 8;
const BORDERS = new Set(["│", "┌", "┬", "┐", "├", "┼", "┤", "└", "┴", "┘"]);

const each = ptyChatPerTest();

/** A chat on a 60-column terminal whose model answers every prompt with `answer`. */
async function narrowChat(answer: string): Promise<PtyChat> {
  const reply = { kind: "stream" as const, events: replyEvents(MODEL, [{ type: "text", chunks: [answer] }], "end_turn") };
  return each.startApiChat(Array.from({ length: MAX_ASKS }, () => reply), ["--model", MODEL], "source", SIZE);
}

/** The rows the screen shows that are wider than it: the terminal would cut each one at its edge. */
const tooWide = (rows: readonly string[]): string[] => rows.filter((row) => stringWidth(row) > SIZE.columns);

/** The words of the rows, in order, one space apart: a text wrapped by word reads the same as before. */
const words = (rows: readonly string[]): string => rows.join(" ").replace(/ +/gu, " ");

/** The display columns where a row's borders stand. */
function borderColumns(row: string): number[] {
  const columns: number[] = [];
  let at = 0;
  for (const { segment } of new Intl.Segmenter().segment(row)) {
    if (BORDERS.has(segment)) columns.push(at);
    at += stringWidth(segment);
  }
  return columns;
}

describe("the chat on a terminal 60 columns wide", () => {
  it("wraps the banner by word within the screen", async () => {
    const chat = await narrowChat("ok");
    const rows = screenRows(chat.screen());
    expect(tooWide(rows)).toEqual([]);
    expect(words(rows)).toContain(`mca · model ${MODEL} · `);
    expect(words(rows)).toContain(` · ${each.project.dir} · session `);
    expect(words(rows)).toContain("/help lists the commands · ");
  }, 30_000);

  it("wraps /status and the cost line by word within the screen", async () => {
    const chat = await narrowChat("ok");
    chat.type("/status\r");
    await chat.until(/session: /u);
    chat.type("go\r");
    await chat.until(/this session/u);
    const rows = screenRows(chat.screen());
    expect(tooWide(rows)).toEqual([]);
    expect(words(rows)).toContain("context: no request yet (or none since the last /clear or compaction)");
    expect(words(rows)).toMatch(COST_LINE);
  }, 30_000);

  it("keeps the borders of a table with ✅ and ❌ cells in line on every row", async () => {
    const chat = await narrowChat(TABLE);
    let table: string[] = [];
    for (let asked = 1; asked <= MAX_ASKS && table.length === 0; asked += 1) {
      chat.type("go\r");
      await chat.until(new RegExp(`(this session[\\s\\S]*){${asked}}`, "u"));
      const rows = screenRows(chat.screen());
      const top = rows.reduce((found, row, index) => (row.startsWith("┌") ? index : found), -1);
      if (top !== -1 && rows.slice(top).some((row) => row.startsWith("└"))) table = rows.slice(top, rows.findIndex((row, index) => index > top && row.startsWith("└")) + 1);
    }
    expect(table.map((row) => row.replace(/ +/gu, " "))).toEqual([
      "┌────────┬─────────────┐",
      "│ check │ result │",
      "├────────┼─────────────┤",
      "│ lint │ ✅ passed │",
      "│ tests │ ❌ 2 failed │",
      "│ 型検査 │ ✅ │",
      "└────────┴─────────────┘",
    ]);
    const columns = table.map(borderColumns);
    expect(columns).toEqual(table.map(() => [0, 9, 23]));
  }, 60_000);
});
