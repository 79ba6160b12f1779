import { afterEach, describe, expect, it } from "vitest";
import type { Agent } from "../kernel/index.js";
import type { InputRequest } from "../mcp/index.js";
import { createCliInputResponder, type CliInputResponder } from "./input-responder.js";
import type { SessionIo } from "./session-io.js";
import { createFakeAgent } from "./test-support/fake-agent.js";
import { startMemoryChat } from "./test-support/memory-chat.js";
import { destroyMemoryTerminals } from "./test-support/memory-terminal.js";
import { waitFor } from "./test-support/wait-for.js";

const CTRL_C = "\u0003";
const DOWN = "\u001b[B";

const CONFIRM: InputRequest = {
  kind: "elicit-form",
  message: "Close ticket T-1?",
  requestedSchema: { type: "object", properties: { confirm: { type: "boolean", description: "Really close it" } }, required: ["confirm"] },
  params: {},
};

afterEach(destroyMemoryTerminals);

/**
 * The chat on a terminal made of memory, lending it to a real input responder; `/call` asks the server's
 * question through the responder as a mounted tool would, and shows what came back.
 */
function startChat() {
  const responder: CliInputResponder = createCliInputResponder({ interactive: true, projectDir: "/p", notify: () => undefined });
  const makeAgent = (io: SessionIo): Agent => ({
    ...createFakeAgent({}, io.emit),
    call: async (name, _args, signal) => {
      const answer = await responder.answer({ confirm: CONFIRM }, { server: "tickets", tool: "close_ticket", round: 1, signal });
      const text = `answer: ${JSON.stringify(answer)} aborted: ${String(signal.aborted)}`;
      return { tool: name, isError: false, text, truncated: false, decision: { verdict: "allow", reason: "test" } };
    },
  });
  return startMemoryChat(makeAgent, (lend) => responder.attachTerminal(lend));
}

describe("runChat with an MCP server asking for input", () => {
  it("asks the form in the terminal, field by field, and reads the input line again afterwards", async () => {
    const chat = startChat();
    chat.type("/call mcp__tickets__close_ticket\r");
    await waitFor("the choice", () => chat.shown().includes("Your answer"));
    expect(chat.shown()).toContain('input requested: MCP server "tickets" asks you, for its tool close_ticket:\n  Close ticket T-1?');
    chat.type("\r");
    await waitFor("the field", () => chat.shown().includes("confirm (required)"));
    expect(chat.shown()).toContain("confirm: Really close it");
    chat.type("y");
    await waitFor("the answer", () => chat.shown().includes("answer: "));
    expect(chat.shown()).toContain('answer: {"confirm":{"action":"accept","content":{"confirm":true}}} aborted: false');
    chat.type("/exit\r");
    expect(await chat.status).toBe(0);
  });

  it("sends a decline chosen at the form", async () => {
    const chat = startChat();
    chat.type("/call mcp__tickets__close_ticket\r");
    await waitFor("the choice", () => chat.shown().includes("Your answer"));
    chat.type(DOWN);
    chat.type("\r");
    await waitFor("the answer", () => chat.shown().includes("answer: "));
    expect(chat.shown()).toContain('answer: {"confirm":{"action":"decline"}} aborted: false');
    chat.type("/exit\r");
    expect(await chat.status).toBe(0);
  });

  it("gives up the call and interrupts the turn on Ctrl-C at the form, then reads the input line again", async () => {
    const chat = startChat();
    chat.type("/call mcp__tickets__close_ticket\r");
    await waitFor("the choice", () => chat.shown().includes("Your answer"));
    chat.type(CTRL_C);
    await waitFor("the answer", () => chat.shown().includes("answer: "));
    expect(chat.shown()).toContain('answer: {"abandon":"the user interrupted the question"} aborted: true');
    chat.setNow(10_000);
    chat.type("/exit\r");
    expect(await chat.status).toBe(0);
  });
});
