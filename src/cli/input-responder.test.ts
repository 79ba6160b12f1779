import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import type { Model, ModelRequest } from "../kernel/index.js";
import type { InputRequest } from "../mcp/index.js";
import { clientCapabilities } from "../mcp/index.js";
import { parseInputAnswers, type InputAnswers } from "./input-answers-file.js";
import { createCliInputResponder, type CliInputResponderDeps } from "./input-responder.js";
import type { TerminalLender } from "./terminal-lender.js";
import { createScriptedAsker, type ScriptedAnswer, type ScriptedAsker } from "./test-support/scripted-asker.js";

const PROJECT = "/home/me/my project";
const context = { server: "tickets", tool: "close_ticket", round: 1 };
const CONFIRM_SCHEMA = { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] };
const confirm: InputRequest = { kind: "elicit-form", message: "Close ticket T-1?", requestedSchema: CONFIRM_SCHEMA, params: {} };
const roots: InputRequest = { kind: "roots", params: {} };
const sampling: InputRequest = {
  kind: "sampling",
  messages: [{ role: "user", content: { type: "text", text: "Summarise T-1" } }],
  maxTokens: 100,
  usesTools: false,
  params: { systemPrompt: "Be brief" },
};

function setUp(overrides: Partial<CliInputResponderDeps> = {}) {
  const notices: string[] = [];
  const responder = createCliInputResponder({ interactive: false, projectDir: PROJECT, notify: (line) => notices.push(line), ...overrides });
  return { responder, notices };
}

function answersFile(value: unknown): InputAnswers {
  const answers = parseInputAnswers(JSON.stringify(value), "answers.json");
  if (answers instanceof Error) throw answers;
  return answers;
}

/** Lends a scripted terminal: each question gets the next answers; `lent` counts how often it was lent. */
function scriptedTerminal(script: readonly ScriptedAnswer[]): { lend: TerminalLender; asker: ScriptedAsker; lent: () => number } {
  const asker = createScriptedAsker(script);
  let lent = 0;
  const lend: TerminalLender = (question) => {
    lent += 1;
    return question({ asker, chalk: new Chalk({ level: 0 }) });
  };
  return { lend, asker, lent: () => lent };
}

function fakeModel(requests: ModelRequest[]): Model {
  return {
    name: "fake-model",
    complete: async (request) => {
      requests.push(request);
      return { message: { role: "assistant", content: [{ type: "text", text: "T-1 is about logins." }] }, stopReason: "end_turn" };
    },
  };
}

