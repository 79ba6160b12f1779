import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../kernel/index.js";
import type { HeadlessFlags } from "./pipe-mode.js";
import { MAX_MESSAGE_LINE_CHARS, runStreamJsonInput, userMessageText } from "./stream-json-input.js";
import { createFakeAgent } from "./test-support/fake-agent.js";
import { fakeSession } from "./test-support/fake-session.js";

function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return error instanceof Error ? error.message : "";
  }
  return "";
}

describe("userMessageText", () => {
  it("reads a user message's text, as a string or as text blocks joined by newlines", () => {
    const user = (content: unknown) => JSON.stringify({ type: "user", message: { role: "user", content }, parent_tool_use_id: null, session_id: "x" });
    expect([user("fix it"), user([{ type: "text", text: "first" }, { type: "text", text: "second" }])].map(userMessageText)).toEqual(["fix it", "first\nsecond"]);
  });

  it("names what is wrong with a line that is no user message mca can answer", () => {
    const lines = ["{\"type\"", '{"type":"control_request","request":{}}', '{"type":"user","message":{"role":"assistant","content":"x"}}', '{"type":"user","message":{"role":"user","content":[{"type":"image","source":{}}]}}', '{"type":"user","message":{"role":"user","content":" "}}'];
    expect(lines.map((line) => (userMessageText(line) as Error).message)).toEqual([
      `not JSON (${jsonError('{"type"')})`,
      'expected a user message: {"type":"user","message":{"role":"user","content":…}} (control requests are not supported)',
      '"message" must be {"role":"user","content":…}',
      '"message.content[0]" is a "image" block: mca reads text blocks only',
      '"message.content" is empty',
    ]);
  });

  it("refuses a line longer than MAX_MESSAGE_LINE_CHARS before parsing it, and reads one at the limit", () => {
    const line = (chars: number) => {
      const frame = JSON.stringify({ type: "user", message: { role: "user", content: "" } });
      return JSON.stringify({ type: "user", message: { role: "user", content: "x".repeat(chars - frame.length) } });
    };
    expect((userMessageText(line(MAX_MESSAGE_LINE_CHARS + 1)) as Error).message).toBe(`a line of over ${MAX_MESSAGE_LINE_CHARS} characters`);
    expect(userMessageText(line(MAX_MESSAGE_LINE_CHARS))).toBe("x".repeat(MAX_MESSAGE_LINE_CHARS - JSON.stringify({ type: "user", message: { role: "user", content: "" } }).length));
  });
});

describe("runStreamJsonInput", () => {
  it("answers each message with its own result line, and names the session's assistant messages once each across the answers", async () => {
    const flags: HeadlessFlags = { outputFormat: "stream-json", includePartialMessages: false, mcaEvents: false, outputSchemaFile: undefined, permissionMode: "default" };
    const reply = (text: string): AgentEvent[] => [
      { type: "message", message: { role: "assistant", content: [{ type: "text", text: `you said ${text}` }] }, model: "m", stopReason: "end_turn" },
      { type: "turn_end", reason: "done" },
    ];
    const session = fakeSession({ agent: (io) => createFakeAgent({ promptEvents: reply }, io.emit) });
    const message = (content: string): string => JSON.stringify({ type: "user", message: { role: "user", content } });
    async function* lines(): AsyncIterable<string> {
      yield message("one");
      yield message("two");
    }
    expect(await runStreamJsonInput(session, lines(), flags)).toBe(0);
    const written = session.written.out.map((line) => JSON.parse(line) as { type: string; message?: { id: string }; result?: string });
    expect(written.filter((line) => line.type === "result").map((line) => line.result)).toEqual(["you said one", "you said two"]);
    expect(written.filter((line) => line.type === "assistant").map((line) => line.message?.id)).toEqual([`msg_mca_${session.id}_1`, `msg_mca_${session.id}_2`]);
  });
});
