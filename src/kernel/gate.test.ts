import { describe, expect, it } from "vitest";
import { decide, parseRule, type Rule, type Verdict } from "./gate.js";
import type { Tool } from "./tool.js";

const NONE: ReadonlySet<string> = new Set();
const bash: Pick<Tool, "name" | "kind"> = { name: "bash", kind: "exec" };
const notesSearch: Pick<Tool, "name" | "kind"> = { name: "mcp__notes__search", kind: "remote" };

function rule(verdict: Verdict, pattern: string, origin = "--test"): Rule {
  const parsed = parseRule(pattern, verdict, origin);
  if (parsed instanceof Error) throw parsed;
  return parsed;
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, index) =>
    permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]),
  );
}

describe("decide", () => {
  it("lets deny win over ask and allow in every order of the rules", () => {
    const rules = [rule("allow", "mcp__notes__*"), rule("deny", "mcp__*__search", "/p/.mca/settings.json"), rule("ask", "*")];
    for (const order of permutations(rules)) {
      expect(decide(notesSearch, {}, order, NONE)).toEqual({
        verdict: "deny",
        reason: 'rule "mcp__*__search" (deny) from /p/.mca/settings.json',
      });
    }
  });

  it("lets ask win over allow in every order of the rules", () => {
    const rules = [rule("allow", "mcp__notes__*", "--allow"), rule("ask", "mcp__notes__search", "/home/u/settings.json")];
    for (const order of permutations(rules)) {
      expect(decide(notesSearch, {}, order, NONE)).toEqual({
        verdict: "ask",
        reason: 'rule "mcp__notes__search" (ask) from /home/u/settings.json',
      });
    }
  });

  it("names the winning rule and its origin in the reason", () => {
    expect(decide(notesSearch, {}, [rule("allow", "mcp__notes__*", "--allow")], NONE)).toEqual({
      verdict: "allow",
      reason: 'rule "mcp__notes__*" (allow) from --allow',
    });
  });

  it("falls back to the default for each kind when no rule matches", () => {
    const unrelated = [rule("deny", "other_tool")];
    expect(decide({ name: "read_file", kind: "read" }, {}, unrelated, NONE)).toEqual({
      verdict: "allow",
      reason: "default for read tools: allow",
    });
    expect(decide({ name: "write_file", kind: "write" }, {}, unrelated, NONE)).toEqual({
      verdict: "ask",
      reason: "default for write tools: ask",
    });
    expect(decide(bash, { command: "ls" }, unrelated, NONE)).toEqual({
      verdict: "ask",
      reason: "default for exec tools: ask",
    });
    expect(decide(notesSearch, {}, unrelated, NONE)).toEqual({
      verdict: "ask",
      reason: "default for remote tools: ask (annotations are not trusted)",
    });
  });

  it("asks for a remote tool that declares itself read-only", () => {
    const readOnly: Tool = {
      name: "mcp__tickets__search",
      description: "",
      inputSchema: { type: "object" },
      kind: "remote",
      source: "tickets",
      originalName: "search",
      annotations: { readOnlyHint: true },
      run: async () => ({ text: "", isError: false }),
    };
    expect(decide(readOnly, {}, [], NONE).verdict).toBe("ask");
  });

  it("matches an argument glob against a bash command", () => {
    const rules = [rule("allow", "bash(git status*)")];
    expect(decide(bash, { command: "git status -s" }, rules, NONE)).toEqual({
      verdict: "allow",
      reason: 'rule "bash(git status*)" (allow) from --test',
    });
    expect(decide(bash, { command: "git push" }, rules, NONE)).toEqual({
      verdict: "ask",
      reason: "default for exec tools: ask",
    });
  });

  it("does not let an allowed command prefix carry a chained second command", () => {
    const rules = [rule("allow", "bash(git status*)")];
    for (const command of ["git status; rm -rf ~", "git status && curl x", "git status | sh", "git status $(rm x)", "git status\nrm x"]) {
      expect(decide(bash, { command }, rules, NONE).verdict).toBe("ask");
    }
  });

  it("still denies a chained command that a deny rule's glob covers", () => {
    expect(decide(bash, { command: "rm -rf x; ls" }, [rule("deny", "bash(rm*)")], NONE).verdict).toBe("deny");
  });

  it("matches an argument glob against the path argument when there is one", () => {
    const rules = [rule("allow", "write_file(/repo/src/*)")];
    const write: Pick<Tool, "name" | "kind"> = { name: "write_file", kind: "write" };
    expect(decide(write, { path: "/repo/src/a.ts", content: "x" }, rules, NONE).verdict).toBe("allow");
    expect(decide(write, { path: "/etc/passwd", content: "x" }, rules, NONE).verdict).toBe("ask");
  });

  it("matches an argument glob against the stable JSON of the arguments otherwise", () => {
    const rules = [rule("allow", 'mcp__notes__search({"limit":3,"query":"*"})')];
    expect(decide(notesSearch, { query: "mcp", limit: 3 }, rules, NONE).verdict).toBe("allow");
    expect(decide(notesSearch, { query: "mcp", limit: 4 }, rules, NONE).verdict).toBe("ask");
  });

  it("allows a tool the user allowed for this session over its kind's default and any allow rule", () => {
    const session = new Set(["mcp__notes__search"]);
    expect(decide(notesSearch, {}, [rule("allow", "mcp__*")], session)).toEqual({
      verdict: "allow",
      reason: "allowed for this session",
    });
    expect(decide(notesSearch, {}, [], session)).toEqual({ verdict: "allow", reason: "allowed for this session" });
  });

  it("keeps asking where the user's own ask rule matches, even after an allow for this session", () => {
    const session = new Set(["mcp__notes__search"]);
    expect(decide(notesSearch, {}, [rule("ask", "mcp__*")], session)).toEqual({
      verdict: "ask",
      reason: 'rule "mcp__*" (ask) from --test',
    });
  });

  it("matches a path argument after normalising it, so an allow rule does not cover a path that climbs out", () => {
    const writeFile: Pick<Tool, "name" | "kind"> = { name: "write_file", kind: "write" };
    const docs = [rule("allow", "write_file(docs/*)")];
    expect(decide(writeFile, { path: "docs/./guide.md" }, docs, new Set()).verdict).toBe("allow");
    expect(decide(writeFile, { path: "docs/../src/main.ts" }, docs, new Set()).verdict).toBe("ask");
    expect(decide(writeFile, { path: "../outside.txt" }, [rule("allow", "write_file(*)")], new Set()).verdict).toBe("ask");
    expect(decide(writeFile, { path: "docs/../../x" }, [rule("deny", "write_file(*x)")], new Set()).verdict).toBe("deny");
  });

  it("lets a deny rule win over a session allow", () => {
    const session = new Set(["mcp__notes__search"]);
    expect(decide(notesSearch, {}, [rule("deny", "mcp__notes__*", "--deny")], session)).toEqual({
      verdict: "deny",
      reason: 'rule "mcp__notes__*" (deny) from --deny',
    });
  });
});

