import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Agent, AgentEvent, ToolImage } from "../kernel/index.js";
import { runLine, SLASH_COMMANDS } from "./commands.js";
import { plainView, type LineRun, type ModeView, type PromptCatalog, type SlashCommand } from "./session-seam.js";
import type { ServerStatus } from "./mcp-servers.js";
import type { SessionModel } from "./session-model.js";
import type { SessionServers } from "./session-seam.js";
import { shellContextText } from "./shell-line.js";
import type { TerminalLender } from "./terminal.js";
import { createFakeAgent, fakeTool, type FakeAgent, type FakeAgentScript } from "./test-support/fake-agent.js";
import { fakeSession } from "./test-support/fake-session.js";

interface SetupParts {
  readonly script?: FakeAgentScript;
  /** The agent the session holds, made from the fake (to break or record one of its methods); the fake itself when absent. */
  readonly agent?: (fake: FakeAgent) => Agent;
  readonly servers?: Partial<SessionServers>;
  readonly model?: Partial<SessionModel>;
}

/**
 * A fake session around a fake agent, and `line(view)`: a LineRun on it whose view writes `out:`/`err:` lines
 * into `written`, without a terminal unless `view` lends one; `emit` is the agent's, heard by the session.
 */
function setup(parts: SetupParts = {}) {
  const written: string[] = [];
  let fake: FakeAgent | undefined;
  let emit: (event: AgentEvent) => void = () => undefined;
  const session = fakeSession({
    agent: (io) => {
      emit = io.emit;
      fake = createFakeAgent(parts.script ?? {}, io.emit);
      return parts.agent?.(fake) ?? fake;
    },
    ...(parts.servers === undefined ? {} : { servers: parts.servers }),
    ...(parts.model === undefined ? {} : { model: parts.model }),
  });
  if (fake === undefined) throw new Error("fakeSession made no agent");
  const agent = fake;
  const signal = new AbortController().signal;
  const plain = plainView(
    (text) => written.push(`out:${text}`),
    (text) => written.push(`err:${text}`),
  );
  const line = (view: Partial<ModeView> = {}): LineRun => ({ session, view: { ...plain, ...view }, signal });
  return { written, agent, session, line, emit: (event: AgentEvent) => emit(event) };
}

/** A terminal lent for a question: nobody answers it (no test here asks one). */
const TERMINAL: TerminalLender = async () => undefined;

const tools = [fakeTool("read_file", "read"), fakeTool("write_file", "write"), fakeTool("mcp__notes__search", "remote", "notes")];
const decisions = {
  write_file: { verdict: "ask", reason: "default for write tools: ask" },
  mcp__notes__search: { verdict: "deny", reason: 'rule "mcp__notes__*" (deny) from --deny' },
} as const;

describe("runLine", () => {
  it("cuts table rows to the terminal's width instead of letting them wrap", async () => {
    const { written, line } = setup({ script: { tools, decisions } });
    expect(await runLine("/approvals", line({ width: () => 30 }))).toBe("ok");
    expect(written.length).toBeGreaterThan(0);
    for (const row of written) expect(row.length).toBeLessThanOrEqual("out:".length + 30);
    expect(written.some((row) => row.endsWith("…"))).toBe(true);
  });

  it.each([80, 50])("wraps /help's sentences to a terminal %i columns wide, cutting none", async (width) => {
    const { written, line } = setup();
    expect(await runLine("/help", line({ width: () => width }))).toBe("ok");
    const lines = written.map((row) => row.slice("out:".length));
    const words = lines.join(" ").split(/\s+/u).join(" ");
    expect({
      fit: lines.filter((row) => row.length > width),
      cut: lines.filter((row) => row.endsWith("…")),
      whole: [SLASH_COMMANDS[0], SLASH_COMMANDS[1]].map((command) => words.includes(`${command?.usage} ${command?.summary}`)),
    }).toEqual({ fit: [], cut: [], whole: [true, true] });
  });

  it("ignores an empty line", async () => {
    const { written, agent, line } = setup();
    expect(await runLine("   ", line())).toBe("ok");
    expect([written, agent.received]).toEqual([[], []]);
  });

  it("fails an unknown command and points at /help", async () => {
    const { written, line } = setup();
    expect(await runLine("/frobnicate now", line())).toBe("failed");
    expect(written).toEqual(["err:unknown command /frobnicate (try /help)"]);
  });

  it("sends any other line to the model and succeeds when the turn ends normally", async () => {
    const { agent, line } = setup();
    expect(await runLine("  what is here?  ", line())).toBe("ok");
    expect(agent.received).toEqual(["prompt what is here?"]);
  });

  it("fails a prompt whose turn ends with a model error", async () => {
    const events: AgentEvent[] = [{ type: "error", message: "overloaded" }, { type: "turn_end", reason: "model_error" }];
    const { line } = setup({ script: { promptEvents: () => events } });
    expect(await runLine("hello", line())).toBe("failed");
  });

  it("reports an exception from the agent and fails the line instead of throwing", async () => {
    const { written, line } = setup({ agent: (fake) => ({ ...fake, undo: () => Promise.reject(new Error("disk full")) }) });
    expect(await runLine("/undo", line())).toBe("failed");
    expect(written).toEqual(["err:error: disk full"]);
  });
});

