import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import type { InputRequest } from "../../mcp/index.js";
import { createScriptedAsker } from "../test-support/scripted-asker.js";
import { askFormElicitation, askUrlElicitation } from "./elicitation.js";

const chalk = new Chalk({ level: 0 });
const asking = { server: "tickets", tool: "close_ticket" };

function form(requestedSchema: Record<string, unknown>, message = "Close ticket T-1?"): Extract<InputRequest, { kind: "elicit-form" }> {
  return { kind: "elicit-form", message, requestedSchema, params: {} };
}

function url(target: string): Extract<InputRequest, { kind: "elicit-url" }> {
  return { kind: "elicit-url", message: "Sign in to continue", url: target, params: {} };
}

const PROFILE = {
  type: "object",
  properties: {
    login: { type: "string", title: "Login", description: "Your user name" },
    age: { type: "integer", minimum: 0 },
    plan: { type: "string", oneOf: [{ const: "free", title: "Free" }, { const: "pro", title: "Pro" }] },
    tags: { type: "array", items: { type: "string", enum: ["a", "b"] } },
    notes: { type: "string" },
    agree: { type: "boolean" },
  },
  required: ["login", "agree"],
};

describe("askFormElicitation", () => {
  it("shows who asks and the message, then asks each field and accepts with the content", async () => {
    const asker = createScriptedAsker(["accept", "octo", "x", "42", "pro", ["b"], "", true]);
    expect(await askFormElicitation(form(PROFILE, "Who are you?"), asking, asker, chalk)).toEqual({
      action: "accept",
      content: { login: "octo", age: 42, plan: "pro", tags: ["b"], agree: true },
    });
    expect(asker.transcript).toEqual([
      'say: input requested: MCP server "tickets" asks you, for its tool close_ticket:\n  Who are you?',
      "select: Your answer [accept|decline|cancel]",
      "say:   Login: Your user name",
      "text: Login (required)",
      "text: age (optional, whole number)",
      "rejected: must be a number",
      "text: age (optional, whole number)",
      "select: plan (optional) [free|pro|\u0000skip]",
      "multiselect: tags (optional)",
      "text: notes (optional)",
      "confirm: agree (required)",
    ]);
  });

  it("answers close_ticket's one boolean field", async () => {
    const schema = { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] };
    expect(await askFormElicitation(form(schema), asking, createScriptedAsker(["accept", true]), chalk)).toEqual({ action: "accept", content: { confirm: true } });
  });

  it("declines or cancels without asking the fields", async () => {
    expect(await askFormElicitation(form(PROFILE), asking, createScriptedAsker(["decline"]), chalk)).toEqual({ action: "decline" });
    expect(await askFormElicitation(form(PROFILE), asking, createScriptedAsker(["cancel"]), chalk)).toEqual({ action: "cancel" });
  });

  it("gives undefined when the user presses Ctrl-C at the choice or at a field", async () => {
    expect(await askFormElicitation(form(PROFILE), asking, createScriptedAsker([undefined]), chalk)).toBeUndefined();
    expect(await askFormElicitation(form(PROFILE), asking, createScriptedAsker(["accept", undefined]), chalk)).toBeUndefined();
  });

  it("declines a form it cannot show, saying why, without asking", async () => {
    const asker = createScriptedAsker([]);
    const schema = { type: "object", properties: { where: { type: "object" } } };
    expect(await askFormElicitation(form(schema), asking, asker, chalk)).toEqual({ action: "decline" });
    expect(asker.transcript.at(-1)).toBe('say:   mca cannot show this form (property "where" has a type mca cannot ask for: "object"): declined');
  });

  it("shows the server's text with its control characters made visible", async () => {
    const asker = createScriptedAsker(["cancel"]);
    await askFormElicitation(form(PROFILE, "Hi\u001b[2J"), { server: "tickets", tool: "close\u0007" }, asker, chalk);
    expect(asker.transcript[0]).toBe('say: input requested: MCP server "tickets" asks you, for its tool close\\u0007:\n  Hi\\u001b[2J');
  });

  it("shows a field's title and description with their control characters made visible", async () => {
    const schema = { type: "object", properties: { name: { type: "string", title: "Na\u001b[31mme", description: "line\rover" } } };
    const asker = createScriptedAsker(["accept", "octo"]);
    expect(await askFormElicitation(form(schema), asking, asker, chalk)).toEqual({ action: "accept", content: { name: "octo" } });
    expect(asker.transcript.slice(2)).toEqual(["say:   Na\\u001b[31mme: line\\u000dover", "text: Na\\u001b[31mme (optional)"]);
  });
});

describe("askUrlElicitation", () => {
  it("shows the full URL and its host, prints the link on accept and waits for the user before accepting", async () => {
    const asker = createScriptedAsker(["accept", ""]);
    expect(await askUrlElicitation(url("https://auth.example.com/login?state=abc"), asking, asker, chalk)).toEqual({ action: "accept" });
    expect(asker.transcript).toEqual([
      'say: input requested: MCP server "tickets" asks you to open a web page, for its tool close_ticket:\n  Sign in to continue',
      "say:   URL:  https://auth.example.com/login?state=abc\n  host: auth.example.com",
      "select: Open a page on auth.example.com? [accept|decline|cancel]",
      "say: Open this link in your browser:\n\n  https://auth.example.com/login?state=abc\n",
      "text: Press Enter once you have finished there",
      "say: mca retries the call now: the server says whether it is done.",
    ]);
  });

  it("shows an internationalised host as its ASCII form and warns about plain http", async () => {
    const asker = createScriptedAsker(["decline"]);
    expect(await askUrlElicitation(url("http://exämple.com/x"), asking, asker, chalk)).toEqual({ action: "decline" });
    expect(asker.transcript[1]).toBe("say:   URL:  http://xn--exmple-cua.com/x\n  host: xn--exmple-cua.com  (plain http: not encrypted)");
  });

  it("declines a URL that is not a web page without asking", async () => {
    const asker = createScriptedAsker([]);
    expect(await askUrlElicitation(url("javascript:alert(1)"), asking, asker, chalk)).toEqual({ action: "decline" });
    expect(asker.transcript.at(-1)).toBe('say:   "javascript:alert(1)" is not an http(s) URL: declined');
  });

  it("gives undefined when the user presses Ctrl-C while the page is open", async () => {
    expect(await askUrlElicitation(url("https://example.com"), asking, createScriptedAsker(["accept", undefined]), chalk)).toBeUndefined();
  });
});
