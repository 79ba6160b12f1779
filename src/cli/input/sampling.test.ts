import { describe, expect, it } from "vitest";
import { createMessageResult, samplingPrompt } from "./sampling.js";

describe("samplingPrompt", () => {
  it("maps the server's messages and system prompt to the kernel's shape", () => {
    const messages = [
      { role: "user", content: { type: "text", text: "Summarise X" } },
      { role: "assistant", content: [{ type: "text", text: "Which part?" }] },
      { role: "user", content: [{ type: "text", text: "All" }, { type: "text", text: " of it" }] },
    ];
    expect(samplingPrompt({ systemPrompt: "Be brief", messages, maxTokens: 10 }, messages)).toEqual({
      system: "Be brief",
      messages: [
        { role: "user", content: [{ type: "text", text: "Summarise X" }] },
        { role: "assistant", content: [{ type: "text", text: "Which part?" }] },
        { role: "user", content: [{ type: "text", text: "All" }, { type: "text", text: " of it" }] },
      ],
    });
  });

  it("refuses content other than text, naming the message", () => {
    const messages = [{ role: "user", content: { type: "text", text: "Look" } }, { role: "user", content: { type: "image", data: "AA==", mimeType: "image/png" } }];
    expect(samplingPrompt({}, messages)).toEqual(new Error('message 2 holds "image" content, and mca samples text only'));
  });
});

describe("createMessageResult", () => {
  it("answers with the reply's text, the model's name and the stop reason in MCP's words", () => {
    const reply = { message: { role: "assistant", content: [{ type: "text", text: "X is " }, { type: "text", text: "fine" }] }, stopReason: "max_tokens" } as const;
    expect(createMessageResult(reply, "mock")).toEqual({ role: "assistant", content: { type: "text", text: "X is fine" }, model: "mock", stopReason: "maxTokens" });
  });

  it("leaves out a stop reason MCP has no name for", () => {
    const reply = { message: { role: "assistant", content: [] }, stopReason: "other" } as const;
    expect(createMessageResult(reply, "mock")).toEqual({ role: "assistant", content: { type: "text", text: "" }, model: "mock" });
  });
});
