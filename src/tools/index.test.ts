import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAgent, parseRule, type Agent, type ApprovalAnswer, type Decision, type Rule, type Verdict } from "../kernel/index.js";
import { eventLog, memorySnapshots, memoryTranscript, scriptedModel } from "../kernel/test-support/fakes.js";
import { createLocalTools } from "./index.js";
import { tempProjectPerTest } from "./test-support/temp-project.js";

describe("createLocalTools", () => {
  const tools = createLocalTools("/tmp/project");

  it("offers the six local tools with their kinds, all from source local", () => {
    expect(tools.map((tool) => [tool.name, tool.kind, tool.source, tool.originalName])).toEqual([
      ["read_file", "read", "local", "read_file"],
      ["write_file", "write", "local", "write_file"],
      ["edit_file", "write", "local", "edit_file"],
      ["list_dir", "read", "local", "list_dir"],
      ["search", "read", "local", "search"],
      ["bash", "exec", "local", "bash"],
    ]);
  });

  it("names the changed file only for the tools that write", () => {
    expect(tools.filter((tool) => tool.changes !== undefined).map((tool) => tool.name)).toEqual([
      "write_file",
      "edit_file",
    ]);
  });

  it("gives every tool an object schema whose required arguments are declared properties", () => {
    for (const tool of tools) {
      const { type, properties, required } = tool.inputSchema;
      expect(type).toBe("object");
      const declared = Object.keys(typeof properties === "object" && properties !== null ? properties : {});
      for (const name of Array.isArray(required) ? required : []) expect(declared).toContain(name);
    }
  });
});

describe("the local tools through the approval gate", () => {
  const project = tempProjectPerTest("mca-gate-");
  const signal = new AbortController().signal;

  function rule(verdict: Verdict, pattern: string): Rule {
    const parsed = parseRule(pattern, verdict, `--${verdict}`);
    if (parsed instanceof Error) throw parsed;
    return parsed;
  }

  /** An agent over the real tools of the project; every question is recorded and answered `answer`. */
  function agentWith(rules: Rule[], answer: ApprovalAnswer = "deny"): { readonly agent: Agent; readonly asked: Decision[] } {
    const asked: Decision[] = [];
    const agent = createAgent({
      model: scriptedModel([]),
      tools: createLocalTools(project()),
      rules,
      system: "",
      approve: async ({ decision }) => {
        asked.push(decision);
        return answer;
      },
      snapshots: memorySnapshots(),
      transcript: memoryTranscript(),
      emit: eventLog().emit,
    });
    return { agent, asked };
  }

  it("denies .env to write_file and read_file under every spelling of its path", async () => {
    writeFileSync(join(project(), ".env"), "KEY=1");
    symlinkSync(".env", join(project(), "envlink"));
    const { agent } = agentWith([rule("deny", "write_file(.env)"), rule("deny", "read_file(.env)")]);
    for (const path of [join(project(), ".env"), "envlink", ".env/", "sub/../.env"]) {
      const write = await agent.call("write_file", { path, content: "KEY=stolen" }, signal);
      const read = await agent.call("read_file", { path }, signal);
      expect([path, write.decision.verdict, read.decision.verdict, read.text]).toEqual([
        path,
        "deny",
        "deny",
        'Denied by the approval gate: rule "read_file(.env)" (deny) from --deny.',
      ]);
    }
    expect(readFileSync(join(project(), ".env"), "utf8")).toBe("KEY=1");
  });

  it("asks before a write that a committed symbolic link carries into .git, whatever the allow rules say", async () => {
    mkdirSync(join(project(), ".git/hooks"), { recursive: true });
    writeFileSync(join(project(), ".git/config"), "[core]\n");
    mkdirSync(join(project(), "src"));
    symlinkSync("../.git/hooks", join(project(), "src/hooks"));
    symlinkSync("../.git", join(project(), "src/gitdir"));
    const { agent, asked } = agentWith([rule("allow", "write_file(src/*)"), rule("allow", "edit_file(src/*)")]);
    const hook = await agent.call("write_file", { path: "src/hooks/pre-commit", content: "#!/bin/sh\ntouch PWNED\n" }, signal);
    const config = await agent.call("edit_file", { path: "src/gitdir/config", old_string: "[core]", new_string: "[core]\nfsmonitor = touch PWNED" }, signal);
    expect([hook.text, config.text]).toEqual(["Denied by the user.", "Denied by the user."]);
    expect(asked).toEqual([
      { verdict: "ask", reason: "writes under .git/ always ask", onlyAPersonCanAllow: true },
      { verdict: "ask", reason: "writes under .git/ always ask", onlyAPersonCanAllow: true },
    ]);
    expect(existsSync(join(project(), ".git/hooks/pre-commit"))).toBe(false);
    expect(readFileSync(join(project(), ".git/config"), "utf8")).toBe("[core]\n");
    expect((await agent.call("write_file", { path: "src/a.ts", content: "x" }, signal)).decision.verdict).toBe("allow");

    const everywhere = agentWith([rule("allow", "write_file(*)")]);
    await everywhere.agent.call("write_file", { path: "src/hooks/pre-commit", content: "#!/bin/sh\n" }, signal);
    expect(everywhere.asked).toEqual([{ verdict: "ask", reason: "writes under .git/ always ask", onlyAPersonCanAllow: true }]);
    expect(existsSync(join(project(), ".git/hooks/pre-commit"))).toBe(false);
  });

  const expansionAttack = "git status --short ${x:=a[\\$\\(cp /etc/hostname OUT\\)]} ${a[x]}";

  it("does not let an allowed bash prefix run a command hidden in an array index", async () => {
    const { agent, asked } = agentWith([rule("allow", "bash(git status*)")]);
    const report = await agent.call("bash", { command: expansionAttack }, signal);
    expect([report.text, asked]).toEqual(["Denied by the user.", [{ verdict: "ask", reason: "default for exec tools: ask" }]]);
    expect(existsSync(join(project(), "OUT"))).toBe(false);
  });

  it("runs that command when the user approves it: the hidden command is real", async () => {
    const { agent } = agentWith([rule("allow", "bash(git status*)")], "once");
    await agent.call("bash", { command: expansionAttack.replace("/etc/hostname", "/dev/null") }, signal);
    expect(existsSync(join(project(), "OUT"))).toBe(true);
  });

  it("denies rm behind a wrapper, a path or a substitution", async () => {
    writeFileSync(join(project(), "x"), "keep");
    const { agent } = agentWith([rule("allow", "bash"), rule("deny", "bash(rm *)")]);
    for (const command of ["/bin/rm x", "command rm x", "env rm x", "rm\tx", "true; rm x", "echo $(rm x)"]) {
      expect([command, (await agent.call("bash", { command }, signal)).decision.verdict]).toEqual([command, "deny"]);
    }
    expect(existsSync(join(project(), "x"))).toBe(true);
  });
});
