import { describe, expect, it } from "vitest";
import { ALWAYS_PROTECTED, decide, parseRule, type GateSubject, type GateTool, type Rule } from "../kernel/index.js";
import { bypassRefusal, permissionModeRules } from "./permission-mode.js";

const tool = (name: string, kind: GateTool["kind"], source = "local"): GateTool => ({ name, kind, source, originalName: name });
const TOOLS = [tool("read_file", "read"), tool("list_dir", "read"), tool("search", "read"), tool("write_file", "write"), tool("edit_file", "write"), tool("bash", "exec"), tool("read_mcp_resource", "remote")];
const notesSearch = { ...tool("mcp__notes__search", "remote", "notes"), originalName: "search" };

const path = (text: string, outside = false): GateSubject => ({ kind: "path", text, outside });
const command = (text: string): GateSubject => ({ kind: "command", text, sandbox: "inside" });

function judged(rules: readonly Rule[], calls: ReadonlyArray<readonly [GateTool, GateSubject]>) {
  return calls.map(([called, subject]) => {
    const { verdict, reason, onlyAPersonCanAllow } = decide(called, subject, rules, new Map(), () => ALWAYS_PROTECTED);
    return onlyAPersonCanAllow === true ? `${verdict}: ${reason} (only a person)` : `${verdict}: ${reason}`;
  });
}

describe("permissionModeRules", () => {
  it("adds nothing in the default mode", () => {
    expect(permissionModeRules("default", TOOLS)).toEqual([]);
  });

  it("plan: denies every tool that is not a local reader, servers' tools included, naming plan mode", () => {
    const rules = permissionModeRules("plan", TOOLS);
    expect(judged(rules, [[tool("read_file", "read"), path("a.ts")], [tool("write_file", "write"), path("a.ts")], [tool("bash", "exec"), command("ls")], [notesSearch, { kind: "arguments", text: "{}" }]])).toEqual([
      "allow: default for read tools: allow",
      'deny: rule "write_file" (deny) from --permission-mode plan (read-only tools only)',
      'deny: rule "bash" (deny) from --permission-mode plan (read-only tools only)',
      'deny: rule "mcp__*" (deny) from --permission-mode plan (read-only tools only)',
    ]);
  });

  it("acceptEdits: allows file edits inside the project; a protected folder still asks a person, and outside the project asks", () => {
    const rules = permissionModeRules("acceptEdits", TOOLS);
    const edit = tool("edit_file", "write");
    expect(judged(rules, [[edit, path("src/a.ts")], [edit, path(".git/config")], [edit, path("../elsewhere.txt", true)], [tool("bash", "exec"), command("ls")]])).toEqual([
      'allow: rule "edit_file(*)" (allow) from --permission-mode acceptEdits (file edits in the project)',
      "ask: writes under .git/ always ask (only a person)",
      "ask: default for write tools: ask",
      "ask: default for exec tools: ask",
    ]);
  });

  it("bypassPermissions: allows every call, but a deny rule still denies and a protected folder still asks a person", () => {
    const deny = parseRule("bash", "deny", '--disallowedTools "Bash"');
    if (deny instanceof Error) throw deny;
    const rules = permissionModeRules("bypassPermissions", TOOLS);
    expect(judged(rules, [[tool("bash", "exec"), command("rm -rf build && make")], [notesSearch, { kind: "arguments", text: "{}" }], [tool("write_file", "write"), path(".husky/pre-commit")]])).toEqual([
      'allow: rule "*" (allow) from --permission-mode bypassPermissions',
      'allow: rule "*" (allow) from --permission-mode bypassPermissions',
      "ask: writes under .husky/ always ask (only a person)",
    ]);
    expect(judged([...rules, deny], [[tool("bash", "exec"), command("ls")]])).toEqual(['deny: rule "bash" (deny) from --disallowedTools "Bash"']);
  });
});

describe("bypassRefusal", () => {
  const bubblewrap = (failure: string | null) => ({ kind: "bubblewrap" as const, program: "/usr/bin/bwrap", socketFilter: null, notice: null, works: async () => failure });

  it("allows bypassPermissions where a sandbox works, and refuses it naming why where none does", async () => {
    const refusals = await Promise.all(
      [bubblewrap(null), { kind: "seatbelt" as const, program: "/usr/bin/sandbox-exec" }, bubblewrap("setting up uid map: Permission denied"), { kind: "none" as const, why: "turned off with --no-sandbox", notice: null }].map(
        async (availability) => (await bypassRefusal(availability))?.message ?? null,
      ),
    );
    expect(refusals).toEqual([
      null,
      null,
      "--permission-mode bypassPermissions needs the sandbox around bash commands, and bubblewrap does not work here: setting up uid map: Permission denied; allow what the run needs with --allowedTools instead",
      "--permission-mode bypassPermissions needs the sandbox around bash commands, and there is none: turned off with --no-sandbox; allow what the run needs with --allowedTools instead",
    ]);
  });
});
