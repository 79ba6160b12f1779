import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAgent, STARTED_OUTCOME_UNKNOWN_TEXT } from "../kernel/index.js";
import type { Message } from "../kernel/index.js";
import { eventLog, fakeTool, memorySnapshots, reply, scriptedModel, text, use } from "../kernel/test-support/fakes.js";
import { findSessionToResume, listSessions } from "./session-list.js";
import { tempStatePerTest } from "./test-support/temp-state.js";
import { openTranscript, sessionsDir, type SessionMode } from "./transcript-file.js";

const state = tempStatePerTest("mca-session-list-");

const user = (value: string): Message => ({ role: "user", content: [text(value)] });
const assistant = (value: string): Message => ({ role: "assistant", content: [text(value)] });

/**
 * A session file led by its start line (none for `mode` null), naming `project` (by default this test's),
 * whose modification time is `secondsAgo` in the past, so that "newest" is unambiguous.
 */
function writeSession(
  sessionId: string,
  entries: readonly unknown[],
  secondsAgo: number,
  { mode = "chat", tail = "", project = state().projectDir }: { mode?: SessionMode | null; tail?: string; project?: string } = {},
): void {
  mkdirSync(sessionsDir(state()), { recursive: true });
  const file = join(sessionsDir(state()), `${sessionId}.jsonl`);
  const start = mode === null ? [] : [{ type: "session", id: sessionId, project, mode, startedAt: "2026-12-01T08:00:00.000Z", snapshots: sessionId }];
  writeFileSync(file, [...start, ...entries].map((entry) => `${JSON.stringify(entry)}\n`).join("") + tail);
  const when = Date.now() / 1000 - secondsAgo;
  utimesSync(file, when, when);
}

/** The messages `--resume` without an id would continue, or null. */
function newestChat(): readonly Message[] | null {
  const found = findSessionToResume(state(), undefined);
  if (found instanceof Error) throw found;
  return found?.messages ?? null;
}

