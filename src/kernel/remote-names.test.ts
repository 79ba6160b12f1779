import { describe, expect, it } from "vitest";
import { decide, unmatchedRules, type GateTool, type SessionAllows } from "./gate.js";
import { parseRule, type Rule, type Verdict } from "./rule.js";
import { reachesAlias, sanitizeNamePart } from "./remote-names.js";
import type { GateSubject } from "./tool.js";

const NONE: SessionAllows = new Map();

function rule(verdict: Verdict, text: string, origin = "--test"): Rule {
  const parsed = parseRule(text, verdict, origin);
  if (parsed instanceof Error) throw parsed;
  return parsed;
}

function remote(name: string, source: string, originalName: string): GateTool {
  return { name, kind: "remote", source, originalName, serverRuleName: originalName };
}

const CALL: GateSubject = { kind: "arguments", text: "{}" };

const LONG_ALIAS = "l".repeat(60);

/** Tools of servers whose flat names run into each other, as namespace.ts names them (suffixes made up). */
const TOOLS: readonly GateTool[] = [
  remote("mcp__notes__search", "notes", "search"),
  remote("mcp__notes___x", "notes", "_x"),
  remote("mcp__notes___search", "notes_", "search"),
  remote("mcp__notes__x__search", "notes__x", "search"),
  remote("mcp__a_b__search", "a.b", "search"),
  remote(`mcp__${LONG_ALIAS}`.slice(0, 57) + "_0a1b2c", LONG_ALIAS, "search"),
];

/** The tools (`alias/tool`) an allow rule reaches: remote tools ask by default, so a reached one is allowed. */
function reached(text: string): string[] {
  return TOOLS.filter((tool) => decide(tool, CALL, [rule("allow", text)], NONE).verdict === "allow").map((tool) => `${tool.source}/${tool.originalName}`);
}

describe("reachesAlias", () => {
  it("holds for any alias when the rule's literal text closes none, and only for the aliases it closes otherwise", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["mcp__notes__", "notes"],
      ["mcp__notes__", "notes_"],
      ["mcp__notes___", "notes_"],
      ["mcp__notes___", "notes"],
      ["mcp__a__b__", "a__b"],
      ["mcp__a__b__", "a"],
      ["mcp__a__", "a__b"],
      ["mcp__a_b__", "a.b"],
      ["mcp__a.b__", "a.b"],
      ["mcp__a.b__", "a_b"],
      ["mcp__notes_", "notes_"],
      ["mcp__note", "notes_"],
      ["mcp__", "notes_"],
      ["mcp___", "x"],
      ["read_file", "notes"],
    ];
    expect(cases.map(([literal, alias]) => [literal, alias, reachesAlias(literal, alias)])).toEqual([
      ["mcp__notes__", "notes", true],
      ["mcp__notes__", "notes_", false],
      ["mcp__notes___", "notes_", true],
      ["mcp__notes___", "notes", true],
      ["mcp__a__b__", "a__b", true],
      ["mcp__a__b__", "a", true],
      ["mcp__a__", "a__b", false],
      ["mcp__a_b__", "a.b", true],
      ["mcp__a.b__", "a.b", true],
      ["mcp__a.b__", "a_b", false],
      ["mcp__notes_", "notes_", true],
      ["mcp__note", "notes_", true],
      ["mcp__", "notes_", true],
      ["mcp___", "x", true],
      ["read_file", "notes", true],
    ]);
  });
});

describe("sanitizeNamePart", () => {
  it("keeps letters, digits, _ and -, and makes every other code point one _", () => {
    expect(sanitizeNamePart("My-server_2.x 🚀/é")).toBe("My-server_2_x____");
  });
});

describe("decide on rules that spell out an alias", () => {
  it("reaches with mcp__notes__* the tools of notes only, never those of a server aliased notes_ or notes__x", () => {
    expect(reached("mcp__notes__*")).toEqual(["notes/search", "notes/_x"]);
  });

  it("reads each rule by the aliases it spells out, and a glob that leaves the alias open across aliases", () => {
    const rules = [
      "mcp__notes___*",
      "mcp__notes__search",
      "mcp__notes___search",
      "mcp__notes__x__*",
      "mcp__notes_*",
      "mcp__no*",
      "mcp__note?__*",
      "mcp__*",
      "mcp__*__search",
      "mcp__a_b__*",
      "mcp__a.b__*",
      `mcp__${LONG_ALIAS}__*`,
    ];
    const notes = ["notes/search", "notes/_x", "notes_/search", "notes__x/search"];
    expect(Object.fromEntries(rules.map((text) => [text, reached(text)]))).toEqual({
      "mcp__notes___*": ["notes/_x", "notes_/search"],
      mcp__notes__search: ["notes/search"],
      mcp__notes___search: ["notes_/search"],
      "mcp__notes__x__*": ["notes__x/search"],
      "mcp__notes_*": notes,
      "mcp__no*": notes,
      "mcp__note?__*": notes,
      "mcp__*": [...notes, "a.b/search", `${LONG_ALIAS}/search`],
      "mcp__*__search": ["notes/search", "notes_/search", "notes__x/search", "a.b/search", `${LONG_ALIAS}/search`],
      "mcp__a_b__*": ["a.b/search"],
      "mcp__a.b__*": ["a.b/search"],
      [`mcp__${LONG_ALIAS}__*`]: [`${LONG_ALIAS}/search`],
    });
  });

  it("keeps a deny or ask rule of notes from reaching notes_, so each verdict names the rule of its own server", () => {
    const rules = [rule("deny", "mcp__notes__*", "--deny"), rule("ask", "mcp__notes___search", "/p/.mca/settings.json"), rule("allow", "mcp__*", "--allow")];
    const [ownSearch, , otherSearch] = TOOLS;
    expect([ownSearch, otherSearch].map((tool) => tool !== undefined && decide(tool, CALL, rules, NONE))).toEqual([
      { verdict: "deny", reason: 'rule "mcp__notes__*" (deny) from --deny' },
      { verdict: "ask", reason: 'rule "mcp__notes___search" (ask) from /p/.mca/settings.json' },
    ]);
  });

  it("reads a server's resources for the alias a rule spells out only", () => {
    const readResource: GateTool = { name: "read_mcp_resource", kind: "remote", source: "local", originalName: "read_mcp_resource" };
    const from = (alias: string): GateSubject => ({ kind: "server", alias, name: "read_resource", text: `${alias}://inbox` });
    const rules = [rule("allow", "mcp__notes__read_resource"), rule("allow", "mcp__notes__*(*secret*)")];
    expect(["notes", "notes_", "notes__x"].map((alias) => decide(readResource, from(alias), rules, NONE).verdict)).toEqual(["allow", "ask", "ask"]);
    expect(decide(readResource, { ...from("notes_"), text: "notes_://secret" }, rules, NONE).verdict).toBe("ask");
  });

  it("counts a rule that spells out an alias as written or sanitised as matching that server's tools at start", () => {
    const reads = remote("mcp__a.b__read_resource", "a.b", "read_resource");
    const rules = [rule("deny", "mcp__a.b__read_resource"), rule("deny", "mcp__a_b__search"), rule("deny", "mcp__a.b__search"), rule("deny", "mcp__notes__search")];
    expect(unmatchedRules(rules, [reads, ...TOOLS.filter((tool) => tool.source === "a.b" || tool.source === "notes_")]).map(({ pattern }) => pattern.text)).toEqual([
      "mcp__notes__search",
    ]);
  });
});
