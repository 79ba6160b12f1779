// Esc on a real pseudo-terminal: it interrupts what runs (a streamed answer, a tool) as the first Ctrl-C does,
// keeping the partial answer for the model, but never leads to an exit; at the prompt it does nothing; an
// arrow key, an Alt+key or a paste (escape sequences that start with the same byte) interrupt nothing.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { replyEvents } from "../model/test-support/sse-replies.js";
import { ptyChatPerTest, startPtyChat, textsOf, type PtyChat } from "./test-support/pty-chat.js";

const ESCAPE = "\u001b";
/** Longer than what the run's redactor holds back of a stream (a secret may be cut across two deltas). */
const PARTIAL = "Partial answer: the first steps are done, and the rest of this answer is still being written.";
/** Esc pressed three times: read as one Esc at once, so a key typed right after it is not read as Alt+key. */
const ESCAPE_AT_ONCE = "\u001b\u001b\u001b";
const CTRL_C = "\u0003";
const CTRL_D = "\u0004";
const LEFT = "\u001b[D";
const ALT_B = "\u001bb";
const CTRL_E = "\u0005";

const each = ptyChatPerTest();

/** The chat with a scripted model whose turns are `turns`, bash allowed without a question. */
async function scriptedChat(turns: unknown): Promise<PtyChat> {
  const script = join(each.project.home, "script.json");
  await writeFile(script, JSON.stringify(turns));
  each.chat = await startPtyChat(each.project, ["--allow", "bash"], { MCA_MOCK_SCRIPT: script });
  return each.chat;
}

describe("Esc in the chat on a terminal", () => {
  it("interrupts a streamed answer, keeps what came of it for the model, and names no exit", async () => {
    const model = "claude-sonnet-5-5";
    // A terminal of known size: the paragraph being written is shown as it comes.
    const chat = await each.startApiChat(
      [
        { kind: "stream", events: replyEvents(model, [{ type: "text", chunks: [PARTIAL] }], "end_turn").slice(0, 4), then: "hang" },
        { kind: "stream", events: replyEvents(model, [{ type: "text", chunks: ["Second answer."] }], "end_turn") },
      ],
      ["--model", model],
      "source",
      { columns: 100, rows: 30 },
    );
    chat.type("first question\r");
    await chat.until(/esc to interrupt/);
    await chat.until(/Partial answer: the first steps/);
    chat.type(ESCAPE);
    await chat.until(/interrupted/);
    await each.api?.clientClosed(5_000);
    chat.type("second question\r");
    await chat.until(/Second answer\./);
    expect(chat.screen()).not.toContain("Ctrl-C again");
    expect(textsOf(each.api?.requests[1])).toEqual([
      { role: "user", texts: ["first question"] },
      { role: "assistant", texts: [`${PARTIAL}\n\n[interrupted by the user]`] },
      { role: "user", texts: ["second question"] },
    ]);
    chat.type(CTRL_D);
    expect(await chat.exited).toBe(0);
  }, 30_000);

  it("interrupts a running bash command, and a single Ctrl-C afterwards does not end the chat", async () => {
    const chat = await scriptedChat([[{ name: "bash", input: { command: "sleep 30" } }], "never reached"]);
    chat.type("run it\r");
    await chat.until(/bash \{"command":"sleep 30"\}[^\n]*esc to interrupt/);
    chat.type(ESCAPE);
    await chat.until(/interrupted/);
    expect(chat.screen()).not.toContain("Ctrl-C again");
    chat.type(CTRL_C);
    await chat.until(/Ctrl-C again now to exit, or Ctrl-D/);
    chat.type(CTRL_D);
    expect(await chat.exited).toBe(0);
    expect(chat.screen()).not.toContain("never reached");
  }, 30_000);

  it("does nothing at the prompt, empty or half typed: the chat goes on and the line stays", async () => {
    const chat = (each.chat = await startPtyChat(each.project));
    chat.type(ESCAPE_AT_ONCE);
    chat.type("still");
    chat.type(ESCAPE_AT_ONCE);
    chat.type(" here\r");
    // The mock model repeats the prompt it got.
    await chat.until(/You asked: "still here"/);
    expect(chat.screen()).not.toMatch(/interrupted|Ctrl-C again/);
    chat.type(CTRL_D);
    expect(await chat.exited).toBe(0);
  }, 30_000);

  it("interrupts nothing on an arrow key, an Alt+key or a paste typed while a command runs", async () => {
    const release = join(each.project.dir, "release");
    const chat = await scriptedChat([[{ name: "bash", input: { command: `while [ ! -e ${release} ]; do sleep 0.05; done; echo released` } }], "all done"]);
    chat.type("run it\r");
    await chat.until(/esc to interrupt/);
    chat.type("\u001b[200~pasted words\u001b[201~");
    await chat.until(/pasted words/);
    chat.type(LEFT);
    chat.type(ALT_B);
    chat.type(`${CTRL_E}marker`);
    // Echoed beside the spinner once read: the keys before it were read too.
    await chat.until(/marker/);
    await writeFile(release, "");
    await chat.until(/all done/);
    expect(chat.screen()).not.toContain("interrupted");
    // What was typed is still on the input line, where Ctrl-D deletes: two Ctrl-C end the chat.
    chat.type(CTRL_C);
    chat.type(CTRL_C);
    expect(await chat.exited).toBe(0);
  }, 30_000);
});
