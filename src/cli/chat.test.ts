import { afterEach, describe, expect, it } from "vitest";
import type { Agent, TurnEnd } from "../kernel/index.js";
import type { InputRequest } from "../mcp/index.js";
import { createCliInputResponder, type CliInputResponder } from "./input/responder.js";
import type { SessionIo } from "./session.js";
import { createFakeAgent, fakeTool } from "./test-support/fake-agent.js";
import { startMemoryChat, type MemoryChat } from "./test-support/memory-chat.js";
import { destroyMemoryTerminals } from "./test-support/memory-terminal.js";
import { waitFor } from "./test-support/wait-for.js";

afterEach(destroyMemoryTerminals);

function promptsShown(text: string): number {
  return text.split("› ").length - 1;
}

const CTRL_C = "\u0003";
const CTRL_D = "\u0004";
const DOWN = "\u001b[B";
const ESCAPE = "\u001b";
/**
 * Esc pressed three times: readline reads ESC ESC ESC as one Esc at once, where a single ESC waits a moment for
 * the rest of a sequence (and a key typed within that moment would be read with it, as Alt+key).
 */
const ESCAPE_AT_ONCE = "\u001b\u001b\u001b";

/** An agent whose prompts run until aborted, or, when stubborn, until `release` is called. */
function slowAgent(stubborn: boolean) {
  const seen: string[] = [];
  let release = (): void => undefined;
  const makeAgent = (io: SessionIo): Agent => ({
    ...createFakeAgent({}, io.emit),
    prompt: (text, signal) =>
      new Promise<TurnEnd>((resolve) => {
        seen.push(`prompt ${text}`);
        const finish = (reason: "done" | "aborted") => {
          io.emit({ type: "turn_end", reason });
          resolve(reason);
        };
        release = () => finish("done");
        if (!stubborn) signal.addEventListener("abort", () => finish("aborted"), { once: true });
      }),
  });
  return { seen, makeAgent, release: () => release() };
}

/** After an interruption the exit is not armed: a Ctrl-C gives only the hint a first one gives, and the chat goes on. */
async function expectExitNotArmed(chat: MemoryChat): Promise<void> {
  expect(chat.shown()).not.toContain("Ctrl-C again now to exit");
  chat.type(CTRL_C);
  await waitFor("the hint of a first Ctrl-C", () => chat.shown().includes("Ctrl-C again now to exit, or Ctrl-D"));
  chat.setNow(10_000);
  chat.type("/exit\r");
  expect(await chat.status).toBe(0);
}

