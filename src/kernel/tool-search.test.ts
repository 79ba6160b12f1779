import { describe, expect, it } from "vitest";
import type { ToolSpec } from "./ports.js";
import { createToolIndex, MAX_SEARCH_LIMIT, parseToolQuery, toolWords } from "./tool-search.js";

const spec = (name: string, description: string, parameters: readonly string[] = []): ToolSpec => ({
  name,
  description,
  inputSchema: { type: "object", properties: Object.fromEntries(parameters.map((parameter) => [parameter, { type: "string" }])) },
});

const TOOLS: readonly ToolSpec[] = [
  spec("mcp__github__create_issue", "Opens a new issue in a repository.", ["owner", "repo", "title", "body"]),
  spec("mcp__github__list_pull_requests", "Lists the pull requests of a repository.", ["owner", "repo", "state"]),
  spec("mcp__jira__createTicket", "Files a ticket in a Jira project.", ["projectKey", "summary"]),
  spec("mcp__slack__post_message", "Posts a message to a Slack channel.", ["channelId", "text"]),
  spec("mcp__db__query", "Runs a read-only SQL statement and returns the rows.", ["sql"]),
  spec("mcp__browser__take_screenshot", "Captures the page as a PNG image.", ["fullPage"]),
];

describe("toolWords", () => {
  it("splits names on underscores, dashes, double underscores and camelCase, lower-cased, plurals singular", () => {
    expect(toolWords("mcp__github__list_pull-requests getHTTPUser channelId")).toEqual(["mcp", "github", "list", "pull", "request", "get", "http", "user", "channel", "id"]);
  });
});

describe("createToolIndex: words", () => {
  const index = createToolIndex(TOOLS);
  const names = (query: string, limit?: number): string[] => index.search(query, limit).map((match) => match.name);

  it("ranks a tool whose name holds the words first", () => {
    expect(names("create issue")).toEqual(["mcp__github__create_issue", "mcp__jira__createTicket"]);
  });

  it("finds a camelCase name by its words", () => {
    expect(names("ticket")).toEqual(["mcp__jira__createTicket"]);
  });

  it("finds a tool by the words of its description alone", () => {
    expect(names("SQL rows")).toEqual(["mcp__db__query"]);
  });

  it("finds a tool by a parameter name", () => {
    expect(names("channel")).toEqual(["mcp__slack__post_message"]);
    expect(names("fullPage")).toEqual(["mcp__browser__take_screenshot"]);
  });

  it("ranks the name above the description above nothing, with scores", () => {
    const matches = index.search("repository issues");
    expect(matches.map((match) => match.name)).toEqual(["mcp__github__create_issue", "mcp__github__list_pull_requests"]);
    expect(matches[0]?.score).toBeGreaterThan(matches[1]?.score ?? Infinity);
  });

  it("puts the tool whose whole name is the query first", () => {
    expect(names("mcp__github__list_pull_requests", 1)).toEqual(["mcp__github__list_pull_requests"]);
  });

  it("finds nothing for words no tool has, or only stop words", () => {
    expect(index.search("kubernetes")).toEqual([]);
    expect(index.search("the of a")).toEqual([]);
  });

  it("returns at most the limit asked, never more than the maximum, none for 0", () => {
    const many = createToolIndex(Array.from({ length: 30 }, (_, at) => spec(`mcp__s__read_${at}`, "Reads a file.")));
    expect(many.search("read", 2)).toHaveLength(2);
    expect(many.search("read", 100)).toHaveLength(MAX_SEARCH_LIMIT);
    expect(many.search("read")).toHaveLength(5);
    expect(many.search("read", 0)).toEqual([]);
  });

  it("breaks ties in the order the tools were given", () => {
    const tied = createToolIndex([spec("b_read", "x"), spec("a_read", "x"), spec("c_read", "x")]);
    expect(tied.search("read").map((match) => match.name)).toEqual(["b_read", "a_read", "c_read"]);
  });
});

describe("createToolIndex: regular expressions", () => {
  const index = createToolIndex(TOOLS);

  it("matches names and descriptions case-insensitively, names ranking first", () => {
    expect(index.search("/github__.*(issue|pull)/")).toEqual([
      { name: "mcp__github__create_issue", score: 2 },
      { name: "mcp__github__list_pull_requests", score: 2 },
    ]);
    expect(index.search("/png/")).toEqual([{ name: "mcp__browser__take_screenshot", score: 1 }]);
    expect(index.search("/^mcp__slack__/")).toEqual([{ name: "mcp__slack__post_message", score: 2 }]);
  });

  it("tests only the start of a long description", () => {
    const long = createToolIndex([spec("long", `${"x".repeat(500)} needle`)]);
    expect(long.search("/needle/")).toEqual([]);
  });

  it("reads an invalid or unbounded pattern as an error, and finds nothing with it", () => {
    expect(parseToolQuery("/(unclosed/")).toEqual(new Error("the regular expression /(unclosed/ is invalid: Invalid regular expression: /(unclosed/i: Unterminated group"));
    expect(parseToolQuery("/(a+)+$/")).toEqual(new Error("the regular expression /(a+)+$/ cannot be used: a repeated group may not itself repeat or branch (it can take exponential time)"));
    expect(parseToolQuery("/(a|aa)*/")).toEqual(new Error("the regular expression /(a|aa)*/ cannot be used: a repeated group may not itself repeat or branch (it can take exponential time)"));
    expect(parseToolQuery("/.*a.*b.*c/")).toEqual(new Error("the regular expression /.*a.*b.*c/ cannot be used: it repeats without bound more than 2 times"));
    expect(parseToolQuery("/(a)\\1/")).toEqual(new Error("the regular expression /(a)\\1/ cannot be used: back-references are not allowed"));
    expect(parseToolQuery("   ")).toEqual(new Error("the query is empty: give words or a /regular expression/"));
    expect(index.search("/(unclosed/")).toEqual([]);
  });

  it("accepts groups, classes and lookarounds that do not repeat a repetition", () => {
    expect(parseToolQuery("/(?:get|list)_[a-z+*]+(?=_)/")).toMatchObject({ kind: "regex" });
    expect(parseToolQuery("/(?<verb>create)_issue/")).toMatchObject({ kind: "regex" });
  });
});

describe("createToolIndex: 5,000 tools", () => {
  const tools = Array.from({ length: 5000 }, (_, at) =>
    spec(`mcp__server${at % 50}__tool_${at}_${["read", "write", "list", "delete"][at % 4]}`, `Does task ${at} on the ${["files", "tickets", "pages"][at % 3]} of server ${at % 50}.`, ["id", `option${at % 7}`]),
  );

  // How long a query takes over 5,000 tools (≤ 20 ms) is a target of `pnpm bench --only scale`, not of a test.
  it("indexes them and answers a word query and a regex query", () => {
    const index = createToolIndex(tools);
    const words = index.search("delete tickets option3", 10);
    const regex = index.search("/tool_4999_/");
    expect(words).toHaveLength(10);
    expect(words.every((match) => match.name.endsWith("_delete"))).toBe(true);
    expect(regex).toEqual([{ name: "mcp__server49__tool_4999_delete", score: 2 }]);
  });
});
