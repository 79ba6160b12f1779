import { describe, expect, it } from "vitest";
import { createAgent, type AgentDeps } from "./agent.js";
import type { ApprovalAnswer, SessionAllow } from "./gate.js";
import { parseRule, type Rule } from "./rule.js";
import {
  answering,
  eventLog,
  fakeTool,
  memorySnapshots,
  memoryTranscript,
  reply,
  scriptedModel,
  streamed,
  text,
  use,
} from "./test-support/fakes.js";
import { createRedactor, REDACTED } from "./redaction.js";
import type { Tool, ToolImage } from "./tool.js";
import { MAX_RESULT_CHARS, truncateResult, type ApprovalRequest } from "./tool-call.js";

const signal = (): AbortSignal => new AbortController().signal;

const readTool = fakeTool({ name: "read_file" });
const writeTool = fakeTool({
  name: "write_file",
  kind: "write",
  changes: (args) => [String(args.path)],
  run: async (args) => ({ text: `wrote ${String(args.path)}`, isError: false }),
});
const remoteTool = fakeTool({ name: "mcp__tickets__create", kind: "remote" });
const bashTool = fakeTool({ name: "bash", kind: "exec" });
const bigTool = fakeTool({ name: "big", run: async () => ({ text: "z".repeat(100_000), isError: false }) });

function rule(verdict: Rule["verdict"], pattern: string, origin = "--test"): Rule {
  const parsed = parseRule(pattern, verdict, origin);
  if (parsed instanceof Error) throw parsed;
  return parsed;
}

function setup(extra: Partial<AgentDeps> & { readonly answers?: readonly ApprovalAnswer[] } = {}) {
  const { events, emit } = eventLog();
  const approval = answering(...(extra.answers ?? []));
  const snapshots = memorySnapshots();
  const transcript = memoryTranscript();
  const tools: readonly Tool[] = [readTool, writeTool, remoteTool, bigTool];
  const agent = createAgent({
    model: scriptedModel([]),
    tools,
    rules: [],
    system: "",
    approve: approval.approve,
    snapshots,
    transcript,
    emit,
    ...extra,
  });
  return { agent, events, asked: approval.asked, snapshots, transcript };
}

