import { afterEach, describe, expect, it } from "vitest";
import { createChatInput } from "./chat-input.js";
import { createMemoryTerminal, destroyMemoryTerminals } from "./test-support/memory-terminal.js";
import { waitFor } from "./test-support/wait-for.js";

const UP = "\u001b[A";
afterEach(destroyMemoryTerminals);

describe("the chat's input history", () => {
  it("brings a prompt of several lines back whole with one Up, a paste or lines ended by a backslash", async () => {
    const { input, output, type } = createMemoryTerminal();
    const sent: string[] = [];
    const chatInput = createChatInput({ input, output, promptText: "> ", onLine: (text) => sent.push(text), onInterrupt: () => undefined, onEnd: () => undefined, onEscape: () => undefined });
    type("first\r");
    type("\u001b[200~fix this:\r  at x.js:3\u001b[201~\r");
    type("one \\\rtwo\r");
    await waitFor("three prompts", () => sent.length === 3);
    type(`${UP}\r`);
    type(`${UP}${UP}\r`);
    type(`${UP}${UP}${UP}${UP}\r`);
    await waitFor("six prompts", () => sent.length === 6);
    expect(sent).toEqual(["first", "fix this:\n  at x.js:3", "one \ntwo", "one \ntwo", "fix this:\n  at x.js:3", "first"]);
    chatInput.close();
  });
});