describe("findSessionToResume", () => {
  it("returns null when there are no sessions", () => {
    expect(newestChat()).toBeNull();
  });

  it("rebuilds the history of the newest session", () => {
    writeSession("older", [{ type: "message", message: user("old") }], 100);
    writeSession("newer", [
      { type: "message", message: user("a") },
      { type: "notice", message: "ignored" },
      { type: "message", message: assistant("b") },
    ], 10);
    expect(newestChat()).toEqual([user("a"), assistant("b")]);
  });

  it("ignores a torn last line", () => {
    writeSession("torn", [{ type: "message", message: user("a") }, { type: "message", message: assistant("b") }], 10, { tail: '{"type":"message","mess' });
    expect(newestChat()).toEqual([user("a"), assistant("b")]);
  });

  it("passes over a newer session that has no messages", () => {
    writeSession("real", [{ type: "message", message: user("a") }], 100);
    writeSession("empty", [{ type: "notice", message: "started" }], 10);
    expect(newestChat()).toEqual([user("a")]);
  });

  it("ignores malformed messages rather than trusting them", () => {
    writeSession("odd", [
      { type: "message", message: user("a") },
      { type: "message", message: { role: "assistant", content: [{ type: "tool_use", id: 3, name: "x", input: {} }] } },
      { type: "message", message: { role: "system", content: [] } },
    ], 10);
    expect(newestChat()).toEqual([user("a")]);
  });

  it("resumes where a resumed session left off, and a crash mid-call leaves the started call's outcome unknown", async () => {
    const first = openTranscript(state(), "first", { mode: "chat", startedAt: "2026-12-01T08:00:00.000Z", snapshots: "first" });
    first.append({ type: "message", message: user("one") });
    first.append({ type: "message", message: assistant("two") });
    const resumed = newestChat();
    expect(resumed).toEqual([user("one"), assistant("two")]);

    const second = openTranscript(state(), "second", { mode: "chat", startedAt: "2026-12-01T09:00:00.000Z", snapshots: "second" });
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const agent = createAgent({
      model: scriptedModel([() => reply(use("t1", "hang"))]),
      tools: [fakeTool({ name: "hang", run: () => new Promise(() => started()) })],
      rules: [],
      system: "",
      approve: async () => "deny",
      snapshots: memorySnapshots(),
      transcript: second,
      emit: eventLog().emit,
      history: resumed ?? [],
    });
    // The call never settles: as if the process died mid-call. Only the transcript survives.
    void agent.prompt("three", new AbortController().signal);
    await running;
    const utime = Date.now() / 1000 + 5;
    utimesSync(join(sessionsDir(state()), "second.jsonl"), utime, utime);

    const afterCrash = newestChat();
    const open: Message = { role: "assistant", content: [use("t1", "hang")] };
    const unknownOutcome: Message = { role: "user", content: [{ type: "tool_result", toolUseId: "t1", text: STARTED_OUTCOME_UNKNOWN_TEXT, isError: true }] };
    expect(afterCrash).toEqual([user("one"), assistant("two"), user("three"), open, unknownOutcome]);
    const again = createAgent({
      model: scriptedModel([]),
      tools: [],
      rules: [],
      system: "",
      approve: async () => "deny",
      snapshots: memorySnapshots(),
      transcript: { append: () => undefined },
      emit: eventLog().emit,
      history: afterCrash ?? [],
    });
    expect(again.messages.at(-1)).toEqual(unknownOutcome);
  });

  it("continues the newest chat session, not a newer one-shot -p or pipe run, nor one that never said how it ran", () => {
    writeSession("chat", [{ type: "message", message: user("the chat") }], 300);
    writeSession("print", [{ type: "message", message: user("one shot") }], 200, { mode: "print" });
    writeSession("pipe", [{ type: "message", message: user("piped") }], 100, { mode: "pipe" });
    writeSession("old", [{ type: "message", message: user("before modes") }], 50, { mode: null });
    expect(findSessionToResume(state(), undefined)).toEqual({ id: "chat", messages: [user("the chat")], snapshots: "chat", loadedTools: [] });
  });

  it("with anyMode (`-c`), continues the newest conversation, a -p or pipe run's too, but never an `mca call`'s", () => {
    writeSession("chat", [{ type: "message", message: user("the chat") }], 300);
    writeSession("pipe", [{ type: "message", message: user("piped") }], 200, { mode: "pipe" });
    writeSession("call", [{ type: "message", message: user("called") }], 100, { mode: "call" });
    expect(findSessionToResume(state(), undefined, true)).toEqual({ id: "pipe", messages: [user("piped")], snapshots: "pipe", loadedTools: [] });
  });

  it("continues the session named by its id, whatever its mode", () => {
    writeSession("chat", [{ type: "message", message: user("the chat") }], 300);
    writeSession("print", [{ type: "message", message: user("one shot") }], 200, { mode: "print" });
    expect(findSessionToResume(state(), "print")).toEqual({ id: "print", messages: [user("one shot")], snapshots: "print", loadedTools: [] });
  });

  it("goes on in the snapshot folder of the session a resumed one continued, so /undo reaches back through a chain of resumes", () => {
    mkdirSync(sessionsDir(state()), { recursive: true });
    writeFileSync(
      join(sessionsDir(state()), "second.jsonl"),
      `${JSON.stringify({ type: "session", id: "second", project: state().projectDir, mode: "chat", startedAt: "2026-12-01T09:00:00.000Z", snapshots: "first" })}\n${JSON.stringify({ type: "message", message: user("hi") })}\n`,
    );
    expect(findSessionToResume(state(), undefined)).toEqual({ id: "second", messages: [user("hi")], snapshots: "first", loadedTools: [] });
  });

  it("gives the deferred tools the session loaded, in order, through /clear and past malformed entries", () => {
    writeSession(
      "tools",
      [
        { type: "tools_loaded", names: ["mcp__a__one"] },
        { type: "message", message: user("hi") },
        { type: "clear" },
        { type: "tools_loaded", names: ["mcp__a__two", 3, "mcp__a__one"] },
        { type: "tools_loaded", names: "mcp__a__three" },
        { type: "message", message: user("again") },
      ],
      1,
    );
    expect(findSessionToResume(state(), undefined)).toEqual({ id: "tools", messages: [user("again")], snapshots: "tools", loadedTools: ["mcp__a__one", "mcp__a__two"] });
  });

  it("continues only a transcript that names this project's real path in its first line", () => {
    writeSession("ours", [{ type: "message", message: user("ours") }], 300);
    writeSession("planted", [{ type: "message", message: user("the attacker's earlier messages") }], 10, { project: "/somewhere/else" });
    expect([newestChat(), findSessionToResume(state(), "planted")]).toEqual([
      [user("ours")],
      new Error('no session "planted" in this project; `mca sessions` lists them'),
    ]);
  });

  it("names `mca sessions` for an id that names no session of the project", () => {
    writeSession("chat", [{ type: "message", message: user("the chat") }], 300);
    writeSession("nostart", [{ type: "message", message: user("x") }], 300, { mode: null });
    for (const id of ["nope", "../chat", ".hidden", "nostart"]) {
      expect(findSessionToResume(state(), id)).toEqual(new Error(`no session ${JSON.stringify(id)} in this project; \`mca sessions\` lists them`));
    }
  });
});

describe("listSessions", () => {
  it("lists the sessions that hold a message, newest first, with start, mode, first prompt on one line and message count", () => {
    writeSession("a", [{ type: "message", message: user("first\nprompt  here") }, { type: "message", message: assistant("ok") }], 300);
    writeSession("b", [{ type: "notice", message: "nothing said" }], 200, { mode: "pipe" });
    writeSession("c", [{ type: "message", message: user("x".repeat(200)) }], 100, { mode: "pipe" });
    writeSession("d", [{ type: "message", message: user("no start line") }], 50, { mode: null });
    expect(listSessions(state())).toEqual([
      { id: "c", startedAt: "2026-12-01T08:00:00.000Z", mode: "pipe", firstPrompt: `${"x".repeat(79)}…`, messageCount: 1 },
      { id: "a", startedAt: "2026-12-01T08:00:00.000Z", mode: "chat", firstPrompt: "first prompt here", messageCount: 2 },
    ]);
  });

  it("is empty for a project without sessions", () => {
    expect(listSessions(state())).toEqual([]);
  });

  it("leaves out a transcript that names another project (one copied in, or made by hand)", () => {
    writeSession("ours", [{ type: "message", message: user("ours") }], 100);
    writeSession("theirs", [{ type: "message", message: user("theirs") }], 10, { project: "/somewhere/else" });
    expect(listSessions(state()).map((session) => session.id)).toEqual(["ours"]);
  });
});
