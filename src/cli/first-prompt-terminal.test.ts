// `mca "<prompt>"` on a real pseudo-terminal: the chat starts with that prompt sent, as if typed; and the
// chat, unlike -p and pipe mode, still offers the offline mock when there is no key, saying so.
import { describe, expect, it } from "vitest";
import { ptyChatPerTest, startPtyChat } from "./test-support/pty-chat.js";

const each = ptyChatPerTest();

describe("mca \"<prompt>\" on a terminal", () => {
  it("starts the chat with that prompt sent, then waits for the next one", async () => {
    const chat = (each.chat = await startPtyChat(each.project, ["what is", "here?"]));
    await chat.until(/You asked: "what is here\?"/);
    chat.type("/exit\r");
    expect(await chat.exited).toBe(0);
    // Shown as a typed prompt is, before the answer.
    const plain = chat.screen().replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");
    expect(plain).toMatch(/Ctrl-D exits\r\n› what is here\?\r\n[\s\S]*You asked: "what is here\?"/);
  });

  it("offers the mock without a key, with its notice, where -p would exit 2", async () => {
    const chat = (each.chat = await startPtyChat(each.project, ["hello"], {}));
    await chat.until(/You asked: "hello"/);
    chat.type("/exit\r");
    expect(await chat.exited).toBe(0);
    expect(chat.screen()).toContain("No ANTHROPIC_API_KEY set: using the offline mock model (MOCK=1 to silence this)");
  });
});
