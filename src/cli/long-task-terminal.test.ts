// A long task on a real pseudo-terminal: a prompt runs until the model ends its turn, however many calls
// that takes (no fixed cap), and a limit the person sets (--max-turns) stops it with a sentence naming it.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ptyChatPerTest, startPtyChat, type PtyChat } from "./test-support/pty-chat.js";
import { screenRows } from "./test-support/screen-rows.js";

const CTRL_D = "\u0004";
const STEPS = 40;

const each = ptyChatPerTest();

/** The chat with a scripted model whose turns are `turns`, bash allowed without a question, and `args` besides. */
async function scriptedChat(turns: unknown, args: readonly string[] = []): Promise<PtyChat> {
  const script = join(each.project.home, "script.json");
  await writeFile(script, JSON.stringify(turns));
  each.chat = await startPtyChat(each.project, ["--allow", "bash", ...args], { MCA_MOCK_SCRIPT: script });
  return each.chat;
}

/** The call lines the screen shows, as the person reads them. */
const callLines = (pty: PtyChat): string[] => screenRows(pty.screen()).filter((row) => row.startsWith("● bash"));

/** One bash call per model turn, each its own step, then the final answer. */
const steps = (count: number, answer: string): unknown[] => [...Array.from({ length: count }, (_, index) => [{ name: "bash", input: { command: `echo step-${index + 1}` } }]), answer];

describe("a long task in the chat on a terminal", () => {
  it("runs a 40-step task to its end: every call, then the final answer, and no turn limit", async () => {
    const chat = await scriptedChat(steps(STEPS, "All 40 steps are done."));
    chat.type("do the whole task\r");
    await chat.until(/All 40 steps are done\./);
    expect(callLines(chat)).toEqual(Array.from({ length: STEPS }, (_, index) => `● bash {"command":"echo step-${index + 1}"}`));
    expect(chat.screen()).not.toMatch(/turn limit|Turn stopped/u);
    chat.type(CTRL_D);
    expect(await chat.exited).toBe(0);
  }, 120_000);

  it("stops at --max-turns with a sentence naming the limit and how to go on", async () => {
    const chat = await scriptedChat(steps(10, "never reached"), ["--max-turns", "3"]);
    chat.type("do the whole task\r");
    await chat.until(/Turn stopped after 3 model turns \(the turn limit\); send a message to continue, or raise the limit \(--max-turns, "maxTurns"\)\./u);
    expect(callLines(chat)).toEqual(['● bash {"command":"echo step-1"}', '● bash {"command":"echo step-2"}', '● bash {"command":"echo step-3"}']);
    expect(chat.screen()).not.toContain("never reached");
    chat.type(CTRL_D);
    expect(await chat.exited).toBe(0);
  }, 60_000);
});
