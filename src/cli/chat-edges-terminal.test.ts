// The chat's small edges on a real pseudo-terminal, judged by the rows the user is left with: a cancelled
// approval does not read as allowed, output never runs on from a spinner's row, a prompt typed during a turn
// stands on its own line, and the cursor is shown again however the chat ends.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { messageStart } from "../model/test-support/sse-replies.js";
import { ptyChatPerTest, startPtyChat } from "./test-support/pty-chat.js";
import { screenRows } from "./test-support/screen-rows.js";

const CTRL_C = "\u0003";
const HIDE_CURSOR = "\u001b[?25l";
const SHOW_CURSOR = "\u001b[?25h";
const SPINNER_ROW = /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /u;

/** Rows a spinner was drawn on and left behind: all but the last row, where a running spinner is drawn. */
const spinnerRowsLeft = (rows: readonly string[]): string[] => rows.slice(0, -1).filter((row) => SPINNER_ROW.test(row));

const each = ptyChatPerTest();

/** The chat's own node process (not script(1), not its shell): the one whose HOME is this test's. */
function chatProcess(): number {
  const home = `HOME=${each.project.home}\u0000`;
  const pids = readdirSync("/proc").filter((name) => /^\d+$/u.test(name)).map(Number);
  const found = pids.filter((pid) => {
    try {
      const [program, ...args] = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\u0000");
      return program === process.execPath && args.some((arg) => /\/main\.(ts|cjs)$/u.test(arg)) && readFileSync(`/proc/${pid}/environ`, "utf8").includes(home);
    } catch {
      return false; // gone meanwhile, or not ours
    }
  });
  expect(found).toHaveLength(1);
  return found[0] ?? 0;
}

const WRITE_CALL = `call write_file {"path":"a.txt","content":"x"}\r`;

describe("the chat's edges on a terminal", () => {
  it("leaves a cancelled approval as the question alone and says the call did not run", async () => {
    const chat = (each.chat = await startPtyChat(each.project));
    chat.type(WRITE_CALL);
    await chat.until(/Deny, and tell the model why/);
    chat.type(CTRL_C);
    await chat.until(/interrupted/);
    const rows = screenRows(chat.screen());
    const from = rows.findIndex((row) => row.startsWith("✖"));
    expect(rows.slice(from, from + 2)).toEqual(["✖ Allow write_file?", "cancelled: not run"]);
  }, 30_000);

  it("prints a prompt typed during a turn on its own line, under no spinner's row", async () => {
    const chat = await each.startApiChat([{ kind: "stream", events: [messageStart("claude-sonnet-5-5")], then: "hang" }], []);
    chat.type("first\r");
    await chat.until(/thinking/);
    chat.type("second question\r");
    await chat.until(/queued: sent when this turn ends/);
    const rows = screenRows(chat.screen());
    const from = rows.indexOf("› second question");
    expect(rows.slice(from, from + 2)).toEqual(["› second question", "(queued: sent when this turn ends)"]);
    expect(spinnerRowsLeft(rows)).toEqual([]);
  }, 30_000);

  it("clears the spinner before a command's output", async () => {
    const chat = (each.chat = await startPtyChat(each.project));
    chat.type(`/call bash {"command":"echo hello-from-call"}\r`);
    await chat.until(/Deny, and tell the model why/);
    chat.type("\r");
    await chat.until(/\nhello-from-call/);
    chat.type("/help\r");
    await chat.until(/\/help/);
    const rows = screenRows(chat.screen());
    expect(spinnerRowsLeft(rows)).toEqual([]);
    expect(rows).toContain("hello-from-call");
  }, 30_000);

  it("shows the cursor again when SIGTERM ends the chat during a question", async () => {
    const chat = (each.chat = await startPtyChat(each.project));
    chat.type(WRITE_CALL);
    await chat.until(/Deny, and tell the model why/);
    expect(chat.screen()).toContain(HIDE_CURSOR);
    process.kill(chatProcess(), "SIGTERM");
    expect(await chat.exited).toBe(143);
    const screen = chat.screen();
    expect(screen.lastIndexOf(SHOW_CURSOR)).toBeGreaterThan(screen.lastIndexOf(HIDE_CURSOR));
  }, 30_000);
});
