import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAgent } from "../kernel/index.js";
import type { ImageInfo, Message, ToolImage } from "../kernel/index.js";
import { eventLog, memorySnapshots, reply, scriptedModel, text, use, fakeTool } from "../kernel/test-support/fakes.js";
import { tempStatePerTest } from "./test-support/temp-state.js";
import { openTranscript, readTranscript, sessionsDir, type SessionStart } from "./transcript-file.js";

const state = tempStatePerTest("mca-transcript-");
const START: Omit<SessionStart, "project"> = { mode: "chat", startedAt: "2026-12-02T10:00:00.000Z", snapshots: "s" };
const startLine = (id: string): unknown => ({ type: "session", id, project: state().projectDir, ...START });

const user = (value: string): Message => ({ role: "user", content: [text(value)] });
const assistant = (value: string): Message => ({ role: "assistant", content: [text(value)] });

function linesOf(sessionId: string): unknown[] {
  if (!existsSync(join(sessionsDir(state()), `${sessionId}.jsonl`))) return [];
  return readFileSync(join(sessionsDir(state()), `${sessionId}.jsonl`), "utf8")
    .trimEnd()
    .split("\n")
    .map((line): unknown => JSON.parse(line));
}

describe("openTranscript", () => {
  it("writes each entry to the session's JSONL file as it is appended", () => {
    const sink = openTranscript(state(), "s1", START);
    sink.append({ type: "message", message: user("hi") });
    expect(linesOf("s1")).toEqual([startLine("s1"), { type: "message", message: user("hi") }]);
    sink.append({ type: "notice", message: "n" });
    expect(linesOf("s1")).toEqual([startLine("s1"), { type: "message", message: user("hi") }, { type: "notice", message: "n" }]);
  });

  it("leads with a line saying which session it is, of which project, how it ran and when it started, read back by readTranscript", () => {
    const sink = openTranscript(state(), "s2", START);
    expect(linesOf("s2")).toEqual([]);
    sink.append({ type: "message", message: user("hi") });
    sink.append({ type: "notice", message: "n" });
    expect(linesOf("s2")).toEqual([
      startLine("s2"),
      { type: "message", message: user("hi") },
      { type: "notice", message: "n" },
    ]);
    expect(readTranscript(join(sessionsDir(state()), "s2.jsonl"))).toEqual({
      start: { project: state().projectDir, ...START },
      entries: [{ type: "message", message: user("hi") }],
    });
  });

  it("creates the file readable by the user only and writes each entry redacted", () => {
    const sink = openTranscript(state(), "s1", START, (text) => text.replaceAll("sk-secret-1", "[redacted]"));
    sink.append({ type: "notice", message: "key sk-secret-1 seen" });
    const file = join(sessionsDir(state()), "s1.jsonl");
    expect({ mode: statSync(file).mode & 0o777, text: readFileSync(file, "utf8") }).toEqual({
      mode: 0o600,
      text: `${JSON.stringify(startLine("s1"))}\n${JSON.stringify({ type: "notice", message: "key [redacted] seen" })}\n`,
    });
  });

  it("records a whole agent turn while it happens: messages, call, decision, result", async () => {
    const sink = openTranscript(state(), "turn", START);
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
    expect(seenDuringRun).toEqual([6]);
    expect(linesOf("turn")).toEqual([
      startLine("turn"),
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
    expect(() => openTranscript(state(), "../escape", START)).toThrow('invalid session id "../escape"');
    expect(() => openTranscript(state(), ".hidden", START)).toThrow();
  });

  it("writes nothing inside the project: the transcript is in the state folder", () => {
    openTranscript(state(), "s1", START).append({ type: "notice", message: "n" });
    expect({ project: readdirSync(state().projectDir), sessions: readdirSync(sessionsDir(state())) }).toEqual({ project: [], sessions: ["s1.jsonl"] });
  });
});

describe("readTranscript", () => {
  it("reads a result's images back, so a resumed session sends them again, and counts those it cannot read", () => {
    const image: ToolImage = { mediaType: "image/png", data: "iVBORw0KGgo=", bytes: 8, width: 20, height: 20 };
    const info: ImageInfo = { mediaType: "image/png", bytes: 8, width: 20, height: 20 };
    const sink = openTranscript(state(), "shots", START);
    sink.append({ type: "tool_result", callId: "t1", tool: "mcp__web__shot", isError: false, text: "[image]", truncated: false, images: [info] });
    const result: Message = { role: "user", content: [{ type: "tool_result", toolUseId: "t1", text: "[image]", isError: false, images: [image] }] };
    sink.append({ type: "message", message: result });
    // As a hand edit or a secret's redaction would leave them: data that is not base64, a type the model does not take.
    const broken = { role: "user", content: [{ type: "tool_result", toolUseId: "t2", text: "[two]", isError: false, images: [{ ...image, data: "iVBO[REDACTED]" }, { ...image, mediaType: "image/bmp" }, image] }] };
    writeFileSync(join(sessionsDir(state()), "shots.jsonl"), `${JSON.stringify({ type: "message", message: broken })}\n`, { flag: "a" });
    expect(readTranscript(join(sessionsDir(state()), "shots.jsonl")).entries).toEqual([
      { type: "tool_result", callId: "t1", tool: "mcp__web__shot", isError: false, text: "[image]", truncated: false, images: [info] },
      { type: "message", message: result },
      {
        type: "message",
        message: { role: "user", content: [{ type: "tool_result", toolUseId: "t2", text: "[two]\n[2 of its images could not be read back from the transcript]", isError: false, images: [image] }] },
      },
    ]);
  });

  it("reads back the images the user attached to a prompt, and says so of one that no longer reads", () => {
    const image: ToolImage = { mediaType: "image/png", data: "iVBORw0KGgo=", bytes: 8, width: 20, height: 20 };
    const sink = openTranscript(state(), "attached", START);
    const prompt: Message = { role: "user", content: [{ type: "text", text: "see" }, { type: "image", image }, { type: "image", image: { ...image, data: "iVBO[REDACTED]" } }] };
    sink.append({ type: "message", message: prompt });
    expect(readTranscript(join(sessionsDir(state()), "attached.jsonl")).entries).toEqual([
      {
        type: "message",
        message: { role: "user", content: [{ type: "text", text: "see" }, { type: "image", image }, { type: "text", text: "[an attached image could not be read back from the transcript]" }] },
      },
    ]);
  });

  it("takes nothing from a file whose first line is not mca's session line", () => {
    const file = join(sessionsDir(state()), "planted.jsonl");
    mkdirSync(sessionsDir(state()), { recursive: true });
    writeFileSync(file, `${JSON.stringify({ type: "message", message: user("earlier, trust me") })}\n${JSON.stringify(startLine("planted"))}\n`);
    expect(readTranscript(file)).toEqual({ start: null, entries: [] });
  });

  it("takes nothing from a symlink or a named pipe in the sessions folder", () => {
    mkdirSync(sessionsDir(state()), { recursive: true });
    const real = join(state().projectDir, "elsewhere.jsonl");
    writeFileSync(real, `${JSON.stringify(startLine("link"))}\n${JSON.stringify({ type: "message", message: user("hi") })}\n`);
    symlinkSync(real, join(sessionsDir(state()), "link.jsonl"));
    execFileSync("mkfifo", [join(sessionsDir(state()), "pipe.jsonl")]);
    expect([readTranscript(join(sessionsDir(state()), "link.jsonl")), readTranscript(join(sessionsDir(state()), "pipe.jsonl"))]).toEqual([
      { start: null, entries: [] },
      { start: null, entries: [] },
    ]);
  });
});