describe("Agent.call", () => {
  it("runs an allowed tool and reports its result with the gate's decision", async () => {
    const { agent, events, transcript } = setup();
    expect(await agent.call("read_file", { path: "a" }, signal())).toEqual({
      tool: "read_file",
      isError: false,
      text: 'read_file {"path":"a"}',
      truncated: false,
      decision: { verdict: "allow", reason: "default for read tools: allow" },
    });
    expect(events).toEqual([
      { type: "tool_start", callId: "user-call-1", tool: "read_file", args: { path: "a" } },
      { type: "tool_end", callId: "user-call-1", tool: "read_file", isError: false, text: 'read_file {"path":"a"}', truncated: false },
    ]);
    expect(transcript.entries).toEqual([
      { type: "tool_call", callId: "user-call-1", tool: "read_file", args: { path: "a" } },
      {
        type: "decision",
        callId: "user-call-1",
        tool: "read_file",
        decision: { verdict: "allow", reason: "default for read tools: allow" },
      },
      { type: "call_started", callId: "user-call-1", tool: "read_file" },
      { type: "tool_result", callId: "user-call-1", tool: "read_file", isError: false, text: 'read_file {"path":"a"}', truncated: false },
    ]);
  });

  it("truncates a 100,000-character result to 8,052 characters", async () => {
    const report = await setup().agent.call("big", {}, signal());
    expect({ length: report.text.length, truncated: report.truncated }).toEqual({ length: 8052, truncated: true });
  });

  it("treats each call as its own prompt for loop detection", async () => {
    const { agent } = setup();
    for (let index = 0; index < 5; index++) {
      expect((await agent.call("read_file", { path: "a" }, signal())).isError).toBe(false);
    }
  });

  it("denies by rule without asking and tells the model why", async () => {
    const { agent, events, asked } = setup({ rules: [rule("deny", "mcp__tickets__*", "--deny")] });
    const report = await agent.call("mcp__tickets__create", {}, signal());
    const decision = { verdict: "deny", reason: 'rule "mcp__tickets__*" (deny) from --deny' };
    expect(report).toEqual({
      tool: "mcp__tickets__create",
      isError: true,
      text: 'Denied by the approval gate: rule "mcp__tickets__*" (deny) from --deny.',
      truncated: false,
      decision,
    });
    expect(asked).toEqual([]);
    expect(events[1]).toEqual({ type: "approval", callId: "user-call-1", tool: "mcp__tickets__create", decision });
  });

  it("puts the user's own reason for a denial into the result the model reads", async () => {
    const { agent } = setup({ approve: async () => ({ kind: "denied", because: "not on main; use a branch" }) });
    expect((await agent.call("write_file", { path: "/p/a" }, signal())).text).toBe('Denied by the user, who said: "not on main; use a branch"');
  });

  it("asks on ask, runs once on 'once', and asks again next time", async () => {
    const { agent, asked, events } = setup({ answers: ["once", "deny"] });
    expect((await agent.call("write_file", { path: "/p/a" }, signal())).text).toBe("wrote /p/a");
    expect((await agent.call("write_file", { path: "/p/b" }, signal())).text).toBe("Denied by the user.");
    expect(asked).toEqual(["write_file", "write_file"]);
    expect(events.filter((event) => event.type === "approval")).toEqual([
      { type: "approval", callId: "user-call-1", tool: "write_file", decision: { verdict: "ask", reason: "default for write tools: ask" }, answer: "once" },
      { type: "approval", callId: "user-call-2", tool: "write_file", decision: { verdict: "ask", reason: "default for write tools: ask" }, answer: "deny" },
    ]);
  });

  it("remembers 'allow for this session' per tool name", async () => {
    const { agent, asked } = setup({ answers: ["session"] });
    await agent.call("write_file", { path: "/p/a" }, signal());
    await agent.call("write_file", { path: "/p/b" }, signal());
    expect(asked).toEqual(["write_file"]);
    expect(agent.decide("write_file")).toEqual({ verdict: "allow", reason: "allowed for this session: write_file" });
    expect(agent.decide("mcp__tickets__create").verdict).toBe("ask");
    expect(agent.sessionAllows()).toEqual(["write_file"]);
  });

  it("lists what was allowed for this session outside its calls (the sandbox's domains) after its own", async () => {
    const { agent } = setup({ answers: ["session"], otherSessionAllows: () => ["network(registry.npmjs.org)"] });
    await agent.call("write_file", { path: "/p/a" }, signal());
    expect(agent.sessionAllows()).toEqual(["write_file", "network(registry.npmjs.org)"]);
  });

  it("remembers 'allow for this session' of a command as the command's own prefix, offered with the question", async () => {
    const asked: Array<readonly [string, SessionAllow | null]> = [];
    const answers: ApprovalAnswer[] = ["session", "deny"];
    const approve = async (request: ApprovalRequest): Promise<ApprovalAnswer> => {
      asked.push([String(request.args.command), request.sessionAllow]);
      return answers.shift() ?? "deny";
    };
    const { agent } = setup({ tools: [bashTool], approve });
    for (const command of ["git status --short", "git status", "touch x; rm -rf y"]) await agent.call("bash", { command }, signal());
    expect(asked).toEqual([
      ["git status --short", { kind: "command", tool: "bash", prefix: ["git", "status"] }],
      ["touch x; rm -rf y", null],
    ]);
    expect(agent.sessionAllows()).toEqual(["bash(git status*)"]);
    expect(agent.decide("bash", { command: "rm -rf x" })).toEqual({ verdict: "ask", reason: "default for exec tools: ask" });
  });

  it("offers no session allow for a write only a person can allow, and an answer of 'session' to it allows nothing more", async () => {
    const offered: Array<SessionAllow | null> = [];
    const approve = async (request: ApprovalRequest): Promise<ApprovalAnswer> => {
      offered.push(request.sessionAllow);
      return "session";
    };
    const { agent } = setup({ approve });
    await agent.call("write_file", { path: ".git/hooks/pre-commit" }, signal());
    expect([offered, agent.sessionAllows(), agent.decide("write_file", { path: "src/a.ts" }).verdict]).toEqual([[null], [], "ask"]);
  });

  it("runs a command once when the answer is 'session' but the question offered no such choice", async () => {
    const { agent, asked } = setup({ tools: [bashTool], answers: ["session", "deny"] });
    expect((await agent.call("bash", { command: "git status; rm x" }, signal())).isError).toBe(false);
    expect((await agent.call("bash", { command: "git status; rm y" }, signal())).text).toBe("Denied by the user.");
    expect([asked, agent.sessionAllows()]).toEqual([["bash", "bash"], []]);
  });

  it("treats an approval prompt that fails as a deny nobody gave, and says so", async () => {
    const { agent } = setup({ approve: () => Promise.reject(new Error("input closed")) });
    expect((await agent.call("write_file", { path: "/p/a" }, signal())).text).toBe("Not run: the approval question failed (input closed).");
  });

  it("tells the model why nobody was asked and how the call can be allowed, and records a deny", async () => {
    const reason = 'write_file needs approval and there is no terminal to ask on; run mca with --allow "write_file" to allow it';
    const { agent, transcript } = setup({ approve: async () => ({ kind: "nobody_to_ask", reason }) });
    expect(await agent.call("write_file", { path: "/p/a" }, signal())).toEqual({
      tool: "write_file",
      isError: true,
      text: `Not run: ${reason}.`,
      truncated: false,
      decision: { verdict: "ask", reason: "default for write tools: ask" },
    });
    expect(transcript.entries.filter((entry) => entry.type === "decision")).toEqual([
      { type: "decision", callId: "user-call-1", tool: "write_file", decision: { verdict: "ask", reason: "default for write tools: ask" }, answer: "deny" },
    ]);
  });

  it("names the reason a call was stopped when one is given, and blames the user only when none is", async () => {
    const stoppedBy = async (reason?: string): Promise<string> => {
      let started = (): void => undefined;
      const running = new Promise<void>((resolve) => (started = resolve));
      const hang = fakeTool({ name: "hang", run: () => (started(), new Promise(() => undefined)) });
      const { agent } = setup({ tools: [hang] });
      const controller = new AbortController();
      const call = agent.call("hang", {}, controller.signal);
      // Stopped while the tool runs, not before it starts.
      await running;
      controller.abort(reason);
      return (await call).text;
    };
    expect([await stoppedBy("mca received SIGTERM"), await stoppedBy()]).toEqual(["Stopped: mca received SIGTERM.", "Aborted by the user."]);
  });

  it("does not run a change whose snapshot cannot be saved", async () => {
    let ran = false;
    const run = async () => {
      ran = true;
      return { text: "", isError: false };
    };
    const tool = fakeTool({ name: "w", kind: "write", changes: () => ["/p/x"], run });
    const { agent } = setup({
      tools: [tool],
      rules: [rule("allow", "w")],
      snapshots: { ...memorySnapshots(), save: () => Promise.reject(new Error("read-only disk")) },
    });
    const report = await agent.call("w", {}, signal());
    expect({ text: report.text, ran }).toEqual({ text: "Not run: could not save /p/x for /undo first (read-only disk).", ran: false });
  });
});

