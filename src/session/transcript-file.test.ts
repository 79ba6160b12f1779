import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAgent, STARTED_OUTCOME_UNKNOWN_TEXT } from "../kernel/index.js";
import type { Message } from "../kernel/index.js";
import { eventLog, memorySnapshots, reply, scriptedModel, text, use, fakeTool } from "../kernel/test-support/fakes.js";
import { tempProjectPerTest } from "../tools/test-support/temp-project.js";
import { loadLastSession, openTranscript, sessionsDir } from "./transcript-file.js";

const project = tempProjectPerTest("mca-transcript-");

const user = (value: string): Message => ({ role: "user", content: [text(value)] });
const assistant = (value: string): Message => ({ role: "assistant", content: [text(value)] });

function linesOf(sessionId: string): unknown[] {
  return readFileSync(join(sessionsDir(project()), `${sessionId}.jsonl`), "utf8")
    .trimEnd()
    .split("\n")
    .map((line): unknown => JSON.parse(line));
}

/** A session file whose modification time is `secondsAgo` in the past, so that "newest" is unambiguous. */
function writeSession(sessionId: string, entries: readonly unknown[], secondsAgo: number, tail = ""): void {
  mkdirSync(sessionsDir(project()), { recursive: true });
  const file = join(sessionsDir(project()), `${sessionId}.jsonl`);
  writeFileSync(file, entries.map((entry) => `${JSON.stringify(entry)}\n`).join("") + tail);
  const when = Date.now() / 1000 - secondsAgo;
  utimesSync(file, when, when);
}

describe("openTranscript", () => {
  it("writes each entry to the session's JSONL file as it is appended", () => {
    const sink = openTranscript(project(), "s1");
    sink.append({ type: "message", message: user("hi") });
    expect(linesOf("s1")).toEqual([{ type: "message", message: user("hi") }]);
    sink.append({ type: "notice", message: "n" });
    expect(linesOf("s1")).toEqual([{ type: "message", message: user("hi") }, { type: "notice", message: "n" }]);
  });

  it("creates the file readable by the user only and writes each entry redacted", () => {
    const sink = openTranscript(project(), "s1", (text) => text.replaceAll("sk-secret-1", "[redacted]"));
    sink.append({ type: "notice", message: "key sk-secret-1 seen" });
    const file = join(sessionsDir(project()), "s1.jsonl");
    expect({ mode: statSync(file).mode & 0o777, text: readFileSync(file, "utf8") }).toEqual({
      mode: 0o600,
      text: `${JSON.stringify({ type: "notice", message: "key [redacted] seen" })}\n`,
    });
  });

  it("records a whole agent turn while it happens: messages, call, decision, result", async () => {
    const sink = openTranscript(project(), "turn");
    const seenDuringRun: number[] = [];
    const probe = fakeTool({
      name: "probe",
      run: async () => {
        seenDuringRun.push(linesOf("turn").length);
        return { text: "probed", isError: false };
      },
    });
    const model = scriptedModel([() => reply(use("t1", "probe")), () => reply(text("ok"))]);
    const agent = createAgent({
      model,
      tools: [probe],
      rules: [],
      system: "",
      approve: async () => "deny",
      snapshots: memorySnapshots(),
      transcript: sink,
      emit: eventLog().emit,
    });
    await agent.prompt("go", new AbortController().signal);
    // The start is on disk before the tool runs: a crash now leaves "started, outcome unknown".
    expect(seenDuringRun).toEqual([5]);
    expect(linesOf("turn")).toEqual([
      { type: "message", message: user("go") },
      { type: "message", message: { role: "assistant", content: [use("t1", "probe")] } },
      { type: "tool_call", callId: "t1", tool: "probe", args: {} },
      { type: "decision", callId: "t1", tool: "probe", decision: { verdict: "allow", reason: "default for read tools: allow" } },
      { type: "call_started", callId: "t1", tool: "probe" },
      { type: "tool_result", callId: "t1", tool: "probe", isError: false, text: "probed", truncated: false },
      { type: "message", message: { role: "user", content: [{ type: "tool_result", toolUseId: "t1", text: "probed", isError: false }] } },
      { type: "message", message: assistant("ok") },
    ]);
  });

  it("refuses a session id that could name a file outside the sessions folder", () => {
    expect(() => openTranscript(project(), "../escape")).toThrow('invalid session id "../escape"');
    expect(() => openTranscript(project(), ".hidden")).toThrow();
  });
});

describe("loadLastSession", () => {
  it("returns null when there are no sessions", () => {
    expect(loadLastSession(project())).toBeNull();
  });

  it("rebuilds the history of the newest session", () => {
    writeSession("older", [{ type: "message", message: user("old") }], 100);
    writeSession("newer", [
      { type: "message", message: user("a") },
      { type: "notice", message: "ignored" },
      { type: "message", message: assistant("b") },
    ], 10);
    expect(loadLastSession(project())).toEqual([user("a"), assistant("b")]);
  });

  it("ignores a torn last line", () => {
    writeSession("torn", [{ type: "message", message: user("a") }, { type: "message", message: assistant("b") }], 10, '{"type":"message","mess');
    expect(loadLastSession(project())).toEqual([user("a"), assistant("b")]);
  });

  it("passes over a newer session that has no messages", () => {
    writeSession("real", [{ type: "message", message: user("a") }], 100);
    writeSession("empty", [{ type: "notice", message: "started" }], 10);
    expect(loadLastSession(project())).toEqual([user("a")]);
  });

  it("ignores malformed messages rather than trusting them", () => {
    writeSession("odd", [
      { type: "message", message: user("a") },
      { type: "message", message: { role: "assistant", content: [{ type: "tool_use", id: 3, name: "x", input: {} }] } },
      { type: "message", message: { role: "system", content: [] } },
    ], 10);
    expect(loadLastSession(project())).toEqual([user("a")]);
  });

  it("resumes where a resumed session left off, and a crash mid-call leaves the started call's outcome unknown", async () => {
    const first = openTranscript(project(), "first");
    first.append({ type: "message", message: user("one") });
    first.append({ type: "message", message: assistant("two") });
    const resumed = loadLastSession(project());
    expect(resumed).toEqual([user("one"), assistant("two")]);

    const second = openTranscript(project(), "second");
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
    utimesSync(join(sessionsDir(project()), "second.jsonl"), utime, utime);

    const afterCrash = loadLastSession(project());
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
});

