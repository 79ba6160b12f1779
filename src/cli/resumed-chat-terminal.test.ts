// A resumed chat on a real pseudo-terminal (--resume, -c): before the first prompt it shows the conversation
// it goes on with — the person's prompt, the answer rendered as Markdown, each call as one line with its outcome.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ptyChatPerTest, startPtyChat } from "./test-support/pty-chat.js";
import { screenRows } from "./test-support/screen-rows.js";

const CTRL_D = "\u0004";
const BOLD = "\u001b[1m";

const each = ptyChatPerTest(async (project) => {
  await writeFile(join(project.dir, "calc.js"), "export const add = (a, b) => a + b;\n");
  // The earlier session: a prompt, a call of read_file, an answer in Markdown.
  const script = join(project.home, "script.json");
  await writeFile(script, JSON.stringify([[{ name: "read_file", input: { path: "calc.js" } }], "It **adds** two numbers."]));
  const earlier = await startPtyChat(project, [], { MCA_MOCK_SCRIPT: script });
  earlier.type("what is in calc.js?\r");
  await earlier.until(/two numbers\./);
  earlier.type(CTRL_D);
  await earlier.exited;
});

/** What the resumed chat showed of the conversation, from its banner to the line where it goes on. */
async function resumedScreen(args: readonly string[]): Promise<{ rows: string[]; bytes: string }> {
  const chat = (each.chat = await startPtyChat(each.project, args));
  await chat.until(/the conversation goes on from here/);
  const rows = screenRows(chat.screen());
  const from = rows.findIndex((row) => row.includes("Ctrl-D exits"));
  return { rows: rows.slice(from + 1, rows.findIndex((row) => row.includes("the conversation goes on from here")) + 1).filter((row) => row.trim() !== ""), bytes: chat.screen() };
}

describe("a resumed chat on a terminal", () => {
  it.each([["--resume"], ["-c"]])("%s shows the earlier prompt, the call with its outcome and the answer rendered as Markdown", async (flag) => {
    const { rows, bytes } = await resumedScreen([flag]);
    expect(rows).toEqual([
      "› what is in calc.js?",
      '● read_file {"path":"calc.js"} ✓ 1 export const add = (a, b) => a + b;',
      "It adds two numbers.",
      "── resumed: the conversation goes on from here ──",
    ]);
    // Rendered: the word in bold, the Markdown marks gone.
    expect(bytes).toContain(`${BOLD}adds`);
    expect(bytes).not.toContain("**adds**");
    each.chat?.type(CTRL_D);
    expect(await each.chat?.exited).toBe(0);
  }, 60_000);

  it("shows none of it with -p: stdout stays the answer", async () => {
    const run = await each.project.run(["-c", "-p", "and now?"], "");
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: expect.stringMatching(/^You asked: "and now\?"/u) });
    expect(run.stdout + run.stderr).not.toMatch(/calc\.js|goes on from here/u);
  }, 60_000);
});
