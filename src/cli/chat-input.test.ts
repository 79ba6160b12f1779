import { afterEach, describe, expect, it } from "vitest";
import { createChatInput } from "./chat-input.js";
import { createPromptsAsker } from "./terminal.js";
import { createMemoryTerminal, destroyMemoryTerminals } from "./test-support/memory-terminal.js";
import { waitFor } from "./test-support/wait-for.js";

const ESCAPE = "\u001b";
const CTRL_C = "\u0003";
const LEFT = "\u001b[D";
const ALT_B = "\u001bb";
afterEach(destroyMemoryTerminals);

function chatInputOnMemory() {
  const terminal = createMemoryTerminal();
  const sent: string[] = [];
  let escapes = 0;
  const chatInput = createChatInput({
    input: terminal.input,
    output: terminal.output,
    promptText: "> ",
    onLine: (text) => sent.push(text),
    onInterrupt: () => undefined,
    onEnd: () => undefined,
    onEscape: () => (escapes += 1),
  });
  return { ...terminal, chatInput, sent, escapes: () => escapes };
}

describe("createChatInput", () => {
  it("holds a line printed above the input while the terminal is lent out, and prints it when it comes back", async () => {
    const { chatInput, shown } = chatInputOnMemory();
    let seenDuringQuestion = "";
    await chatInput.suspend(async () => {
      chatInput.printAbove("mcp: notes: disconnected");
      expect(chatInput.suspended).toBe(true);
      seenDuringQuestion = shown();
    });
    expect(seenDuringQuestion).not.toContain("disconnected");
    expect(shown()).toContain("mcp: notes: disconnected\n");
    expect(chatInput.suspended).toBe(false);
    chatInput.close();
  });

  it("reports a lone Esc and leaves the line being typed as it is", async () => {
    const { chatInput, type, sent, escapes } = chatInputOnMemory();
    type("half typed");
    type(ESCAPE);
    await waitFor("the Esc", () => escapes() === 1);
    type(" and sent\r");
    await waitFor("the line", () => sent.length === 1);
    expect(sent).toEqual(["half typed and sent"]);
    chatInput.close();
  });

  it("does not report an arrow key, an Alt+key or an ESC inside a paste as Esc", async () => {
    const { chatInput, type, sent, escapes } = chatInputOnMemory();
    type("ab");
    type(LEFT);
    type(ALT_B);
    type(`\u001b[200~p${ESCAPE}${ESCAPE}q\u001b[201~`);
    // A lone Esc last: once it is reported, every key typed before it has been read.
    type(ESCAPE);
    await waitFor("the lone Esc", () => escapes() >= 1);
    type("\r");
    await waitFor("the line", () => sent.length === 1);
    expect(escapes()).toBe(1);
    chatInput.close();
  });

  it("tells whether a question it lent the terminal to ended on Esc or on Ctrl-C", async () => {
    const { chatInput, input, output, type, shown } = chatInputOnMemory();
    const asker = createPromptsAsker({ stdin: input, stdout: output });
    const endedBy = async (key: string, question: string): Promise<boolean> => {
      const answer = await chatInput.suspend(async () => {
        const asked = asker.confirm(question, false);
        await waitFor("the question", () => shown().includes(question));
        type(key);
        return asked;
      });
      expect(answer).toBeUndefined();
      return chatInput.lentEndedByEscape;
    };
    expect([await endedBy(ESCAPE, "First?"), await endedBy(CTRL_C, "Second?")]).toEqual([true, false]);
    chatInput.close();
  });
});
