import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Chalk } from "chalk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTicketsServer, type TicketsServer } from "../../../servers/tickets.js";
import type { Model, ModelRequest } from "../../kernel/index.js";
import { clientCapabilities, isJsonObject, mountServers, type InputRequest, type JsonObject, type MountedServers } from "../../mcp/index.js";
import { startInputRequiredServer } from "../../mcp/test-support/input-required-server.js";
import type { TerminalLender } from "../terminal.js";
import { createTempProject, type TempProject } from "../test-support/run-cli.js";
import { createScriptedAsker, type ScriptedAnswer, type ScriptedAsker } from "../test-support/scripted-asker.js";
import { parseInputAnswers, type InputAnswers } from "./answers-file.js";
import { createCliInputResponder, type CliInputResponderDeps } from "./responder.js";

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

describe("a mounted tool answered by the CLI's input responder", () => {
  const opened: Array<{ close(): Promise<void> }> = [];

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((item) => item.close()));
  });

  /** A loopback server whose one tool, `where`, asks for the client's roots and echoes what it was given. */
  async function rootsServer(): Promise<{ url: string; bodies: JsonObject[] }> {
    const server = await startInputRequiredServer({
      tool: { name: "where", description: "Where am I", inputSchema: { type: "object" } },
      ask: { resultType: "input_required", inputRequests: { dirs: { method: "roots/list" } } },
      finish: ({ inputResponses }) => ({ content: [{ type: "text", text: JSON.stringify(inputResponses) }] }),
    });
    opened.push(server);
    return { url: server.url, bodies: server.bodies };
  }

  it("sends the project folder as the roots, and declares roots on every request", async () => {
    const { url, bodies } = await rootsServer();
    const inputResponder = createCliInputResponder({ interactive: false, projectDir: "/work/demo", notify: () => undefined });
    const mounted: MountedServers = await mountServers(
      { file: "/tmp/mcp.config.json", servers: [{ alias: "fs", transport: "http", url, headers: {}, enabled: true }] },
      { clientVersion: "0.0.0-test", baseEnv: {}, onWarning: () => undefined, inputResponder },
    );
    opened.push(mounted);
    const result = await mounted.tools[0]?.run({}, { signal: new AbortController().signal });
    expect(result).toEqual({ text: JSON.stringify({ dirs: { roots: [{ uri: "file:///work/demo", name: "demo" }] } }), isError: false });
    const declared = bodies.map((body) => (isJsonObject(body.params) && isJsonObject(body.params._meta) ? body.params._meta["io.modelcontextprotocol/clientCapabilities"] : undefined));
    expect(declared).toEqual(bodies.map(() => ({ elicitation: { form: {} }, roots: {} })));
  });
});

const CLOSE_T1 = '/call mcp__tickets__close_ticket {"id":"T-1"}\n';
const CONFIRM = { tickets: { close_ticket: { confirm: { action: "accept", content: { confirm: true } } } } };

describe("mca with an MCP server that asks for input, without a terminal", () => {
  let project: TempProject;
  let tickets: TicketsServer;

  beforeEach(async () => {
    project = await createTempProject();
    tickets = await startTicketsServer({ port: 0 });
    await writeFile(join(project.dir, "mcp.config.json"), JSON.stringify({ mcpServers: { tickets: { type: "http", url: tickets.url } } }));
  });

  afterEach(async () => {
    await tickets.close();
    await project.remove();
  });

  async function writeAnswers(value: unknown): Promise<void> {
    await writeFile(join(project.dir, "answers.json"), typeof value === "string" ? value : JSON.stringify(value));
  }

  /** T-1's state, read through the CLI's own call of list_open. */
  async function t1IsOpen(): Promise<boolean> {
    const run = await project.run(["--trust-project", "call", "mcp__tickets__list_open", "--allow", "mcp__*"], "");
    return /^T-1 \(open/m.test(run.stdout);
  }

  it("declines a form elicitation in pipe mode with a message naming --input-responses, and the ticket stays open", async () => {
    const run = await project.run(["--trust-project", "--allow", "mcp__*"], CLOSE_T1);
    expect(run.stderr).toContain(
      'mcp: tickets asked for input for close_ticket ("Close ticket T-1?"): declined, as there is no terminal to ask in; ' +
        "to answer it, run with --input-responses <file> holding an answer at tickets.close_ticket.confirm",
    );
    expect(run.stdout).toContain("Ticket T-1 stays open: the user did not confirm (decline).");
    expect(run.code).toBe(0);
    expect(await t1IsOpen()).toBe(true);
  });

  it("answers from --input-responses in pipe mode, and the ticket is closed", async () => {
    await writeAnswers(CONFIRM);
    const run = await project.run(["--trust-project", "--allow", "mcp__*", "--input-responses", "answers.json"], CLOSE_T1);
    expect(run.stderr).toContain('mcp: tickets asked for input for close_ticket: answered "accept" from tickets.close_ticket.confirm in answers.json');
    expect(run.stdout).toContain("Ticket T-1 closed");
    expect(run.code).toBe(0);
    expect(await t1IsOpen()).toBe(false);
  });

  it("answers from --input-responses in mca call, as in pipe mode", async () => {
    await writeAnswers(CONFIRM);
    const run = await project.run(["--trust-project", "call", "mcp__tickets__close_ticket", '{"id":"T-1"}', "--allow", "mcp__*", "--input-responses", "answers.json", "--json"], "");
    expect(JSON.parse(run.stdout)).toMatchObject({ tool: "mcp__tickets__close_ticket", isError: false, text: "Ticket T-1 closed" });
    expect(run.code).toBe(0);
  });

  it("declines, naming the file and the field, when a prepared answer does not fit the form", async () => {
    await writeAnswers({ tickets: { close_ticket: { confirm: { action: "accept", content: { confirm: "yes" } } } } });
    const run = await project.run(["--trust-project", "--allow", "mcp__*", "--input-responses", "answers.json"], CLOSE_T1);
    expect(run.stderr).toContain('as the answer at tickets.close_ticket.confirm in answers.json does not fit the form: "confirm" must be true or false');
    expect(run.stdout).toContain("Ticket T-1 stays open");
    expect(await t1IsOpen()).toBe(true);
  });

  it("exits 2 before any call when the file names a server the config does not have", async () => {
    await writeAnswers('{\n  "tickest": {}\n}');
    const run = await project.run(["--trust-project", "--allow", "mcp__*", "--input-responses", "answers.json"], CLOSE_T1);
    expect(run).toEqual({ code: 2, stdout: "", stderr: 'mca: answers.json:2:3: tickest: no MCP server has this alias (the configured servers are "tickets")\n' });
  });

  it("exits 2 naming the place of an invalid answer", async () => {
    await writeAnswers('{"tickets": {"close_ticket": {"confirm": {"action": "maybe"}}}}');
    const run = await project.run(["--trust-project", "call", "mcp__tickets__close_ticket", '{"id":"T-1"}', "--input-responses", "answers.json"], "");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('mca: answers.json:1:53: tickets.close_ticket.confirm.action: must be "accept", "decline" or "cancel"\n');
  });
});
