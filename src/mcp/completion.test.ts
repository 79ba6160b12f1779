import { describe, expect, it } from "vitest";
import { completionParams, completionValues, expandValue, offersCompletions, templatePosition, templateStart } from "./completion.js";

describe("templatePosition", () => {
  it("finds the variable a typed URI ends in, with what is typed of it", () => {
    expect(templatePosition("greeting://{name}", "greeting://Al")).toEqual({ variable: "name", value: "Al", start: 11, reserved: false, before: {} });
  });

  it("takes each earlier variable's value up to the literal after it, as context", () => {
    expect(templatePosition("repo://{owner}/{repo}/readme", "repo://ada/ma")).toEqual({ variable: "repo", value: "ma", start: 11, reserved: false, before: { owner: "ada" } });
  });

  it("decodes percent-encoded values typed so far", () => {
    expect(templatePosition("city://{name}", "city://New%20Y")?.value).toBe("New Y");
  });

  it("follows an operator's lead: a path segment, a query parameter", () => {
    expect(templatePosition("files{/path}", "files/sr")).toEqual({ variable: "path", value: "sr", start: 6, reserved: false, before: {} });
    expect(templatePosition("search://x{?q}", "search://x?q=ma")).toEqual({ variable: "q", value: "ma", start: 13, reserved: false, before: {} });
    expect(templatePosition("docs://{+path}", "docs://a/b")).toEqual({ variable: "path", value: "a/b", start: 7, reserved: true, before: {} });
  });

  it("is undefined where the text leaves the template, ends in a literal, or the template is beyond it", () => {
    expect([
      templatePosition("greeting://{name}", "greet"),
      templatePosition("greeting://{name}", "other://x"),
      templatePosition("repo://{owner}/readme", "repo://ada/rea"),
      templatePosition("list://{a,b}", "list://x"),
      templatePosition("broken://{name", "broken://x"),
    ]).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});

describe("templateStart", () => {
  it("is what is fixed before the first variable", () => {
    expect([templateStart("greeting://{name}/x"), templateStart("plain://x")]).toEqual(["greeting://", "plain://x"]);
  });
});

describe("expandValue", () => {
  it("percent-encodes a value, keeping reserved characters only for {+var}", () => {
    expect([expandValue("a b/c", false), expandValue("a b/c", true)]).toEqual(["a%20b%2Fc", "a%20b/c"]);
  });
});

describe("completionParams", () => {
  it("names the prompt or template, the argument typed, and the arguments already given", () => {
    expect(completionParams({ ref: { type: "ref/prompt", name: "review" }, argument: { name: "focus", value: "sp" }, context: { file: "a.ts" } })).toEqual({
      ref: { type: "ref/prompt", name: "review" },
      argument: { name: "focus", value: "sp" },
      context: { arguments: { file: "a.ts" } },
    });
    expect(completionParams({ ref: { type: "ref/resource", uri: "greeting://{name}" }, argument: { name: "name", value: "" }, context: {} })).toEqual({
      ref: { type: "ref/resource", uri: "greeting://{name}" },
      argument: { name: "name", value: "" },
    });
  });
});

describe("completionValues", () => {
  it("keeps the strings among the values, at most 100", () => {
    const values = [...Array.from({ length: 150 }, (_, index) => `v${index}`), 7];
    expect(completionValues({ completion: { values: ["a", 1, null, "b"], hasMore: true } })).toEqual(["a", "b"]);
    expect(completionValues({ completion: { values } })).toEqual(values.slice(0, 100));
  });

  it("is an Error naming what is missing", () => {
    expect([completionValues({}), completionValues({ completion: { values: "a" } })]).toEqual([
      new Error("the result has no `completion` object"),
      new Error("`completion.values` is not an array"),
    ]);
  });
});

describe("offersCompletions", () => {
  it("is true only for a server that declares the capability", () => {
    expect([offersCompletions({ capabilities: { completions: {} } }), offersCompletions({ capabilities: { prompts: {} } })]).toEqual([true, false]);
  });
});
