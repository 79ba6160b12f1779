import { describe, expect, it } from "vitest";
import { parseInputRequest, parseInputRequests } from "./input-request.js";

const SCHEMA = { type: "object", properties: { login: { type: "string" } }, required: ["login"] };

describe("parseInputRequest", () => {
  it("reads an elicitation without a mode as a form", () => {
    const params = { message: "Your login?", requestedSchema: SCHEMA };
    expect(parseInputRequest({ method: "elicitation/create", params })).toEqual({ kind: "elicit-form", message: "Your login?", requestedSchema: SCHEMA, params });
  });

  it("reads a URL elicitation", () => {
    const params = { mode: "url", message: "Sign in", url: "https://example.com/auth" };
    expect(parseInputRequest({ method: "elicitation/create", params })).toEqual({ kind: "elicit-url", message: "Sign in", url: "https://example.com/auth", params });
  });

  it("reads a sampling request and whether it offers tools", () => {
    const messages = [{ role: "user", content: { type: "text", text: "Summarise X" } }];
    expect(parseInputRequest({ method: "sampling/createMessage", params: { messages, maxTokens: 200 } })).toEqual({
      kind: "sampling",
      messages,
      maxTokens: 200,
      usesTools: false,
      params: { messages, maxTokens: 200 },
    });
    const withTools = { messages, maxTokens: 200, tools: [{ name: "t", inputSchema: { type: "object" } }] };
    expect(parseInputRequest({ method: "sampling/createMessage", params: withTools })).toMatchObject({ kind: "sampling", usesTools: true });
  });

  it("reads a roots request without params", () => {
    expect(parseInputRequest({ method: "roots/list" })).toEqual({ kind: "roots", params: {} });
  });

  it("names what is wrong with a malformed request", () => {
    expect(parseInputRequest({ method: "elicitation/create", params: { message: "m" } })).toEqual(
      new Error("elicitation/create: `requestedSchema` is not an object"),
    );
    expect(parseInputRequest({ method: "elicitation/create", params: { mode: "voice", message: "m" } })).toEqual(
      new Error('elicitation/create: unknown mode "voice"'),
    );
    expect(parseInputRequest({ method: "sampling/createMessage", params: { messages: [] } })).toEqual(
      new Error("sampling/createMessage: `maxTokens` is not an integer"),
    );
    expect(parseInputRequest({ method: "roots/list", params: [] })).toEqual(new Error("an input request's `params` is not an object"));
  });
});

describe("parseInputRequests", () => {
  it("names the key of the first invalid request", () => {
    expect(parseInputRequests({ ok: { method: "roots/list" }, bad: { method: "tools/list" } })).toEqual(
      new Error('input request "bad": unknown input request method "tools/list"'),
    );
  });
});