describe("Agent.call argument checks", () => {
  const parsing = (log: string[]): Tool<{ readonly file: string }> => ({
    ...fakeTool({ name: "typed", kind: "write" }),
    parse(args) {
      log.push("parse");
      return typeof args.path === "string" ? { file: args.path } : new Error('argument "path" must be a string');
    },
    changes: ({ file }) => [`/p/${file}`],
    run: async ({ file }) => ({ text: `ran on ${file}`, isError: false }),
  });

  it("parses a tool's arguments once and hands the typed value to changes and run", async () => {
    const log: string[] = [];
    const { agent, snapshots } = setup({ tools: [parsing(log)], rules: [rule("allow", "typed")] });
    expect((await agent.call("typed", { path: "a.txt" }, signal())).text).toBe("ran on a.txt");
    expect(log).toEqual(["parse"]);
    expect(snapshots.log).toEqual(["save 1 /p/a.txt", "seal 1"]);
  });

  it("returns the parse error to the model without asking or running", async () => {
    const { agent, asked } = setup({ tools: [parsing([])] });
    expect(await agent.call("typed", { path: 3 }, signal())).toMatchObject({
      isError: true,
      text: 'Invalid arguments for typed: argument "path" must be a string.',
    });
    expect(asked).toEqual([]);
  });

  it("judges the subject the tool gives for its parsed arguments, not the arguments as written", async () => {
    const log: string[] = [];
    const realPath: Tool<{ readonly file: string }> = { ...parsing(log), gateSubject: ({ file }) => ({ kind: "path", text: `real/${file}`, outside: false }) };
    const { agent, snapshots } = setup({ tools: [realPath], rules: [rule("allow", "typed(*)"), rule("deny", "typed(real/*)", "--deny")] });
    expect(await agent.call("typed", { path: "link" }, signal())).toMatchObject({
      isError: true,
      text: 'Denied by the approval gate: rule "typed(real/*)" (deny) from --deny.',
    });
    expect(agent.decide("typed", { path: "link" })).toEqual({ verdict: "deny", reason: 'rule "typed(real/*)" (deny) from --deny' });
    expect(log).toEqual(["parse", "parse"]);
    expect(snapshots.log).toEqual([]);
  });
});