describe("slash commands", () => {
  it("/tools lists name, source and verdict in columns", async () => {
    const { written, line } = setup({ script: { tools, decisions } });
    expect(await runLine("/tools", line())).toBe("ok");
    expect(written).toEqual([
      "out:read_file           local  allow",
      "out:write_file          local  ask",
      "out:mcp__notes__search  notes  deny",
    ]);
  });

  it("/tools marks a tool that is pinned, one changed since pinned and one changed this session, before the server's claims", async () => {
    const remote = (name: string, definitionStatus: { pinned: "same" | "changed" | null; changedThisSession: boolean }, annotations?: Record<string, unknown>) => ({
      ...fakeTool(`mcp__notes__${name}`, "remote", "notes"),
      definitionStatus,
      ...(annotations === undefined ? {} : { annotations }),
    });
    const marked = [
      remote("search", { pinned: "same", changedThisSession: false }, { readOnlyHint: true }),
      remote("add", { pinned: "changed", changedThisSession: true }, { destructiveHint: true }),
      remote("list", { pinned: null, changedThisSession: true }),
      remote("tag", { pinned: null, changedThisSession: false }),
    ];
    const { written, line } = setup({ script: { tools: marked } });
    await runLine("/tools", line());
    expect(written).toEqual([
      "out:mcp__notes__search  notes  allow  pinned; server says: read-only (not trusted)",
      "out:mcp__notes__add     notes  allow  changed since pinned, changed this session; server says: destructive (not trusted)",
      "out:mcp__notes__list    notes  allow  changed this session",
      "out:mcp__notes__tag     notes  allow",
    ]);
  });

  it("/approvals shows each verdict with its reason", async () => {
    const { written, line } = setup({ script: { tools, decisions } });
    await runLine("/approvals", line());
    expect(written).toEqual([
      "out:read_file           allow  default for read tools: allow",
      "out:write_file          ask    default for write tools: ask",
      'out:mcp__notes__search  deny   rule "mcp__notes__*" (deny) from --deny',
    ]);
  });

  it("/approvals lists what is allowed for this session, each as the rule it reads as", async () => {
    const { written, line } = setup({ script: { tools: [], sessionAllows: ["write_file", "bash(git status*)"] } });
    await runLine("/approvals", line());
    expect(written).toEqual(["out:allowed for this session: write_file", "out:allowed for this session: bash(git status*)"]);
  });

  it("/call runs the tool through the agent and prints its text", async () => {
    const { written, agent, line } = setup({ script: { tools } });
    expect(await runLine('/call read_file {"path": "README.md"}', line())).toBe("ok");
    expect(agent.received).toEqual(['call read_file {"path":"README.md"}']);
    expect(written).toEqual(["out:ran read_file"]);
  });

  it("/call fails with the approval and its reason when the call is refused", async () => {
    const { written, line } = setup({
      script: {
        tools,
        decisions,
        callReport: (name) => ({ tool: name, isError: true, text: "denied by the user", truncated: false, decision: decisions.write_file }),
      },
    });
    expect(await runLine('/call write_file {"path":"a","content":"b"}', line())).toBe("failed");
    expect(written).toEqual(["out:denied by the user", "err:/call write_file failed; approval: ask (default for write tools: ask)"]);
  });

  it("/call fails without calling anything when the JSON is broken", async () => {
    const { written, agent, line } = setup({ script: { tools } });
    expect(await runLine("/call read_file {oops", line())).toBe("failed");
    expect(agent.received).toEqual([]);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^err:\/call: invalid JSON arguments for read_file: /);
  });

  it("/undo names the files it restored, removed and left alone with why, and says what commands and remote calls it cannot undo", async () => {
    const { written, line } = setup({
      script: {
        undoReport: {
          nothingToUndo: false,
          restored: ["/p/a.txt"],
          removed: ["/p/new.txt"],
          leftAlone: [{ path: "/p/b.txt", reason: "it changed after that turn" }],
          notUndoable: [
            { kind: "command", tool: "bash" },
            { kind: "remote", tool: "mcp__notes__add" },
          ],
          commandCheckpoint: { taken: false, why: "git is not installed" },
        },
      },
    });
    await runLine("/undo", line());
    expect(written).toEqual([
      "out:restored /p/a.txt",
      "out:removed /p/new.txt (the turn created it)",
      "out:not restored /p/b.txt: it changed after that turn",
      "out:not undone: whatever the turn's commands changed (bash): no checkpoint of the project (git is not installed)",
      "out:not undone: the remote calls mcp__notes__add (their servers keep what they did)",
    ]);
  });

  it("/undo of a turn whose commands were checkpointed names what they changed that it cannot undo", async () => {
    const { written, line } = setup({
      script: { undoReport: { nothingToUndo: false, restored: [], removed: [], leftAlone: [], notUndoable: [{ kind: "command", tool: "bash" }], commandCheckpoint: { taken: true } } },
    });
    await runLine("/undo", line());
    expect(written).toEqual([
      "out:no file to restore",
      "out:not undone: what the turn's commands (bash) changed in files .gitignore excludes or outside the project",
    ]);
  });

  it("/undo says when there is nothing to undo", async () => {
    const { written, line } = setup();
    await runLine("/undo", line());
    expect(written).toEqual(["out:nothing to undo"]);
  });

  it("/clear forgets the conversation", async () => {
    const { written, agent, line } = setup();
    await runLine("/clear", line());
    expect([agent.received, written]).toEqual([["clear"], ["out:conversation cleared"]]);
  });

  it("/mcp shows the servers from the session's statuses", async () => {
    const { written, line } = setup({
      servers: { statuses: () => [{ alias: "notes", transport: "stdio", state: "connected", protocolVersion: "2026-07-28", tools: 3, error: null, stderrTail: null }] },
    });
    await runLine("/mcp", line());
    expect(written).toEqual(["out:notes  stdio  connected  protocol 2026-07-28  3 tools"]);
  });

  it("/mcp says when no server is configured", async () => {
    const { written, line } = setup();
    await runLine("/mcp", line());
    expect(written).toEqual(["out:no MCP servers configured"]);
  });

  it("/exit ends the session and /help lists every command", async () => {
    const { written, line } = setup();
    expect(await runLine("/exit", line())).toBe("exit");
    expect(await runLine("/help", line())).toBe("ok");
    expect(written.map((row) => row.split(/\s{2,}/)[0])).toEqual([
      "out:/help",
      "out:/tools",
      "out:/approvals",
      "out:/call <tool> <json>",
      "out:/undo",
      "out:/last",
      "out:/cost",
      "out:/status",
      "out:/context",
      "out:/model [<name>]",
      "out:/compact",
      "out:/clear",
      "out:/mcp [reconnect|login|logs <alias>]",
      "out:/exit",
      "out:!<command>",
      "out:@<path>",
    ]);
  });
});

