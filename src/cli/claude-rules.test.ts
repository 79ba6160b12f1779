import { describe, expect, it } from "vitest";
import { decide, type GateTool, type Rule } from "../kernel/index.js";
import { CLAUDE_TOOLS, mapClaudeRules, mcaRuleTexts } from "./claude-rules.js";

const texts = (rules: readonly Rule[]) => rules.map((rule) => `${rule.verdict} ${rule.pattern.text} from ${rule.origin}`);

describe("mcaRuleTexts", () => {
  it("maps each of Claude Code's rule forms onto mca's rules, table by table", () => {
    const cases: ReadonlyArray<readonly [string, readonly string[]]> = [
      ["Bash", ["bash"]],
      ["Bash(npm test)", ["bash(npm test)"]],
      ["Bash(git log:*)", ["bash(git log)", "bash(git log *)"]],
      ["Bash(ls *)", ["bash(ls)", "bash(ls *)"]],
      ["Bash(*)", ["bash"]],
      ["Read", ["read_file", "search", "list_dir"]],
      ["Read(./src/**)", ["read_file(src/*)", "search(src/*)", "list_dir(src/*)"]],
      ["Edit", ["edit_file", "write_file"]],
      ["Edit(/docs/**/*.md)", ["edit_file(docs/*.md)", "write_file(docs/*.md)"]],
      ["Edit(docs/)", ["edit_file(docs/*)", "write_file(docs/*)"]],
      ["MultiEdit", ["edit_file"]],
      ["Write", ["write_file"]],
      ["Write(.env)", ["write_file(.env)"]],
      ["Glob", ["search", "list_dir"]],
      ["Grep", ["search"]],
      ["LS", ["list_dir"]],
      ["mcp__notes", ["mcp__notes__*"]],
      ["mcp__notes__search", ["mcp__notes__search"]],
      ["mcp__notes__*", ["mcp__notes__*"]],
      ["read_file", ["read_file"]],
      ["bash(git status*)", ["bash(git status*)"]],
    ];
    expect(cases.map(([claude]) => mcaRuleTexts(claude))).toEqual(cases.map(([, mca]) => ({ kind: "rules", texts: mca })));
  });

  it("leaves out a tool mca has not, an unknown Claude name and a path outside the project", () => {
    expect([mcaRuleTexts("WebFetch"), mcaRuleTexts("WebFetch(domain:example.com)"), mcaRuleTexts("Frobnicate"), mcaRuleTexts("Read(//etc/passwd)"), mcaRuleTexts("Read(~/.ssh/*)")]).toEqual([
      { kind: "left out", why: "mca has no WebFetch tool" },
      { kind: "left out", why: "mca has no WebFetch tool" },
      { kind: "left out", why: 'mca knows no Claude Code tool named "Frobnicate"' },
      { kind: "left out", why: "//etc/passwd lies outside the project, where mca's file tools never reach" },
      { kind: "left out", why: "~/.ssh/* lies outside the project, where mca's file tools never reach" },
    ]);
  });

  it("has a row for every tool of Claude Code's list that scripts name", () => {
    for (const name of ["Bash", "Read", "Edit", "Write", "Glob", "Grep", "LS", "WebFetch", "WebSearch", "NotebookEdit", "Task", "TodoWrite"]) expect(CLAUDE_TOOLS[name]).toBeDefined();
  });
});

describe("mapClaudeRules", () => {
  it("makes allow and deny rules whose origin names the flag and the rule as written", () => {
    const mapped = mapClaudeRules(["Bash(git diff:*)", "Read"], ["Bash(rm:*)"]);
    if (mapped instanceof Error) throw mapped;
    expect({ rules: texts(mapped.rules), warnings: mapped.warnings }).toEqual({
      rules: [
        'allow bash(git diff) from --allowedTools "Bash(git diff:*)"',
        'allow bash(git diff *) from --allowedTools "Bash(git diff:*)"',
        'allow read_file from --allowedTools "Read"',
        'allow search from --allowedTools "Read"',
        'allow list_dir from --allowedTools "Read"',
        'deny bash(rm) from --disallowedTools "Bash(rm:*)"',
        'deny bash(rm *) from --disallowedTools "Bash(rm:*)"',
      ],
      warnings: [],
    });
  });

  it("warns once for each rule left out, saying a deny of it has nothing to deny", () => {
    const mapped = mapClaudeRules(["WebFetch", "WebFetch"], ["WebFetch"]);
    expect(mapped).toEqual({
      rules: [],
      warnings: ['mca: --allowedTools "WebFetch" is left out: mca has no WebFetch tool', 'mca: --disallowedTools "WebFetch" is left out: mca has no WebFetch tool (so there is nothing to deny)'],
    });
  });

  it("is an Error naming the flag and the rule when a rule cannot be read", () => {
    expect(mapClaudeRules(["Bash(git log"], [])).toEqual(new Error('--allowedTools "Bash(git log": missing ")" at the end'));
    expect(mapClaudeRules([], ["read file"])).toEqual(new Error('--disallowedTools "read file": invalid tool name pattern "read file" (letters, digits, _ . - and the globs * ?)'));
  });

  it("reaches the gate as Claude Code's rule means it: git log and its arguments, not git logx", () => {
    const mapped = mapClaudeRules(["Bash(git log:*)"], []);
    if (mapped instanceof Error) throw mapped;
    const bash: GateTool = { name: "bash", kind: "exec", source: "local", originalName: "bash" };
    const verdict = (command: string) => decide(bash, { kind: "command", text: command, sandbox: "inside" }, mapped.rules, new Map()).verdict;
    expect(["git log", "git log --oneline", "git logx"].map(verdict)).toEqual(["allow", "allow", "ask"]);
  });
});