describe("Agent.decide", () => {
  it("gives a known tool's verdict and denies an unknown name", () => {
    const { agent } = setup({ rules: [rule("allow", "mcp__tickets__*", "--allow")] });
    expect(agent.decide("mcp__tickets__create")).toEqual({ verdict: "allow", reason: 'rule "mcp__tickets__*" (allow) from --allow' });
    expect(agent.decide("ghost")).toEqual({ verdict: "deny", reason: 'no tool named "ghost"' });
  });
});

describe("Agent.call with a redactor", () => {
  const secret = "tok-0123456789abcdef";
  const leaky = fakeTool({ name: "leaky", run: async () => ({ text: `${"z".repeat(MAX_RESULT_CHARS - 5)}${secret.toUpperCase()}`, isError: false }) });

  it("redacts the result before it is cut, so no fragment of a secret survives, everywhere the text goes", async () => {
    const { agent, events, transcript } = setup({ tools: [leaky], redact: createRedactor([secret]) });
    const report = await agent.call("leaky", {}, signal());
    const expected = `${"z".repeat(MAX_RESULT_CHARS - 5)}${REDACTED}`;
    expect(report).toMatchObject({ text: truncateResult(expected).text, truncated: true });
    expect(report.text).not.toContain("TOK-0");
    expect(events.at(-1)).toMatchObject({ type: "tool_end", text: report.text });
    expect(transcript.entries.at(-1)).toMatchObject({ type: "tool_result", text: report.text });
  });

  it("leaves the result as it is without one", async () => {
    const report = await setup({ tools: [leaky] }).agent.call("leaky", {}, signal());
    expect(report.text.slice(MAX_RESULT_CHARS - 5, MAX_RESULT_CHARS)).toBe("TOK-0");
  });
});

describe("Agent.undo", () => {
  it("says there is nothing to undo before anything changed", async () => {
    expect(await setup().agent.undo()).toEqual({ nothingToUndo: true, restored: [], notUndoable: [] });
  });

  it("saves a file before its first change in a turn and restores the last turn that changed files", async () => {
    const { agent, snapshots } = setup({ rules: [rule("allow", "*")] });
    await agent.call("write_file", { path: "/p/a" }, signal());
    await agent.call("read_file", { path: "/p/a" }, signal());
    await agent.call("write_file", { path: "/p/b" }, signal());
    const undone = (restored: string[]) => ({ nothingToUndo: false, restored, removed: [], leftAlone: [], notUndoable: [], commandCheckpoint: null });
    expect(await agent.undo()).toEqual(undone(["/p/b"]));
    expect(await agent.undo()).toEqual(undone(["/p/a"]));
    expect(await agent.undo()).toEqual({ nothingToUndo: true, restored: [], notUndoable: [] });
    // Each turn that saved a file is sealed when it ends, so undo can tell what changed after it.
    expect(snapshots.log).toEqual(["save 1 /p/a", "seal 1", "save 3 /p/b", "seal 3", "undo 3", "undo 1"]);
  });

  it("reports a remote call and a command of the undone turn as not undoable, noted before they ran", async () => {
    const shell = fakeTool({ name: "bash", kind: "exec" });
    const { agent, snapshots } = setup({ tools: [remoteTool, shell], rules: [rule("allow", "*")] });
    await agent.call("mcp__tickets__create", { title: "x" }, signal());
    await agent.call("bash", { command: "make" }, signal());
    const undone = { nothingToUndo: false, restored: [], removed: [], leftAlone: [], commandCheckpoint: null };
    expect(await agent.undo()).toEqual({ ...undone, notUndoable: [{ kind: "command", tool: "bash" }] });
    expect(await agent.undo()).toEqual({ ...undone, notUndoable: [{ kind: "remote", tool: "mcp__tickets__create" }] });
    expect(snapshots.log).toEqual(["note 1 remote mcp__tickets__create", "seal 1", "note 2 command bash", "seal 2", "undo 2", "undo 1"]);
  });

  it("records no snapshot and no remote call for a call that was denied", async () => {
    const { agent, snapshots } = setup({ rules: [rule("deny", "*")] });
    await agent.call("write_file", { path: "/p/a" }, signal());
    await agent.call("mcp__tickets__create", {}, signal());
    expect({ undo: await agent.undo(), log: snapshots.log }).toEqual({
      undo: { nothingToUndo: true, restored: [], notUndoable: [] },
      log: [],
    });
  });
});