describe("!command", () => {
  const bash = [fakeTool("bash", "exec")];

  it("runs through the bash tool as the person's own call, shows the output and tells the conversation", async () => {
    const { written, agent, line } = setup({
      script: { tools: bash, decisions: { bash: { verdict: "ask", reason: "default for commands: ask" } }, callReport: () => ({ tool: "bash", isError: false, text: "exit code 0\nhi\n", truncated: false, decision: { verdict: "ask", reason: "default for commands: ask" } }) },
    });
    expect(await runLine("!echo hi", line({ terminal: TERMINAL }))).toBe("ok");
    expect(written).toEqual(["out:hi"]);
    expect(agent.received).toEqual(['callAsPerson bash {"command":"echo hi"}', `told ${shellContextText("echo hi", { isError: false, text: "exit code 0\nhi\n" })}`]);
  });

  it("is refused by a deny rule, and nothing joins the conversation", async () => {
    const denied = { verdict: "deny", reason: 'rule "bash(cat .env*)" (deny) from --deny' } as const;
    const { written, agent, line } = setup({ script: { tools: bash, callReport: () => ({ tool: "bash", isError: true, text: "Denied by the approval gate", truncated: false, decision: denied }) } });
    expect(await runLine("!cat .env", line({ terminal: TERMINAL }))).toBe("failed");
    expect(written).toEqual(['err:!cat .env: refused by the approval gate: rule "bash(cat .env*)" (deny) from --deny']);
    expect(agent.received).toEqual(['callAsPerson bash {"command":"cat .env"}']);
  });

  it("is refused where the lines are not typed by a person (pipe mode, -p), and never reaches the model", async () => {
    const { written, agent, line } = setup({ script: { tools: bash } });
    expect(await runLine("!rm -rf build", line())).toBe("failed");
    expect(written).toEqual(['err:a !command line runs only in the chat, where you type it; here, /call bash {"command": ...} goes through the approval gate']);
    expect(agent.received).toEqual([]);
  });

  it("asks for a command when there is none", async () => {
    const { written, agent, line } = setup({ script: { tools: bash } });
    expect(await runLine("!  ", line({ terminal: TERMINAL }))).toBe("failed");
    expect(written).toEqual(["err:usage: !<command>, e.g. !npm test (runs in the sandbox; the command and its output join the conversation)"]);
    expect(agent.received).toEqual([]);
  });
});