describe("createCliInputResponder", () => {
  it("declares forms, URLs, sampling and roots in the chat, and only forms and roots without a terminal", () => {
    expect(clientCapabilities(setUp({ interactive: true }).responder.support)).toEqual({ elicitation: { form: {}, url: {} }, roots: {}, sampling: {} });
    expect(clientCapabilities(setUp({ interactive: false }).responder.support)).toEqual({ elicitation: { form: {} }, roots: {} });
  });

  it("answers roots/list with the project folder as a file:// URI and its name, without asking", async () => {
    const { responder, notices } = setUp();
    expect(await responder.answer({ dirs: roots }, context)).toEqual({ dirs: { roots: [{ uri: "file:///home/me/my%20project", name: "my project" }] } });
    expect(notices).toEqual([]);
  });

  it("declines a form without a terminal, telling the user why and where an answer would go", async () => {
    const { responder, notices } = setUp();
    expect(await responder.answer({ confirm }, context)).toEqual({ confirm: { action: "decline" } });
    expect(notices).toEqual([
      'mcp: tickets asked for input for close_ticket ("Close ticket T-1?"): declined, as there is no terminal to ask in; ' +
        "to answer it, run with --input-responses <file> holding an answer at tickets.close_ticket.confirm",
    ]);
  });

  it("answers a form from --input-responses, in the chat too, without asking", async () => {
    const answers = answersFile({ tickets: { close_ticket: { confirm: { action: "accept", content: { confirm: true } } } } });
    const { responder, notices } = setUp({ interactive: true, answers });
    const terminal = scriptedTerminal([]);
    responder.attachTerminal(terminal.lend);
    expect(await responder.answer({ confirm, dirs: roots }, context)).toEqual({
      confirm: { action: "accept", content: { confirm: true } },
      dirs: { roots: [{ uri: "file:///home/me/my%20project", name: "my project" }] },
    });
    expect(notices).toEqual(['mcp: tickets asked for input for close_ticket: answered "accept" from tickets.close_ticket.confirm in answers.json']);
    expect(terminal.lent()).toBe(0);
  });

  it("asks a form in the lent terminal when the file has no answer for it", async () => {
    const answers = answersFile({ tickets: { close_ticket: { other: { action: "decline" } } } });
    const { responder } = setUp({ interactive: true, answers });
    const terminal = scriptedTerminal(["accept", true]);
    responder.attachTerminal(terminal.lend);
    expect(await responder.answer({ confirm }, context)).toEqual({ confirm: { action: "accept", content: { confirm: true } } });
    expect(terminal.asker.transcript).toContain("confirm: confirm (required)");
  });

  it("gives up the call when the user presses Ctrl-C at a question, asking nothing further", async () => {
    const { responder } = setUp({ interactive: true });
    const terminal = scriptedTerminal([undefined]);
    responder.attachTerminal(terminal.lend);
    expect(await responder.answer({ confirm, again: confirm }, context)).toEqual({ abandon: "the user interrupted the question" });
    expect(terminal.lent()).toBe(1);
  });

  it("samples through the session's model after the user agrees twice, and answers with a CreateMessageResult", async () => {
    const { responder } = setUp({ interactive: true });
    const requests: ModelRequest[] = [];
    const terminal = scriptedTerminal(["yes", "yes"]);
    responder.attachTerminal(terminal.lend);
    responder.attachModel(fakeModel(requests));
    expect(await responder.answer({ llm: sampling }, context)).toEqual({
      llm: { role: "assistant", content: { type: "text", text: "T-1 is about logins." }, model: "fake-model", stopReason: "endTurn" },
    });
    expect(requests.map(({ system, messages, tools }) => ({ system, messages, tools }))).toEqual([
      { system: "Be brief", messages: [{ role: "user", content: [{ type: "text", text: "Summarise T-1" }] }], tools: [] },
    ]);
    expect(terminal.asker.transcript).toEqual([
      'say: input requested: MCP server "tickets" asks the model (fake-model) to answer, for its tool close_ticket:\n  system prompt:\n    Be brief\n  user:\n    Summarise T-1\n  at most 100 tokens asked for',
      "select: Let fake-model answer the server? [yes|no]",
      'say: the model\'s answer for MCP server "tickets":\n    T-1 is about logins.',
      "select: Send this answer to the server? [yes|no]",
    ]);
    expect(terminal.lent()).toBe(2);
  });

  it("abandons the call when the user declines sampling, before the model sees anything", async () => {
    const { responder } = setUp({ interactive: true });
    const requests: ModelRequest[] = [];
    responder.attachTerminal(scriptedTerminal(["no"]).lend);
    responder.attachModel(fakeModel(requests));
    expect(await responder.answer({ llm: sampling }, context)).toEqual({ abandon: "the user declined the sampling request" });
    expect(requests).toEqual([]);
  });

  it("abandons the call when the user declines to send the model's answer", async () => {
    const { responder } = setUp({ interactive: true });
    responder.attachTerminal(scriptedTerminal(["yes", "no"]).lend);
    responder.attachModel(fakeModel([]));
    expect(await responder.answer({ llm: sampling }, context)).toEqual({ abandon: "the user declined to send the model's answer" });
  });

  it("abandons sampling when there is no terminal to ask for consent", async () => {
    const { responder } = setUp();
    responder.attachModel(fakeModel([]));
    expect(await responder.answer({ llm: sampling }, context)).toEqual({ abandon: "there is no terminal to ask for consent to sampling" });
  });
});
