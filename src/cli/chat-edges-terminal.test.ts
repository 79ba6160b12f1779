// The chat's small edges on a real pseudo-terminal, judged by the rows the user is left with: a cancelled
// approval does not read as allowed, output never runs on from a spinner's row, a prompt typed during a turn
// stands on its own line, and the cursor is shown again however the chat ends.
import { readdirSync, readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeMessagesApi, type FakeMessagesApi } from "../model/test-support/fake-messages-api.js";
import { messageStart } from "../model/test-support/sse-replies.js";
import { startPtyChat, type PtyChat } from "./test-support/pty-chat.js";
import { createTempProject, type TempProject } from "./test-support/run-cli.js";
import { screenRows } from "./test-support/screen-rows.js";

const CTRL_C = "\u0003";
const HIDE_CURSOR = "\u001b[?25l";
const SHOW_CURSOR = "\u001b[?25h";
const SPINNER_ROW = /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /u;

/** Rows a spinner was drawn on and left behind: all but the last row, where a running spinner is drawn. */
const spinnerRowsLeft = (rows: readonly string[]): string[] => rows.slice(0, -1).filter((row) => SPINNER_ROW.test(row));

let project: TempProject;
let chat: PtyChat | undefined;
let api: FakeMessagesApi | undefined;
beforeEach(async () => {
  project = await createTempProject();
});
afterEach(async () => {
  chat?.kill();
  chat = undefined;
  await api?.close();
  api = undefined;
  await project.remove();
});

/** The chat's own node process (not script(1), not its shell): the one whose HOME is this test's. */
function chatProcess(): number {
  const home = `HOME=${project.home}\u0000`;
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
    chat = await startPtyChat(project);
    chat.type(WRITE_CALL);
    await chat.until(/Deny, and tell the model why/);
    chat.type(CTRL_C);
    await chat.until(/interrupted/);
    const rows = screenRows(chat.screen());
    const from = rows.findIndex((row) => row.startsWith("✖"));
    expect(rows.slice(from, from + 2)).toEqual(["✖ Allow write_file?", "cancelled: not run"]);
  }, 30_000);

  it("prints a prompt typed during a turn on its own line, under no spinner's row", async () => {
    api = await startFakeMessagesApi([{ kind: "stream", events: [messageStart("claude-sonnet-5-5")], then: "hang" }]);
    chat = await startPtyChat(project, [], { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: api.baseURL });
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
    chat = await startPtyChat(project);
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
    chat = await startPtyChat(project);
    chat.type(WRITE_CALL);
    await chat.until(/Deny, and tell the model why/);
    expect(chat.screen()).toContain(HIDE_CURSOR);
    process.kill(chatProcess(), "SIGTERM");
    expect(await chat.exited).toBe(143);
    const screen = chat.screen();
    expect(screen.lastIndexOf(SHOW_CURSOR)).toBeGreaterThan(screen.lastIndexOf(HIDE_CURSOR));
  }, 30_000);
});