/** The event of a tool call ending, as the agent emits it: what /last reads back. */
function toolEnd(result: { tool: string; text: string; truncated: boolean; spill?: string }): AgentEvent {
  return { type: "tool_end", callId: "toolu_1", isError: false, ...result };
}

describe("/last", () => {
  it("prints the newest tool result in full, says when it was cut, and says when there is none", async () => {
    const { written, line, emit } = setup();
    expect(await runLine("/last", line())).toBe("ok");
    expect(written).toEqual(["out:no tool result yet"]);
    emit(toolEnd({ tool: "bash", text: "line 1\nline 2\u001b[2J", truncated: true }));
    written.length = 0;
    expect(await runLine("/last", line())).toBe("ok");
    expect(written).toEqual(["out:bash (cut to the 8,000-character budget, as the model received it):\nline 1\nline 2\\u001b[2J"]);
    const paged: string[] = [];
    await runLine("/last", line({ page: async (text) => void paged.push(text) }));
    expect(paged).toHaveLength(1);
  });

  it("prints a cut result whole, read back from where it was kept, and the cut text when that file is gone", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mca-last-"));
    try {
      const spill = join(dir, "toolu_1.txt");
      writeFileSync(spill, "all 20,000 characters\u001b[2J");
      const { written, line, emit } = setup();
      emit(toolEnd({ tool: "bash", text: "all 8,000", truncated: true, spill }));
      await runLine("/last", line());
      rmSync(spill);
      await runLine("/last", line());
      expect(written).toEqual([
        `out:bash (whole, from ${spill}):\nall 20,000 characters\\u001b[2J`,
        `out:bash (cut to the 8,000-character budget: the whole text could not be read back, ENOENT: no such file or directory, open '${spill}'):\nall 8,000`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("/model", () => {
  const answering = { name: "claude-sonnet-5-5", complete: () => Promise.reject(new Error("unused")) };

  it("alone prints the model in use and the known ones", async () => {
    const { written, line } = setup({ model: { answering } });
    expect(await runLine("/model", line())).toBe("ok");
    expect(written).toEqual([
      "out:model: claude-sonnet-5-5",
      "out:known: claude-opus-*, claude-sonnet-*, claude-haiku-* (the families mca knows the prices of); /model <name> switches, e.g. /model claude-haiku-4-5",
    ]);
  });

  it("with a name switches the session's model, and says why when it cannot", async () => {
    const asked: string[] = [];
    const { written, line } = setup({ model: { answering, switchTo: async (name) => (asked.push(name), name === "claude-haiku-4-5" ? name : new Error(`no model ${name}`)) } });
    expect(await runLine("/model claude-haiku-4-5", line())).toBe("ok");
    expect(await runLine("/model claude-nope", line())).toBe("failed");
    expect({ asked, written }).toEqual({
      asked: ["claude-haiku-4-5", "claude-nope"],
      written: ["out:the next turn uses claude-haiku-4-5", "err:/model: no model claude-nope"],
    });
  });
});

describe("/cost and /status", () => {
  it("/cost prints the session's tally, in every mode, counted from the agent's usage events", async () => {
    const { written, line, emit } = setup();
    await runLine("/cost", line());
    emit({ type: "usage", model: "claude-unpriced", usage: { inputTokens: 1000, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 50 } });
    await runLine("/cost", line());
    expect(written).toEqual([
      "out:no model usage yet in this session",
      "out:1 model request: 1,000 tokens in (0 read from cache, 0 written) · 50 out",
      expect.stringMatching(/^out:estimated cost: cost unknown for this model \(list prices taken /u),
    ]);
  });

  it("/status prints the model, the context, the servers and the session", async () => {
    const { written, line, session } = setup({
      script: { contextUse: { tokens: 1000, estimated: false } },
      model: { answering: { name: "claude-sonnet-5-5", complete: () => Promise.reject(new Error("unused")) } },
      servers: { statuses: () => [RECONNECTED] },
    });
    expect(await runLine("/status", line())).toBe("ok");
    expect(written).toEqual([
      "out:model: claude-sonnet-5-5",
      "out:context: 1,000 tokens at the last request (of 200,000)",
      "out:MCP servers: notes connected",
      `out:session: ${session.id} · project ${session.projectDir}`,
    ]);
  });
});

const RECONNECTED: ServerStatus = { alias: "notes", transport: "stdio", state: "connected", protocolVersion: "2026-07-28", tools: 1, error: null, stderrTail: null };

/** A reconnect that records the aliases asked for and brings `notes` back with one tool, `find`. */
function reconnecting(asked: string[]): SessionServers["reconnect"] {
  return async (alias) => {
    asked.push(alias);
    return alias === "notes" ? { status: RECONNECTED, remoteTools: [fakeTool("mcp__notes__find", "remote", "notes")] } : new Error(`no MCP server "${alias}"`);
  };
}

describe("/mcp reconnect", () => {
  it("restarts the server, prints its status and offers its tools now in place of the remote tools before", async () => {
    const asked: string[] = [];
    const { written, agent, line } = setup({ script: { tools }, servers: { reconnect: reconnecting(asked) } });
    expect(await runLine("/mcp reconnect notes", line())).toBe("ok");
    expect(asked).toEqual(["notes"]);
    expect(agent.received).toEqual(["setTools read_file write_file mcp__notes__find"]);
    expect(written).toEqual(["out:notes  stdio  connected  protocol 2026-07-28  1 tools"]);
  });

  it("fails with the reason for an alias it does not know, and without servers, and leaves the tools alone", async () => {
    const withServers = setup({ script: { tools }, servers: { reconnect: reconnecting([]) } });
    const withoutServers = setup({ script: { tools } });
    expect(await runLine("/mcp reconnect nope", withServers.line())).toBe("failed");
    expect(await runLine("/mcp reconnect notes", withoutServers.line())).toBe("failed");
    expect(await runLine("/mcp reconnect", withoutServers.line())).toBe("failed");
    expect([...withServers.written, ...withoutServers.written]).toEqual([
      'err:no MCP server "nope"',
      "err:no MCP servers configured",
      "err:usage: /mcp, /mcp reconnect <alias>, /mcp login <alias> or /mcp logs <alias>",
    ]);
    expect([withServers.agent.received, withoutServers.agent.received]).toEqual([[], []]);
  });
});

describe("/mcp logs", () => {
  it("prints the log messages a server's status keeps, oldest first, its text made safe to show", async () => {
    const notes = { ...RECONNECTED, logs: ["info: Roots updated", "warning db: slow \u001b[2J"] };
    const quiet = { ...RECONNECTED, alias: "quiet" };
    const { written, line } = setup({ servers: { statuses: () => [notes, quiet] } });
    expect(await runLine("/mcp logs notes", line())).toBe("ok");
    expect(await runLine("/mcp logs quiet", line())).toBe("ok");
    expect(await runLine("/mcp logs nope", line())).toBe("failed");
    expect(written).toEqual([
      "out:info: Roots updated",
      "out:warning db: slow \\u001b[2J",
      "out:quiet has sent no log message",
      'err:/mcp logs: no MCP server is named "nope" (/mcp lists them)',
    ]);
  });
});

describe("/mcp login", () => {
  it("runs the login on the terminal a person types on, then reconnects the server; without a terminal it says what to do", async () => {
    const asked: string[] = [];
    const lent: TerminalLender[] = [];
    const reconnected: string[] = [];
    const { written, agent, line } = setup({
      script: { tools },
      servers: {
        login: async (alias, print, _fail, lend) => (asked.push(alias), lent.push(lend), print("Logged in\n"), 0),
        reconnect: reconnecting(reconnected),
      },
    });
    expect(await runLine("/mcp login notes", line())).toBe("failed");
    expect(written).toEqual(["err:/mcp login needs a terminal and a browser: run `mca mcp login notes` in one"]);
    expect([asked, reconnected]).toEqual([[], []]);
    written.length = 0;
    expect(await runLine("/mcp login notes", line({ terminal: TERMINAL }))).toBe("ok");
    expect([asked, lent, reconnected]).toEqual([["notes"], [TERMINAL], ["notes"]]);
    expect(written).toEqual(["out:Logged in", "out:notes  stdio  connected  protocol 2026-07-28  1 tools"]);
    expect(agent.received).toEqual(["setTools read_file write_file mcp__notes__find"]);
    expect(await runLine("/mcp frobnicate", line({ terminal: TERMINAL }))).toBe("failed");
  });
});

const IMAGE: ToolImage = { mediaType: "image/png", bytes: 33, width: 2, height: 3, data: "iVBORw0KGgo=" };

/** One prompt command, listed once `finish` is called; it hands over its argument text as the turn, with an image. */
function promptCatalog() {
  const refreshed: string[] = [];
  let finish = (): void => undefined;
  const listing = new Promise<void>((resolve) => (finish = resolve));
  const command: SlashCommand = {
    name: "mcp__docs__review",
    usage: "/mcp__docs__review <file>",
    summary: 'Reviews a file (MCP server "docs")',
    run: async (_line, argText) => ({ prompt: `Review ${argText}`, images: [IMAGE] }),
  };
  let listed: readonly SlashCommand[] = [];
  const catalog: PromptCatalog = {
    current: () => listed,
    settled: async () => {
      await listing;
      listed = [command];
      return listed;
    },
    refresh: async (alias) => void refreshed.push(alias),
  };
  return { catalog, refreshed, finish };
}

describe("MCP prompt commands", () => {
  it("run the prompt a command hands over as the user's turn, with its images, once the prompts are listed", async () => {
    const turns: string[] = [];
    const { catalog, finish } = promptCatalog();
    const { line } = setup({
      servers: { prompts: () => catalog },
      agent: (fake) => ({ ...fake, prompt: async (text, signal, images) => (turns.push(`${text} + ${images?.length ?? 0} image`), fake.prompt(text, signal)) }),
    });
    const ran = runLine("/mcp__docs__review a.ts", line({ turnStarts: () => void turns.push("started") }));
    await Promise.resolve();
    expect(turns).toEqual([]);
    finish();
    expect(await ran).toBe("ok");
    expect(turns).toEqual(["started", "Review a.ts + 1 image"]);
  });

  it("tell the mode a typed prompt's turn starts too", async () => {
    const turns: string[] = [];
    const { line } = setup();
    expect(await runLine("hello", line({ turnStarts: () => void turns.push("started") }))).toBe("ok");
    expect(turns).toEqual(["started"]);
  });

  it("are listed by /help in a section of their own", async () => {
    const { catalog, finish } = promptCatalog();
    const { written, line } = setup({ servers: { prompts: () => catalog } });
    finish();
    expect(await runLine("/help", line())).toBe("ok");
    expect(written.slice(-2)).toEqual(["out:\nMCP prompts", 'out:/mcp__docs__review <file>  Reviews a file (MCP server "docs")']);
  });

  it("are listed again after /mcp reconnect", async () => {
    const { catalog, refreshed } = promptCatalog();
    const { line } = setup({ script: { tools }, servers: { reconnect: reconnecting([]), prompts: () => catalog } });
    expect(await runLine("/mcp reconnect notes", line())).toBe("ok");
    expect(refreshed).toEqual(["notes"]);
  });
});
