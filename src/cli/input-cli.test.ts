import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTicketsServer, type TicketsServer } from "../../servers/tickets.js";
import { createTempProject, type TempProject } from "./test-support/run-cli.js";

const CLOSE_T1 = '/call mcp__tickets__close_ticket {"id":"T-1"}\n';
const CONFIRM = { tickets: { close_ticket: { confirm: { action: "accept", content: { confirm: true } } } } };

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
  const run = await project.run(["call", "mcp__tickets__list_open", "--allow", "mcp__*"], "");
  return /^T-1 \(open/m.test(run.stdout);
}

describe("mca with an MCP server that asks for input, without a terminal", () => {
  it("declines a form elicitation in pipe mode with a message naming --input-responses, and the ticket stays open", async () => {
    const run = await project.run(["--allow", "mcp__*"], CLOSE_T1);
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
    const run = await project.run(["--allow", "mcp__*", "--input-responses", "answers.json"], CLOSE_T1);
    expect(run.stderr).toContain('mcp: tickets asked for input for close_ticket: answered "accept" from tickets.close_ticket.confirm in answers.json');
    expect(run.stdout).toContain("Ticket T-1 closed");
    expect(run.code).toBe(0);
    expect(await t1IsOpen()).toBe(false);
  });

  it("answers from --input-responses in mca call, as in pipe mode", async () => {
    await writeAnswers(CONFIRM);
    const run = await project.run(["call", "mcp__tickets__close_ticket", '{"id":"T-1"}', "--allow", "mcp__*", "--input-responses", "answers.json", "--json"], "");
    expect(JSON.parse(run.stdout)).toMatchObject({ tool: "mcp__tickets__close_ticket", isError: false, text: "Ticket T-1 closed" });
    expect(run.code).toBe(0);
  });

  it("declines, naming the file and the field, when a prepared answer does not fit the form", async () => {
    await writeAnswers({ tickets: { close_ticket: { confirm: { action: "accept", content: { confirm: "yes" } } } } });
    const run = await project.run(["--allow", "mcp__*", "--input-responses", "answers.json"], CLOSE_T1);
    expect(run.stderr).toContain('as the answer at tickets.close_ticket.confirm in answers.json does not fit the form: "confirm" must be true or false');
    expect(run.stdout).toContain("Ticket T-1 stays open");
    expect(await t1IsOpen()).toBe(true);
  });

  it("exits 2 before any call when the file names a server the config does not have", async () => {
    await writeAnswers('{\n  "tickest": {}\n}');
    const run = await project.run(["--allow", "mcp__*", "--input-responses", "answers.json"], CLOSE_T1);
    expect(run).toEqual({ code: 2, stdout: "", stderr: 'mca: answers.json:2:3: tickest: no MCP server has this alias (the configured servers are "tickets")\n' });
  });

  it("exits 2 naming the place of an invalid answer", async () => {
    await writeAnswers('{"tickets": {"close_ticket": {"confirm": {"action": "maybe"}}}}');
    const run = await project.run(["call", "mcp__tickets__close_ticket", '{"id":"T-1"}', "--input-responses", "answers.json"], "");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('mca: answers.json:1:53: tickets.close_ticket.confirm.action: must be "accept", "decline" or "cancel"\n');
  });
});
