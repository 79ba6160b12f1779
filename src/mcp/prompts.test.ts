import { describe, expect, it } from "vitest";
import { McpError, type JsonObject } from "./jsonrpc.js";
import { getPrompt, listPrompts, MAX_PROMPTS_PER_SERVER, offersPrompts, promptTurn, type PromptSource } from "./prompts.js";

/** A 2×3 PNG: the signature and the IHDR chunk are all an image check reads. */
const PNG_BASE64 = Buffer.from([
  ...[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  ...[0, 0, 0, 13],
  ...[..."IHDR"].map((char) => char.charCodeAt(0)),
  ...[0, 0, 0, 2],
  ...[0, 0, 0, 3],
  ...[8, 6, 0, 0, 0, 0, 0, 0, 0],
]).toString("base64");

interface Sent {
  readonly method: string;
  readonly params: JsonObject | undefined;
}

/** A server that answers each request with the next reply of its script, and keeps what it was sent. */
function scriptedSource(replies: readonly (JsonObject | McpError)[], capabilities: JsonObject = { prompts: {} }) {
  const sent: Sent[] = [];
  let next = 0;
  const source: PromptSource = {
    alias: "docs",
    capabilities,
    request: async (method, params) => {
      sent.push({ method, params });
      const reply = replies[next];
      next += 1;
      if (reply === undefined) throw new Error(`no reply scripted for ${method}`);
      return reply;
    },
  };
  return { source, sent };
}

const text = (role: string, value: string): JsonObject => ({ role, content: { type: "text", text: value } });

describe("offersPrompts", () => {
  it("is true only when the server declared the prompts capability", () => {
    const offered = [{ prompts: {} }, { prompts: { listChanged: true } }, {}, { tools: {} }, { prompts: true }].map(
      (capabilities) => offersPrompts(scriptedSource([], capabilities).source),
    );
    expect(offered).toEqual([true, true, false, false, false]);
  });
});

describe("listPrompts", () => {
  it("reads every page, passing each cursor back, and keeps each prompt's arguments in their declared order", async () => {
    const { source, sent } = scriptedSource([
      { prompts: [{ name: "review", title: "Review", description: "Reviews code", arguments: [{ name: "file", required: true }, { name: "focus", description: "what to look at" }] }], nextCursor: "" },
      { prompts: [{ name: "simple" }], resultType: "complete" },
    ]);
    const warnings: string[] = [];
    expect(await listPrompts(source, (warning) => warnings.push(warning))).toEqual([
      {
        name: "review",
        title: "Review",
        description: "Reviews code",
        arguments: [
          { name: "file", required: true },
          { name: "focus", description: "what to look at", required: false },
        ],
      },
      { name: "simple", arguments: [] },
    ]);
    expect({ sent, warnings }).toEqual({
      sent: [
        { method: "prompts/list", params: {} },
        { method: "prompts/list", params: { cursor: "" } },
      ],
      warnings: [],
    });
  });

  it("drops a malformed prompt and a second of the same name with a warning each, keeping the others", async () => {
    const { source } = scriptedSource([
      { prompts: [{ name: "a" }, { title: "no name" }, { name: "a" }, { name: "b", arguments: "file" }, { name: "c", arguments: [{ name: "x" }, { name: "x" }] }, { name: "d" }] },
    ]);
    const warnings: string[] = [];
    expect(await listPrompts(source, (warning) => warnings.push(warning))).toEqual([
      { name: "a", arguments: [] },
      { name: "d", arguments: [] },
    ]);
    expect(warnings).toEqual([
      "dropping a prompt from prompts/list: a prompt has no name",
      'dropping a prompt from prompts/list: a second prompt named "a": prompt names must be unique per server',
      'dropping a prompt from prompts/list: prompt "b": `arguments` is not an array',
      'dropping a prompt from prompts/list: prompt "c": two arguments named "x"',
    ]);
  });

  it("offers the first MAX_PROMPTS_PER_SERVER prompts and asks for no page past them", async () => {
    const many = Array.from({ length: MAX_PROMPTS_PER_SERVER + 1 }, (_, index) => ({ name: `p${index}` }));
    const { source, sent } = scriptedSource([{ prompts: many, nextCursor: "more" }]);
    const warnings: string[] = [];
    const prompts = await listPrompts(source, (warning) => warnings.push(warning));
    expect({ count: Array.isArray(prompts) ? prompts.length : prompts, pages: sent.length, warnings }).toEqual({
      count: MAX_PROMPTS_PER_SERVER,
      pages: 1,
      warnings: [`lists more than ${MAX_PROMPTS_PER_SERVER} prompts: the first ${MAX_PROMPTS_PER_SERVER} are offered and the listing was read no further`],
    });
  });

  it("returns a failed request, or a page without prompts, as an McpError", async () => {
    const refused = new McpError("server", "Method not found", { server: "docs", code: -32601 });
    const failures = [await listPrompts(scriptedSource([refused]).source, () => undefined), await listPrompts(scriptedSource([{ tools: [] }]).source, () => undefined)];
    expect(failures.map((failure) => (failure instanceof McpError ? `${failure.kind}, ${String(failure.server)}: ${failure.message}` : failure))).toEqual([
      "server, docs: Method not found",
      "protocol, docs: prompts/list page 1: `prompts` is not an array",
    ]);
  });
});

describe("getPrompt", () => {
  it("sends the prompt's name and its arguments, and makes its messages the turn", async () => {
    const { source, sent } = scriptedSource([{ description: "d", messages: [text("user", "What's the weather in Oslo?")] }]);
    expect(await getPrompt(source, "args-prompt", { city: "Oslo" })).toEqual({ text: "What's the weather in Oslo?", images: [] });
    expect(sent).toEqual([{ method: "prompts/get", params: { name: "args-prompt", arguments: { city: "Oslo" } } }]);
  });

  it("returns a server's error, and a result it cannot read, as an McpError naming the prompt", async () => {
    const refused = new McpError("server", "Invalid resourceId", { server: "docs", code: -32602 });
    const failures = [
      await getPrompt(scriptedSource([refused]).source, "resource-prompt", {}),
      await getPrompt(scriptedSource([{ messages: [{ role: "system", content: { type: "text", text: "x" } }] }]).source, "odd", {}),
      await getPrompt(scriptedSource([{ resultType: "input_required", inputRequests: {} }]).source, "asks", {}),
    ];
    expect(failures.map((failure) => (failure instanceof McpError ? `${failure.kind}, ${String(failure.server)}: ${failure.message}` : failure))).toEqual([
      "server, docs: Invalid resourceId",
      'protocol, docs: prompts/get "odd": messages[0]: the role is neither "user" nor "assistant"',
      'protocol, docs: prompts/get "asks": the server asks for more input first, which mca does not give for a prompt',
    ]);
  });
});

describe("promptTurn", () => {
  it("joins the messages of one role as plain text, in order", () => {
    expect(promptTurn({ messages: [text("user", "first"), text("user", "second")] })).toEqual({ text: "first\nsecond", images: [] });
  });

  it("quotes a conversation of both roles under whose each run of messages is", () => {
    const turn = promptTurn({ messages: [text("user", "Hi\nthere"), text("assistant", "Hello."), text("assistant", "How can I help?"), text("user", "Review this.")] });
    expect(turn).toEqual({
      text: ["User:", "> Hi", "> there", "Assistant:", "> Hello.", "> How can I help?", "User:", "> Review this."].join("\n"),
      images: [],
    });
  });

  it("fences an embedded text resource under its uri, with a fence no backtick run inside it closes", () => {
    const turn = promptTurn({
      messages: [
        text("user", "Analyse this:"),
        { role: "user", content: { type: "resource", resource: { uri: "demo://resource/1", mimeType: "text/plain", text: "a ``` b\n" } } },
      ],
    });
    expect(turn).toEqual({ text: "Analyse this:\ndemo://resource/1\n````\na ``` b\n````", images: [] });
  });

  it("passes an image on as an image with its line in the text, and notes audio and other blobs", () => {
    const turn = promptTurn({
      messages: [
        { role: "user", content: { type: "image", data: PNG_BASE64, mimeType: "image/png" } },
        { role: "user", content: { type: "audio", data: "AAAA", mimeType: "audio/wav" } },
        { role: "user", content: { type: "resource", resource: { uri: "demo://blob/2", mimeType: "application/octet-stream", blob: "AAAA" } } },
        { role: "user", content: { type: "image", data: "bm90IGFuIGltYWdl", mimeType: "image/png" } },
      ],
    });
    expect(turn).toEqual({
      text: [
        "[image: image/png 2×3, 33 bytes]",
        "[audio audio/wav, 3 bytes; not shown: the model takes no audio]",
        "[resource demo://blob/2 (application/octet-stream), 3 bytes of binary data; not shown as text]",
        "[image image/png: 12 bytes, not a readable PNG file; not shown]",
      ].join("\n"),
      images: [{ mediaType: "image/png", bytes: 33, width: 2, height: 3, data: PNG_BASE64 }],
    });
  });

  it("refuses a result without messages, and a message whose content is not a content block", () => {
    expect([promptTurn({ messages: [] }), promptTurn({}), promptTurn({ messages: [{ role: "user", content: { type: "video" } }] })]).toEqual([
      new Error("the prompt has no messages"),
      new Error("`messages` is not an array"),
      new Error('messages[0].content: unknown type "video"'),
    ]);
  });
});
