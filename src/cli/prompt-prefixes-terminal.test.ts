// What a line typed in the chat starts with, on a real pseudo-terminal against the fake Messages API:
// `@path` attaches a project file (Tab completes it) and `!command` runs a command as the person's own,
// its output shown and carried by the next request; a deny rule refuses it.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { replyEvents } from "../model/test-support/sse-replies.js";
import { shellContextText } from "./shell-line.js";
import { ptyChatPerTest, textsOf, type PtyChat } from "./test-support/pty-chat.js";
import { screenRows } from "./test-support/screen-rows.js";

const MODEL = "claude-sonnet-5-5";
const CTRL_D = "\u0004";
const TAB = "\t";
const ESCAPE = "\u001b\u001b\u001b";

const each = ptyChatPerTest(async (project) => {
  await writeFile(join(project.dir, "calc.js"), "export const add = (a, b) => a + b;\n");
});

/** The chat against the fake API, which answers each request with the next of `answers`. */
async function chatAnswering(answers: readonly string[], args: readonly string[] = []): Promise<PtyChat> {
  const replies = answers.map((text) => ({ kind: "stream" as const, events: replyEvents(MODEL, [{ type: "text", chunks: [text] }], "end_turn") }));
  return each.startApiChat(replies, ["--model", MODEL, ...args], "source", { columns: 120, rows: 40 });
}

describe("@path in the chat on a terminal", () => {
  it("completes a file name on Tab, and the request carries the file's numbered lines", async () => {
    const chat = await chatAnswering(["It adds two numbers."]);
    chat.type(`what does @ca${TAB}`);
    await chat.until(/what does @calc\.js/);
    chat.type(" do?\r");
    await chat.until(/It adds two numbers\./);
    expect(screenRows(chat.screen())).toContain("@calc.js: [text, 1 line shown]");
    expect(textsOf(each.api?.requests[0])).toEqual([
      { role: "user", texts: ["what does @calc.js do?\n\n@calc.js (as read_file shows it)\n```\n1\texport const add = (a, b) => a + b;\n```"] },
    ]);
    chat.type(CTRL_D);
    expect(await chat.exited).toBe(0);
  }, 60_000);
});

describe("!command in the chat on a terminal", () => {
  it("runs the command without a question, shows its output, and the next request carries it", async () => {
    const chat = await chatAnswering(["It printed hi."]);
    chat.type("!echo hi\r");
    // The output, then the prompt back.
    await chat.until(/\(\+1 lines\)[^]*(\n|\u001b\[K)hi\r\n[^]*› /u);
    const rows = screenRows(chat.screen());
    expect(rows.slice(rows.findIndex((row) => row.includes("!echo hi")) + 1).filter((row) => row.trim() !== "" && !row.startsWith("›"))).toEqual([
      '● bash {"command":"echo hi"}',
      "  ✓ exit code 0 (+1 lines)",
      "hi",
    ]);
    expect(chat.screen()).not.toMatch(/Allow|approval/u);
    chat.type("what did it print?\r");
    await chat.until(/It printed hi\./);
    expect(textsOf(each.api?.requests[0])).toEqual([{ role: "user", texts: [shellContextText("echo hi", { isError: false, text: "exit code 0\nhi\n" }), "what did it print?"] }]);
    chat.type(CTRL_D);
    expect(await chat.exited).toBe(0);
  }, 60_000);

  it("is refused by a deny rule: nothing runs, and the next request carries nothing of it", async () => {
    await writeFile(join(each.project.dir, ".env"), "API_TOKEN=kept-out-of-sight\n");
    const chat = await chatAnswering(["Hello."], ["--deny", "bash(cat .env*)"]);
    chat.type("!cat .env\r");
    await chat.until(/refused by the approval gate/);
    expect(chat.screen()).not.toContain("kept-out-of-sight");
    chat.type("hello\r");
    await chat.until(/Hello\./);
    expect(textsOf(each.api?.requests[0])).toEqual([{ role: "user", texts: ["hello"] }]);
    chat.type(CTRL_D);
    expect(await chat.exited).toBe(0);
  }, 60_000);

  it("is interrupted by Esc while it runs, and the chat goes on", async () => {
    const chat = await chatAnswering([]);
    chat.type("!sleep 30\r");
    await chat.until(/bash \{"command":"sleep 30"\}[^\n]*esc to interrupt/);
    chat.type(ESCAPE);
    await chat.until(/Aborted by the user\.[^]*› /u);
    chat.type("/help\r");
    await chat.until(/!<command>/);
    chat.type(CTRL_D);
    expect(await chat.exited).toBe(0);
  }, 60_000);
});

describe("!command without a terminal", () => {
  it("is refused in pipe mode and with -p, runs nothing and says where it runs", async () => {
    const marker = join(each.project.dir, "ran");
    const piped = await each.project.run([], `!touch ${marker}\n`);
    const printed = await each.project.run(["-p", `!touch ${marker}`], "");
    for (const run of [piped, printed]) {
      expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 1, stdout: "" });
      expect(run.stderr).toContain("a !command line runs only in the chat, where you type it");
    }
    await expect(readFile(marker)).rejects.toThrow(/ENOENT/u);
  }, 60_000);
});
