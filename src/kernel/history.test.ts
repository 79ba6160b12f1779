import { describe, expect, it } from "vitest";
import { appendMessage, closeOpenToolUses, NEVER_STARTED_TEXT, replayHistory, STARTED_OUTCOME_UNKNOWN_TEXT } from "./history.js";
import type { Message } from "./ports.js";
import type { ImageInfo } from "./tool.js";

const prompt = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });

describe("appendMessage", () => {
  it("appends messages of alternating roles as they are", () => {
    const reply: Message = { role: "assistant", content: [{ type: "text", text: "hi" }] };
    expect(appendMessage(appendMessage([], prompt("a")), reply)).toEqual([prompt("a"), reply]);
  });

  it("merges a user message into a preceding user message, earlier content first", () => {
    const results: Message = { role: "user", content: [{ type: "tool_result", toolUseId: "t1", text: "ok", isError: false }] };
    expect(appendMessage([results], prompt("next"))).toEqual([
      {
        role: "user",
        content: [
          { type: "tool_result", toolUseId: "t1", text: "ok", isError: false },
          { type: "text", text: "next" },
        ],
      },
    ]);
  });

  it("leaves the array it was given untouched", () => {
    const history = [prompt("a")];
    appendMessage(history, prompt("b"));
    expect(history).toEqual([prompt("a")]);
  });
});

describe("closeOpenToolUses", () => {
  it("answers every tool_use of a final assistant message with an error result", () => {
    const open: Message = {
      role: "assistant",
      content: [
        { type: "text", text: "reading" },
        { type: "tool_use", id: "t1", name: "read_file", input: { path: "a" } },
        { type: "tool_use", id: "t2", name: "read_file", input: { path: "b" } },
      ],
    };
    expect(closeOpenToolUses([prompt("go"), open], () => ({ text: "not run", isError: true }))).toEqual([
      prompt("go"),
      open,
      {
        role: "user",
        content: [
          { type: "tool_result", toolUseId: "t1", text: "not run", isError: true },
          { type: "tool_result", toolUseId: "t2", text: "not run", isError: true },
        ],
      },
    ]);
  });

  it("changes nothing when the history is already closed", () => {
    const closed: Message[] = [prompt("go"), { role: "assistant", content: [{ type: "text", text: "done" }] }];
    expect(closeOpenToolUses(closed, () => ({ text: "not run", isError: true }))).toEqual(closed);
  });
});

const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const assistant = (text: string): Message => ({ role: "assistant", content: [{ type: "text", text }] });

describe("replayHistory", () => {
  it("rebuilds the messages in order, merging consecutive user messages as the agent does", () => {
    expect(
      replayHistory([
        { type: "message", message: user("a") },
        { type: "message", message: user("b") },
        { type: "message", message: assistant("c") },
      ]),
    ).toEqual([{ role: "user", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] }, assistant("c")]);
  });

  it("starts over at a clear and from a resumed history", () => {
    expect(
      replayHistory([
        { type: "message", message: user("old") },
        { type: "clear" },
        { type: "history", messages: [user("resumed"), assistant("yes")] },
        { type: "message", message: user("new") },
      ]),
    ).toEqual([user("resumed"), assistant("yes"), user("new")]);
  });

  it("closes the last reply of a session that died mid-call from what the transcript knows of each call", () => {
    const calls: Message = {
      role: "assistant",
      content: [
        { type: "tool_use", id: "t1", name: "read_file", input: {} },
        { type: "tool_use", id: "t2", name: "bash", input: { command: "sleep 9" } },
        { type: "tool_use", id: "t3", name: "bash", input: { command: "ls" } },
      ],
    };
    expect(
      replayHistory([
        { type: "message", message: user("go") },
        { type: "message", message: calls },
        { type: "call_started", callId: "t1", tool: "read_file" },
        { type: "tool_result", callId: "t1", tool: "read_file", isError: false, text: "file text", truncated: false },
        { type: "call_started", callId: "t2", tool: "bash" },
      ]),
    ).toEqual([
      user("go"),
      calls,
      {
        role: "user",
        content: [
          { type: "tool_result", toolUseId: "t1", text: "file text", isError: false },
          { type: "tool_result", toolUseId: "t2", text: STARTED_OUTCOME_UNKNOWN_TEXT, isError: true },
          { type: "tool_result", toolUseId: "t3", text: NEVER_STARTED_TEXT, isError: true },
        ],
      },
    ]);
  });

  it("says that a recorded result's images are gone when the session ended before it was sent", () => {
    const call: Message = { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "mcp__web__shot", input: {} }] };
    const info: ImageInfo = { mediaType: "image/png", bytes: 84_000, width: 1280, height: 720 };
    const closed = replayHistory([
      { type: "message", message: call },
      { type: "tool_result", callId: "t1", tool: "mcp__web__shot", isError: false, text: "[image: image/png 1280×720, 84 kB]", truncated: false, images: [info, info] },
    ]);
    expect(closed.at(-1)).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          toolUseId: "t1",
          text: "[image: image/png 1280×720, 84 kB]\n[its 2 images were not kept: the session ended before the result was sent]",
          isError: false,
        },
      ],
    });
  });

  it("does not take a start recorded for an earlier reply's call of the same id for this one's", () => {
    const call = (id: string): Message => ({ role: "assistant", content: [{ type: "tool_use", id, name: "bash", input: {} }] });
    const closed = replayHistory([
      { type: "message", message: call("t1") },
      { type: "call_started", callId: "t1", tool: "bash" },
      { type: "tool_result", callId: "t1", tool: "bash", isError: false, text: "done", truncated: false },
      { type: "message", message: { role: "user", content: [{ type: "tool_result", toolUseId: "t1", text: "done", isError: false }] } },
      { type: "message", message: call("t1") },
    ]);
    expect(closed.at(-1)).toEqual({ role: "user", content: [{ type: "tool_result", toolUseId: "t1", text: NEVER_STARTED_TEXT, isError: true }] });
  });
});
