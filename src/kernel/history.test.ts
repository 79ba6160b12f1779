import { describe, expect, it } from "vitest";
import { appendMessage, closeOpenToolUses, replayHistory } from "./history.js";
import type { Message } from "./ports.js";

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
    expect(closeOpenToolUses([prompt("go"), open], "not run")).toEqual([
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
    expect(closeOpenToolUses(closed, "not run")).toEqual(closed);
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
});