describe("parseRule", () => {
  it("keeps the trimmed text for the reason with its verdict and origin", () => {
    const parsed = rule("allow", "  bash(git status*) ", "--allow");
    expect({ verdict: parsed.verdict, text: parsed.pattern.text, origin: parsed.origin }).toEqual({
      verdict: "allow",
      text: "bash(git status*)",
      origin: "--allow",
    });
  });

  it("accepts parentheses inside the argument glob", () => {
    const parsed = rule("deny", "bash(echo (a))", "--deny");
    expect(parsed.pattern.text).toBe("bash(echo (a))");
    expect(decide(bash, { command: "echo (a)" }, [parsed], NONE).verdict).toBe("deny");
  });

  it("rejects an empty rule, an unclosed parenthesis, an empty argument glob and odd tool characters", () => {
    expect(parseRule("  ", "allow", "x")).toEqual(new Error("empty rule"));
    expect(parseRule("bash(git", "allow", "x")).toEqual(new Error('missing ")" at the end of "bash(git"'));
    expect(parseRule("bash()", "allow", "x")).toEqual(new Error('empty argument pattern in "bash()" (write bash or bash(*))'));
    expect(parseRule("my tool", "allow", "x")).toBeInstanceOf(Error);
  });
});

/** Whether a rule's glob covers `text`, seen through a deny rule on a bash command (deny matches anything). */
function globMatches(glob: string, text: string): boolean {
  return decide(bash, { command: text }, [rule("deny", `bash(${glob})`)], NONE).verdict === "deny";
}

/** Whether a rule's tool-name glob covers `name`. */
function toolGlobMatches(glob: string, name: string): boolean {
  return decide({ name, kind: "read" }, {}, [rule("deny", glob)], NONE).verdict === "deny";
}

describe("the rule glob", () => {
  it("matches any run of characters with *, including none", () => {
    expect(toolGlobMatches("mcp__notes__*", "mcp__notes__search")).toBe(true);
    expect(toolGlobMatches("mcp__notes__*", "mcp__notes__")).toBe(true);
    expect(toolGlobMatches("mcp__notes__*", "mcp__tickets__search")).toBe(false);
  });

  it("matches exactly one character with ?", () => {
    expect(toolGlobMatches("read_fil?", "read_file")).toBe(true);
    expect(toolGlobMatches("read_fil?", "read_fil")).toBe(false);
    expect(toolGlobMatches("read_fil?", "read_filed")).toBe(false);
  });

  it("matches the whole text, not a part of it", () => {
    expect(globMatches("git status", "git status -s")).toBe(false);
    expect(globMatches("status*", "git status")).toBe(false);
  });

  it("takes regular-expression characters literally", () => {
    expect(globMatches("a.b(c)[d]+$", "a.b(c)[d]+$")).toBe(true);
    expect(globMatches("a.b", "axb")).toBe(false);
    expect(toolGlobMatches("mcp__my-server__*", "mcp__my-server__x")).toBe(true);
  });

  it("lets * cross slashes and newlines", () => {
    expect(globMatches("/src/*", "/src/a/b.ts")).toBe(true);
    expect(globMatches("echo *", "echo a\nb")).toBe(true);
  });
});