describe("runChat", () => {
  it("shows the banner, answers a prompt and ends on Ctrl-D", async () => {
    const chat = startMemoryChat((io) =>
      createFakeAgent({ promptEvents: (text) => [{ type: "text", delta: `you said ${text}` }, { type: "turn_end", reason: "done" }] }, io.emit),
    );
    chat.type("hello\r");
    await waitFor("the answer", () => chat.shown().includes("you said hello"));
    expect([chat.warningsShownIn(), chat.attached()]).toEqual([["chat"], true]);
    chat.type(CTRL_D);
    expect(await chat.status).toBe(0);
    expect(chat.shown()).toContain("mca test banner");
    // Ended: the run's warnings go to stderr again, and the session has no mode attached.
    expect([chat.warningsShownIn(), chat.attached()]).toEqual([["chat", "stderr"], false]);
  });

  it("interrupts a running turn on Ctrl-C and goes on with the next line", async () => {
    const agent = slowAgent(false);
    const chat = startMemoryChat(agent.makeAgent);
    chat.type("think hard\r");
    await waitFor("the prompt to start", () => agent.seen.length === 1);
    chat.type(CTRL_C);
    await waitFor("the interruption", () => chat.shown().includes("interrupted"));
    await waitFor("the input line to come back", () => promptsShown(chat.shown()) === 2);
    chat.setNow(10_000);
    chat.type("again\r");
    await waitFor("the second prompt", () => agent.seen.length === 2);
    chat.type(CTRL_C);
    await waitFor("the input line to come back", () => promptsShown(chat.shown()) === 3);
    chat.type("/exit\r");
    expect(await chat.status).toBe(0);
    expect(agent.seen).toEqual(["prompt think hard", "prompt again"]);
  });

  it("ends the session on a second Ctrl-C within the window, even while a turn still runs", async () => {
    const agent = slowAgent(true);
    const chat = startMemoryChat(agent.makeAgent);
    chat.type("work\r");
    await waitFor("the prompt to start", () => agent.seen.length === 1);
    chat.type(CTRL_C);
    chat.setNow(1000);
    chat.type(CTRL_C);
    chat.type("ignored\r");
    agent.release();
    expect(await chat.status).toBe(0);
    expect(agent.seen).toEqual(["prompt work"]);
  });

  it("does not end on a second Ctrl-C after the window while a turn still runs", async () => {
    const agent = slowAgent(true);
    const chat = startMemoryChat(agent.makeAgent);
    chat.type("work\r");
    await waitFor("the prompt to start", () => agent.seen.length === 1);
    chat.type(CTRL_C);
    chat.setNow(2000);
    chat.type(CTRL_C);
    agent.release();
    await waitFor("the input line to come back", () => promptsShown(chat.shown()) === 2);
    chat.type("next\r");
    await waitFor("the next prompt", () => agent.seen.length === 2);
    agent.release();
    chat.type(CTRL_D);
    expect(await chat.status).toBe(0);
  });

  it("clears a half-typed line on Ctrl-C and says a second one exits; only a second within the window does", async () => {
    const agent = slowAgent(false);
    const chat = startMemoryChat(agent.makeAgent);
    chat.type("half a thou");
    chat.type(CTRL_C);
    await waitFor("the hint", () => chat.shown().includes("cleared · Ctrl-C again now to exit"));
    chat.setNow(10_000);
    // One Ctrl-C on an empty prompt does not end the chat: it says how to.
    chat.type(CTRL_C);
    await waitFor("the second hint", () => chat.shown().split("Ctrl-C again now to exit").length === 3);
    chat.setNow(10_500);
    chat.type(CTRL_C);
    expect(await chat.status).toBe(0);
    expect(agent.seen).toEqual([]);
  });

  it("interrupts a running turn on Esc without arming the exit: a Ctrl-C right after it at the prompt does not end the chat", async () => {
    const agent = slowAgent(false);
    const chat = startMemoryChat(agent.makeAgent);
    chat.type("think hard\r");
    await waitFor("the prompt to start", () => agent.seen.length === 1);
    chat.type(ESCAPE);
    await waitFor("the input line to come back", () => promptsShown(chat.shown()) === 2);
    expect(chat.shown()).toContain("interrupted");
    await expectExitNotArmed(chat);
  });

  it("does nothing on Esc at the prompt: the line typed so far stays and is sent as typed", async () => {
    const agent = slowAgent(true);
    const chat = startMemoryChat(agent.makeAgent);
    chat.type(ESCAPE_AT_ONCE);
    chat.type("half");
    chat.type(ESCAPE_AT_ONCE);
    chat.type(" typed\r");
    await waitFor("the prompt", () => agent.seen.length === 1);
    expect(agent.seen).toEqual(["prompt half typed"]);
    expect(chat.shown()).not.toMatch(/interrupted|Ctrl-C again/);
    agent.release();
    chat.type(CTRL_D);
    expect(await chat.status).toBe(0);
  });

  it("sends a paste as one prompt, however many lines it has, and joins lines ended by a backslash", async () => {
    const agent = slowAgent(true);
    const chat = startMemoryChat(agent.makeAgent);
    chat.type("\u001b[200~first line\rsecond line\rthird\u001b[201~ and more\r");
    await waitFor("the pasted prompt", () => agent.seen.length === 1);
    agent.release();
    await waitFor("the input line to come back", () => promptsShown(chat.shown()) === 2);
    chat.type("one \\\rtwo\r");
    await waitFor("the continued prompt", () => agent.seen.length === 2);
    agent.release();
    chat.type(CTRL_D);
    expect(await chat.status).toBe(0);
    expect(agent.seen).toEqual(["prompt first line\nsecond line\nthird and more", "prompt one \ntwo"]);
    expect(chat.shown()).toContain("\u001b[?2004h");
    expect(chat.shown().endsWith("\u001b[?2004l\n")).toBe(true);
  });

  it("keeps a prompt typed while a turn runs and sends it when the turn ends", async () => {
    const agent = slowAgent(true);
    const chat = startMemoryChat(agent.makeAgent);
    chat.type("first\r");
    await waitFor("the first prompt", () => agent.seen.length === 1);
    chat.type("second\r");
    await waitFor("the queued note", () => chat.shown().includes("(queued: sent when this turn ends)"));
    agent.release();
    await waitFor("the queued prompt", () => agent.seen.length === 2);
    agent.release();
    chat.type(CTRL_D);
    expect(await chat.status).toBe(0);
    expect(agent.seen).toEqual(["prompt first", "prompt second"]);
  });

  it("runs a !command queued while a turn runs on its own, and the prompts typed after it as one", async () => {
    const agent = slowAgent(true);
    const makeAgent = (io: SessionIo): Agent => {
      const slow = agent.makeAgent(io);
      return {
        ...slow,
        hasTool: (name) => name === "bash",
        callAsPerson: async (name, args) => {
          agent.seen.push(`person ${name} ${JSON.stringify(args)}`);
          return { tool: name, isError: false, text: "exit code 0\n", truncated: false, decision: { verdict: "ask", reason: "default for commands: ask" } };
        },
      };
    };
    const chat = startMemoryChat(makeAgent);
    chat.type("first\r");
    await waitFor("the first prompt", () => agent.seen.length === 1);
    chat.type("!npm test\r");
    chat.type("second\r");
    chat.type("third\r");
    await waitFor("three queued lines", () => chat.shown().split("(queued: sent when this turn ends)").length === 4);
    agent.release();
    await waitFor("the queued prompts", () => agent.seen.length === 3);
    agent.release();
    chat.type(CTRL_D);
    expect(await chat.status).toBe(0);
    expect(agent.seen).toEqual(["prompt first", 'person bash {"command":"npm test"}', "prompt second\nthird"]);
  });

  it("ends when the process must stop, only after the running turn has settled", async () => {
    const agent = slowAgent(false);
    const chat = startMemoryChat(agent.makeAgent);
    chat.type("work\r");
    await waitFor("the prompt to start", () => agent.seen.length === 1);
    let settled = false;
    void chat.status.then(() => (settled = true));
    chat.stop();
    expect(await chat.status).toBe(0);
    expect([settled, chat.shown().includes("interrupted")]).toEqual([true, true]);
    // Nobody pressed Ctrl-C: nothing tells the user to press it again.
    expect(chat.shown()).not.toContain("Ctrl-C again");
  });

  it("asks for approval with the tool, source and arguments, then reads the input line again", async () => {
    const tool = fakeTool("write_file", "write");
    const chat = startMemoryChat((io) => ({
      ...createFakeAgent({ tools: [tool] }, io.emit),
      call: async (name, args) => {
        const decision = { verdict: "ask", reason: "default for write tools: ask" } as const;
        const answer = await io.approve({ tool, args, decision, sessionAllow: { kind: "tool", tool: "write_file" } });
        return { tool: name, isError: answer === "deny", text: `answer: ${answer}`, truncated: false, decision };
      },
    }));
    chat.type('/call write_file {"path":"a.txt"}\r');
    await waitFor("the question", () => chat.shown().includes("Allow write_file?"));
    expect(chat.shown()).toContain("approval needed: write_file from local tool");
    expect(chat.shown()).toContain("why: default for write tools: ask");
    expect(chat.shown()).toContain('"path": "a.txt"');
    chat.type(DOWN);
    chat.type("\r");
    await waitFor("the answer", () => chat.shown().includes("answer: session"));
    chat.type("/exit\r");
    expect(await chat.status).toBe(0);
  });

  it("hides the run's secrets in an approval's arguments and in what a command prints", async () => {
    const tool = fakeTool("write_file", "write");
    const redact = (text: string): string => text.replaceAll("s3cret-value", "[redacted]");
    const chat = startMemoryChat(
      (io) => ({
        ...createFakeAgent({ tools: [tool] }, io.emit),
        call: async (name, args) => {
          const decision = { verdict: "ask", reason: "default for write tools: ask" } as const;
          const answer = await io.approve({ tool, args, decision, sessionAllow: { kind: "tool", tool: "write_file" } });
          return { tool: name, isError: false, text: `${answer} s3cret-value`, truncated: false, decision };
        },
      }),
      undefined,
      redact,
    );
    chat.type('/call write_file {"path":"a.txt","content":"key=s3cret-value"}\r');
    await waitFor("the question", () => chat.shown().includes("Allow write_file?"));
    chat.type("\r");
    await waitFor("the answer", () => chat.shown().includes("once [redacted]"));
    chat.type("/exit\r");
    expect(await chat.status).toBe(0);
    expect(chat.shown()).toContain('"content": "key=[redacted]"');
    // The line typed is echoed by the input line itself: only what mca writes is redacted.
    expect(chat.shown().replace('{"path":"a.txt","content":"key=s3cret-value"}', "")).not.toContain("s3cret-value");
  });

  it("denies the call and interrupts the turn when the approval question is cancelled with Esc, without arming the exit", async () => {
    const tool = fakeTool("bash", "exec");
    let aborted = false;
    const chat = startMemoryChat((io) => ({
      ...createFakeAgent({ tools: [tool] }, io.emit),
      call: async (name, args, signal) => {
        const decision = { verdict: "ask", reason: "default for exec tools: ask" } as const;
        const answer = await io.approve({ tool, args, decision, sessionAllow: null });
        aborted = signal.aborted;
        return { tool: name, isError: true, text: `answer: ${answer}`, truncated: false, decision };
      },
    }));
    chat.type('/call bash {"command":"ls"}\r');
    await waitFor("the question", () => chat.shown().includes("Allow bash?"));
    chat.type(ESCAPE);
    await waitFor("the answer", () => chat.shown().includes("answer: deny"));
    await waitFor("the input line to come back", () => promptsShown(chat.shown()) >= 2);
    expect(aborted).toBe(true);
    await expectExitNotArmed(chat);
  });

  it("denies the call when the approval question is cancelled with Ctrl-C", async () => {
    const tool = fakeTool("bash", "exec");
    const chat = startMemoryChat((io) => ({
      ...createFakeAgent({ tools: [tool] }, io.emit),
      call: async (name, args) => {
        const decision = { verdict: "ask", reason: "default for exec tools: ask" } as const;
        const answer = await io.approve({ tool, args, decision, sessionAllow: null });
        return { tool: name, isError: true, text: `answer: ${answer}`, truncated: false, decision };
      },
    }));
    chat.type('/call bash {"command":"ls"}\r');
    await waitFor("the question", () => chat.shown().includes("Allow bash?"));
    chat.type(CTRL_C);
    await waitFor("the answer", () => chat.shown().includes("answer: deny"));
    chat.setNow(10_000);
    chat.type("/exit\r");
    expect(await chat.status).toBe(0);
  });
});

const CONFIRM: InputRequest = {
  kind: "elicit-form",
  message: "Close ticket T-1?",
  requestedSchema: { type: "object", properties: { confirm: { type: "boolean", description: "Really close it" } }, required: ["confirm"] },
  params: {},
};

/**
 * The chat on a terminal made of memory, lending it to a real input responder; `/call` asks the server's
 * question through the responder as a mounted tool would, and shows what came back.
 */
function startChatAskedForInput() {
  const responder: CliInputResponder = createCliInputResponder({ interactive: true, projectDir: "/p", notify: () => undefined });
  const makeAgent = (io: SessionIo): Agent => ({
    ...createFakeAgent({ tools: [fakeTool("mcp__tickets__close_ticket", "remote", "tickets")] }, io.emit),
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
    const chat = startChatAskedForInput();
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
    const chat = startChatAskedForInput();
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
    const chat = startChatAskedForInput();
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