describe("a result with images", () => {
  const image: ToolImage = { mediaType: "image/png", data: "A".repeat(40_000), bytes: 30_000, width: 640, height: 480 };
  const shotTool = fakeTool({ name: "shot", run: async () => ({ text: `${"t".repeat(MAX_RESULT_CHARS)}\n[image: image/png 640×480, 30 kB]`, isError: false, images: [image] }) });

  it("reaches the model whole, outside the text's budget; events and the transcript keep only what the image is", async () => {
    const model = scriptedModel([() => reply(use("s1", "shot")), streamed(text("seen"))]);
    const { agent, events, transcript } = setup({ model, tools: [shotTool] });
    await agent.prompt("look", signal());
    const cut = truncateResult(`${"t".repeat(MAX_RESULT_CHARS)}\n[image: image/png 640×480, 30 kB]`).text;
    const info = { mediaType: "image/png", bytes: 30_000, width: 640, height: 480 };
    expect({
      sent: model.seen[1]?.at(-1),
      ended: events.filter((event) => event.type === "tool_end"),
      recorded: transcript.entries.filter((entry) => entry.type === "tool_result"),
    }).toEqual({
      sent: { role: "user", content: [{ type: "tool_result", toolUseId: "s1", text: cut, isError: false, images: [image] }] },
      ended: [{ type: "tool_end", callId: "s1", tool: "shot", isError: false, text: cut, truncated: true, images: [info] }],
      recorded: [{ type: "tool_result", callId: "s1", tool: "shot", isError: false, text: cut, truncated: true, images: [info] }],
    });
  });
});

describe("truncateResult", () => {
  it("leaves a result of exactly 8,000 characters whole", () => {
    const text = "a".repeat(8000);
    expect(truncateResult(text)).toEqual({ text, truncated: false });
  });

  it("cuts an 8,001-character result to 8,000 characters and says one more was cut", () => {
    const text = "a".repeat(8000) + "b";
    expect(truncateResult(text)).toEqual({
      text: `${"a".repeat(8000)}\n\n[1 more characters were cut to fit the budget]`,
      truncated: true,
    });
  });

  it("brings a 100,000-character result to exactly 8,052 characters", () => {
    const result = truncateResult("x".repeat(100_000));
    expect(result.truncated).toBe(true);
    expect(result.text.length).toBe(8052);
    expect(result.text.endsWith("\n\n[92000 more characters were cut to fit the budget]")).toBe(true);
  });

  it("uses a 52-character sentence when the cut count has five digits", () => {
    const result = truncateResult("y".repeat(MAX_RESULT_CHARS + 12_345));
    expect(result.text.slice(MAX_RESULT_CHARS)).toBe("\n\n[12345 more characters were cut to fit the budget]");
    expect(result.text.slice(MAX_RESULT_CHARS).length).toBe(52);
  });

  it("never splits a surrogate pair at the cut", () => {
    const text = "a".repeat(MAX_RESULT_CHARS - 1) + "😀" + "tail";
    expect(truncateResult(text)).toEqual({
      text: `${"a".repeat(MAX_RESULT_CHARS - 1)}\n\n[6 more characters were cut to fit the budget]`,
      truncated: true,
    });
  });
});
