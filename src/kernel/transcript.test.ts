import { describe, expect, it } from "vitest";
import type { Message } from "./model.js";
import { replayHistory } from "./transcript.js";

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
