// The chat's input rules on a real pseudo-terminal: a bracketed paste is one prompt, and Ctrl-C never ends
// the session on its own — only a second within the window does.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeMessagesApi } from "../model/test-support/fake-messages-api.js";
import { replyEvents } from "../model/test-support/sse-replies.js";
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

describe("the chat on a terminal", () => {
  it("turns on bracketed paste and sends a pasted block of lines as one prompt", async () => {
    chat = await startPtyChat(project);
    expect(chat.screen()).toContain("\u001b[?2004h");
    chat.type("\u001b[200~first line\rsecond line\rthird line\u001b[201~\r");
    // The mock model repeats the prompt it got: all three lines, in one prompt.
    await chat.until(/You asked: "first line\\nsecond line\\nthird line"/);
    chat.type("\u0004");
    expect(await chat.exited).toBe(0);
    expect(chat.screen()).toContain("\u001b[?2004l");
  }, 30_000);

  it("does not end on one Ctrl-C at an empty prompt, says how to, and ends on a second within the window", async () => {
    chat = await startPtyChat(project);
    chat.type("\u0003");
    await chat.until(/Ctrl-C again now to exit, or Ctrl-D/);
    chat.type("still here\r");
    await chat.until(/You asked: "still here"/);
    chat.type("\u0003");
    chat.type("\u0003");
    expect(await chat.exited).toBe(0);
  }, 30_000);

  it("shows the turn's tokens, cache figures and estimated cost after an answer from the API, and /cost the session's", async () => {
    const api = await startFakeMessagesApi([{ kind: "stream", events: replyEvents("claude-sonnet-5-5", [{ type: "text", chunks: ["Hi there."] }], "end_turn") }]);
    try {
      chat = await startPtyChat(project, [], { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: api.baseURL });
      chat.type("hello\r");
      // The fake reports 25 input tokens and 12 output tokens: $3 and $15 per million.
      await chat.until(/25 tokens in \(0 read from cache, 0 written\) · 12 out · ~\$0\.0003 this turn/);
      chat.type("/cost\r");
      await chat.until(/1 model request: 25 tokens in/);
      chat.type("\u0004");
      expect(await chat.exited).toBe(0);
    } finally {
      await api.close();
    }
  }, 30_000);
});
