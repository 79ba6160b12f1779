import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAgent } from "../kernel/index.js";
import type { Message } from "../kernel/index.js";
import { eventLog, memorySnapshots, reply, scriptedModel, text, use, fakeTool } from "../kernel/test-support/fakes.js";
import { tempProjectPerTest } from "../tools/test-support/temp-project.js";
import { openTranscript, readTranscript, sessionsDir } from "./transcript-file.js";

const project = tempProjectPerTest("mca-transcript-");

const user = (value: string): Message => ({ role: "user", content: [text(value)] });
const assistant = (value: string): Message => ({ role: "assistant", content: [text(value)] });

function linesOf(sessionId: string): unknown[] {
  if (!existsSync(join(sessionsDir(project()), `${sessionId}.jsonl`))) return [];
  return readFileSync(join(sessionsDir(project()), `${sessionId}.jsonl`), "utf8")
    .trimEnd()
    .split("\n")
    .map((line): unknown => JSON.parse(line));
}

describe("openTranscript", () => {
  it("writes each entry to the session's JSONL file as it is appended", () => {
    const sink = openTranscript(project(), "s1");
    sink.append({ type: "message", message: user("hi") });
    expect(linesOf("s1")).toEqual([{ type: "message", message: user("hi") }]);
    sink.append({ type: "notice", message: "n" });
    expect(linesOf("s1")).toEqual([{ type: "message", message: user("hi") }, { type: "notice", message: "n" }]);
  });

  it("leads with a line saying which session it is, how it ran and when it started, read back by readTranscript", () => {
    const sink = openTranscript(project(), "s2", undefined, { mode: "chat", startedAt: "2026-12-02T10:00:00.000Z" });
    expect(linesOf("s2")).toEqual([]);
    sink.append({ type: "message", message: user("hi") });
    sink.append({ type: "notice", message: "n" });
    expect(linesOf("s2")).toEqual([
      { type: "session", id: "s2", mode: "chat", startedAt: "2026-12-02T10:00:00.000Z" },
      { type: "message", message: user("hi") },
      { type: "notice", message: "n" },
    ]);
    expect(readTranscript(join(sessionsDir(project()), "s2.jsonl"))).toEqual({
      start: { mode: "chat", startedAt: "2026-12-02T10:00:00.000Z" },
      entries: [{ type: "message", message: user("hi") }],
    });
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
