// `mca "<prompt>"` on a real pseudo-terminal: the chat starts with that prompt sent, as if typed; and the
// chat, unlike -p and pipe mode, still offers the offline mock when there is no key, saying so.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startPtyChat, type PtyChat } from "./test-support/pty-chat.js";
import { createTempProject, type TempProject } from "./test-support/run-cli.js";

let project: TempProject;
let chat: PtyChat | undefined;
beforeEach(async () => {
  project = await createTempProject();
});
afterEach(async () => {
  chat?.kill();
  chat = undefined;
  await project.remove();
});

describe("mca \"<prompt>\" on a terminal", () => {
  it("starts the chat with that prompt sent, then waits for the next one", async () => {
    chat = await startPtyChat(project, ["what is", "here?"]);
    await chat.until(/You asked: "what is here\?"/);
    chat.type("/exit\r");
    expect(await chat.exited).toBe(0);
    // Shown as a typed prompt is, before the answer.
    const plain = chat.screen().replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");
    expect(plain).toMatch(/Ctrl-D exits\r\n› what is here\?\r\n[\s\S]*You asked: "what is here\?"/);
  });

  it("offers the mock without a key, with its notice, where -p would exit 2", async () => {
    chat = await startPtyChat(project, ["hello"], {});
    await chat.until(/You asked: "hello"/);
    chat.type("/exit\r");
    expect(await chat.exited).toBe(0);
    expect(chat.screen()).toContain("No ANTHROPIC_API_KEY set: using the offline mock model (MOCK=1 to silence this)");
  });
});
