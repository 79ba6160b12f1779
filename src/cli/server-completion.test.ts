import { describe, expect, it } from "vitest";
import { McpError, type CompletionSource, type JsonObject } from "../mcp/index.js";
import { argumentWord, promptArgumentQuestion, templateQuestion } from "./server-completion.js";

/** A server that declares completions and answers each completion/complete with `values`, keeping what it was asked. */
function completingServer(values: readonly string[] | McpError, capabilities: JsonObject = { completions: {} }) {
  const asked: Array<JsonObject | undefined> = [];
  const source: CompletionSource = {
    alias: "docs",
    capabilities,
    request: async (method, params) => {
      if (method !== "completion/complete") throw new Error(`unexpected ${method}`);
      asked.push(params);
      return values instanceof McpError ? values : { completion: { values: [...values] } };
    },
  };
  return { source, asked };
}

const signal = new AbortController().signal;
const declared = [
  { name: "file", required: true },
  { name: "focus", required: false },
];

describe("promptArgumentQuestion", () => {
  it("asks for the argument a name= word fills, with the arguments given before as context", async () => {
    const { source, asked } = completingServer(["speed", "safety"]);
    const question = promptArgumentQuestion(source, "review", declared, "a.ts focus=s");
    expect({ word: question?.word, candidates: await question?.ask(signal), asked }).toEqual({
      word: "focus=s",
      candidates: ["focus=speed", "focus=safety"],
      asked: [{ ref: { type: "ref/prompt", name: "review" }, argument: { name: "focus", value: "s" }, context: { arguments: { file: "a.ts" } } }],
    });
  });

  it("asks for the argument a positional word fills: the next one not named", async () => {
    const { source, asked } = completingServer(["src/a.ts"]);
    const question = promptArgumentQuestion(source, "review", declared, "focus=speed sr");
    expect({ word: question?.word, candidates: await question?.ask(signal), argument: asked[0]?.argument }).toEqual({
      word: "sr",
      candidates: ["src/a.ts"],
      argument: { name: "file", value: "sr" },
    });
  });

  it("quotes a value with a space, and offers no value that would not show as itself", async () => {
    const { source } = completingServer(["New York", "a\u001b[2Jb", "", 'say "hi"']);
    expect(await promptArgumentQuestion(source, "review", declared, "")?.ask(signal)).toEqual(['"New York"', '"say \\"hi\\""']);
  });

  it("asks nothing of a server without completions, past the last argument, for an unknown name, or inside quotes", () => {
    const plain = completingServer([], { prompts: {} }).source;
    const { source } = completingServer([]);
    expect([
      promptArgumentQuestion(plain, "review", declared, "a"),
      promptArgumentQuestion(source, "review", declared, "a.ts speed x"),
      promptArgumentQuestion(source, "review", declared, "colour=r"),
      promptArgumentQuestion(source, "review", declared, '"a b'),
    ]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("offers no candidates when the server fails", async () => {
    const { source } = completingServer(new McpError("server", "boom", { server: "docs", code: -32603 }));
    expect(await promptArgumentQuestion(source, "review", declared, "x")?.ask(signal)).toEqual([]);
  });
});

describe("templateQuestion", () => {
  it("asks for the variable the typed URI ends in and offers whole mentions, percent-encoded", async () => {
    const { source, asked } = completingServer(["main", "dev branch"]);
    const question = templateQuestion(source, ["file://{path}", "repo://{owner}/{branch}"], "@docs:repo://ada/ma");
    expect({ word: question?.word, candidates: await question?.ask(signal), asked }).toEqual({
      word: "@docs:repo://ada/ma",
      candidates: ["@docs:repo://ada/main", "@docs:repo://ada/dev%20branch"],
      asked: [{ ref: { type: "ref/resource", uri: "repo://{owner}/{branch}" }, argument: { name: "branch", value: "ma" }, context: { arguments: { owner: "ada" } } }],
    });
  });

  it("asks nothing when no template fits, or the server does not complete", () => {
    expect([
      templateQuestion(completingServer([]).source, ["repo://{owner}"], "@docs:file://x"),
      templateQuestion(completingServer([], { resources: {} }).source, ["repo://{owner}"], "@docs:repo://a"),
    ]).toEqual([undefined, undefined]);
  });
});

describe("argumentWord", () => {
  it("leaves a plain value as it is and quotes one the command would split or read as a name", () => {
    expect(["plain", "a b", "k=v", "back\\slash"].map(argumentWord)).toEqual(["plain", '"a b"', '"k=v"', '"back\\\\slash"']);
  });
});
