import { describe, expect, it } from "vitest";
import type { Message } from "../kernel/index.js";
import { MISSING_RESULT_TEXT, toApiMessages, toApiSystem, toApiTools } from "./anthropic-messages.js";

const call = (id: string): Message => ({
  role: "assistant",
  content: [{ type: "tool_use", id, name: "bash", input: { command: "ls" } }],
});

describe("toApiMessages", () => {
  it("puts tool results first in call order, then the user's text", () => {
    const messages: Message[] = [
      {
        role: "assistant",
        content: [
          { type: "text", text: "Two calls." },
          { type: "tool_use", id: "a", name: "read_file", input: { path: "x" } },
          { type: "tool_use", id: "b", name: "bash", input: { command: "ls" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "text", text: "also this" },
          { type: "tool_result", toolUseId: "b", text: "B", isError: true },
          { type: "tool_result", toolUseId: "a", text: "A", isError: false },
        ],
      },
    ];
    expect(toApiMessages(messages)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "text", text: "Two calls." },
          { type: "tool_use", id: "a", name: "read_file", input: { path: "x" } },
          { type: "tool_use", id: "b", name: "bash", input: { command: "ls" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "a", content: "A", is_error: false },
          { type: "tool_result", tool_use_id: "b", content: "B", is_error: true },
          { type: "text", text: "also this" },
        ],
      },
    ]);
  });

  it("answers a call whose result never came with an error result", () => {
    const messages: Message[] = [call("a"), { role: "user", content: [{ type: "text", text: "never mind" }] }];
    expect(toApiMessages(messages)[1]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "a", content: MISSING_RESULT_TEXT, is_error: true },
        { type: "text", text: "never mind" },
      ],
    });
  });

  it("answers calls left open at the end of the conversation", () => {
    expect(toApiMessages([call("a")])).toEqual([
      { role: "assistant", content: [{ type: "tool_use", id: "a", name: "bash", input: { command: "ls" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "a", content: MISSING_RESULT_TEXT, is_error: true }] },
    ]);
  });

  it("drops results that answer no call and empty text blocks", () => {
    const messages: Message[] = [
      {
        role: "user",
        content: [
          { type: "tool_result", toolUseId: "ghost", text: "?", isError: false },
          { type: "text", text: "" },
          { type: "text", text: "hi" },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "" }] },
    ];
    expect(toApiMessages(messages)).toEqual([{ role: "user", content: [{ type: "text", text: "hi" }] }]);
  });
});

describe("toApiSystem", () => {
  it("sends the prompt as one block marked for caching, and nothing for an empty prompt", () => {
    expect(toApiSystem("Be brief.")).toEqual([{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }]);
    expect(toApiSystem("")).toEqual([]);
  });
});

describe("toApiTools", () => {
  it("marks only the last tool for caching and keeps each schema, typed as an object", () => {
    const schema = { properties: { q: { type: "string" } }, required: ["q"] };
    expect(
      toApiTools([
        { name: "one", description: "First.", inputSchema: schema },
        { name: "two", description: "Second.", inputSchema: { type: "object" } },
      ]),
    ).toEqual([
      { name: "one", description: "First.", input_schema: { ...schema, type: "object" } },
      { name: "two", description: "Second.", input_schema: { type: "object" }, cache_control: { type: "ephemeral" } },
    ]);
  });
});
