import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ALWAYS_PROTECTED, createAgent, parseRule, type Decision, type ProtectedFolder, type Rule } from "../kernel/index.js";
import { eventLog, memorySnapshots, memoryTranscript, scriptedModel } from "../kernel/test-support/fakes.js";
import { createLocalTools } from "../tools/index.js";
import { tempProjectPerTest } from "../tools/test-support/temp-project.js";
import { coreHooksPath, protectedFolderPaths, readProtectedFolders } from "./protected-paths.js";

/** git with no user or system config, so only the repository's own settings count. */
function git(cwd: string, ...args: string[]): string {
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
  return execFileSync("git", ["-c", "init.defaultBranch=main", ...args], { cwd, env, encoding: "utf8" });
}

function hooksFolder(path: string, written: string): ProtectedFolder {
  return { path, anyDepth: false, reason: `writes under the git hooks folder (core.hooksPath = ${JSON.stringify(written)}) always ask` };
}

describe("readProtectedFolders", () => {
  const project = tempProjectPerTest("mca-protected-");

  it("is the folders of every project when there is no repository", () => {
    expect(readProtectedFolders(project())).toEqual(ALWAYS_PROTECTED);
  });

  it("adds the hooks folder that core.hooksPath names, relative to the work tree", () => {
    git(project(), "init", "--quiet");
    git(project(), "config", "core.hooksPath", ".githooks");
    expect(readProtectedFolders(project())).toEqual([hooksFolder(".githooks", ".githooks"), ...ALWAYS_PROTECTED]);
  });

  it("names husky's hooks folder as the hooks folder, before .husky itself", () => {
    git(project(), "init", "--quiet");
    git(project(), "config", "core.hooksPath", ".husky/_");
    expect(readProtectedFolders(project())).toEqual([hooksFolder(".husky/_", ".husky/_"), ...ALWAYS_PROTECTED]);
  });

  it("takes an absolute hooks folder inside the project and leaves one outside, or under ~, alone", () => {
    git(project(), "init", "--quiet");
    git(project(), "config", "core.hooksPath", join(project(), "tools", "hooks"));
    expect(readProtectedFolders(project())).toEqual([hooksFolder("tools/hooks", join(project(), "tools", "hooks")), ...ALWAYS_PROTECTED]);
    git(project(), "config", "core.hooksPath", tmpdir());
    expect(readProtectedFolders(project())).toEqual(ALWAYS_PROTECTED);
    git(project(), "config", "core.hooksPath", "~/hooks");
    expect(readProtectedFolders(project())).toEqual(ALWAYS_PROTECTED);
  });

  it("names a hooks folder that is a symbolic link under its own name and where it leads", () => {
    git(project(), "init", "--quiet");
    mkdirSync(join(project(), "tools", "hooks"), { recursive: true });
    symlinkSync(join("tools", "hooks"), join(project(), "hooks"));
    git(project(), "config", "core.hooksPath", "hooks");
    expect(readProtectedFolders(project())).toEqual([hooksFolder("hooks", "hooks"), hooksFolder("tools/hooks", "hooks"), ...ALWAYS_PROTECTED]);
  });

  it("reads the repository above a project that is one of its folders", () => {
    git(project(), "init", "--quiet");
    git(project(), "config", "core.hooksPath", "app/hooks");
    mkdirSync(join(project(), "app"));
    expect(readProtectedFolders(join(project(), "app"))).toEqual([hooksFolder("hooks", "app/hooks"), ...ALWAYS_PROTECTED]);
  });

  it("reads the shared config of a linked worktree through its .git file", () => {
    const main = join(project(), "main");
    mkdirSync(main);
    git(main, "init", "--quiet");
    git(main, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "--allow-empty", "-m", "start");
    git(main, "config", "core.hooksPath", ".githooks");
    git(main, "worktree", "add", "--quiet", join(project(), "linked"));
    expect(readProtectedFolders(join(project(), "linked"))).toEqual([hooksFolder(".githooks", ".githooks"), ...ALWAYS_PROTECTED]);
  });

  it("protects a git folder inside the project that a .git file points to", () => {
    git(project(), "init", "--quiet", `--separate-git-dir=${join(project(), "repo-data")}`);
    git(project(), "config", "core.hooksPath", ".githooks");
    const gitFolder: ProtectedFolder = { path: "repo-data", anyDepth: false, reason: `writes under the git folder (gitdir: ${JSON.stringify(join(project(), "repo-data"))}) always ask` };
    expect(readProtectedFolders(project())).toEqual([gitFolder, hooksFolder(".githooks", ".githooks"), ...ALWAYS_PROTECTED]);
  });

  it("does not follow an include of the config", () => {
    git(project(), "init", "--quiet");
    writeFileSync(join(project(), "more.gitconfig"), "[core]\n\thooksPath = .githooks\n");
    git(project(), "config", "include.path", "../more.gitconfig");
    expect(readProtectedFolders(project())).toEqual(ALWAYS_PROTECTED);
  });

  it("does not hang on a named pipe planted as the config or as the .git file", () => {
    mkdirSync(join(project(), "a", ".git"), { recursive: true });
    execFileSync("mkfifo", [join(project(), "a", ".git", "config"), join(project(), "b.git")]);
    mkdirSync(join(project(), "b"));
    execFileSync("mv", [join(project(), "b.git"), join(project(), "b", ".git")]);
    expect([readProtectedFolders(join(project(), "a")), readProtectedFolders(join(project(), "b"))]).toEqual([ALWAYS_PROTECTED, ALWAYS_PROTECTED]);
  });
});

describe("protectedFolderPaths", () => {
  it("gives each folder once as an absolute path under the project, for a sandbox to bind read-only", () => {
    const folders = [hooksFolder(".githooks", ".githooks"), hooksFolder(".githooks", "./.githooks"), ...ALWAYS_PROTECTED];
    expect(protectedFolderPaths("/work/p", folders)).toEqual(["/work/p/.githooks", "/work/p/.git", "/work/p/.mca", "/work/p/.husky"]);
  });
});

describe("the local tools with the project's protected folders", () => {
  const project = tempProjectPerTest("mca-protected-gate-");
  const signal = new AbortController().signal;

  function rule(pattern: string): Rule {
    const parsed = parseRule(pattern, "allow", "/p/.mca/settings.json");
    if (parsed instanceof Error) throw parsed;
    return parsed;
  }

  /** What the user was asked for each call when every write is allowed by a rule and every question denied. */
  async function askedFor(calls: readonly (readonly [string, Record<string, string>])[]): Promise<Decision[]> {
    const asked: Decision[] = [];
    const agent = createAgent({
      model: scriptedModel([]),
      tools: createLocalTools(project()),
      rules: [rule("write_file(*)"), rule("edit_file(**)")],
      protectedFolders: readProtectedFolders(project()),
      system: "",
      approve: async ({ decision }) => {
        asked.push(decision);
        return "deny";
      },
      snapshots: memorySnapshots(),
      transcript: memoryTranscript(),
      emit: eventLog().emit,
    });
    for (const [tool, args] of calls) await agent.call(tool, args, signal);
    return asked;
  }

  it("asks before a write into the hooks folder of core.hooksPath, whatever the allow rules", async () => {
    git(project(), "init", "--quiet");
    git(project(), "config", "core.hooksPath", ".githooks");
    mkdirSync(join(project(), ".githooks"));
    writeFileSync(join(project(), ".githooks", "pre-push"), "#!/bin/sh\n");
    const asked = await askedFor([
      ["write_file", { path: ".githooks/pre-commit", content: "#!/bin/sh\ntouch PWNED\n" }],
      ["edit_file", { path: ".GitHooks/pre-push", old_string: "#!/bin/sh", new_string: "#!/bin/sh\ntouch PWNED" }],
      ["write_file", { path: "src/a.ts", content: "x" }],
    ]);
    const reason = 'writes under the git hooks folder (core.hooksPath = ".githooks") always ask';
    expect(asked).toEqual([{ verdict: "ask", reason, onlyAPersonCanAllow: true }, { verdict: "ask", reason, onlyAPersonCanAllow: true }]);
    expect([existsSync(join(project(), ".githooks", "pre-commit")), readFileSync(join(project(), ".githooks", "pre-push"), "utf8")]).toEqual([false, "#!/bin/sh\n"]);
  });

  it("asks before a write to a husky repository's hooks, whatever the allow rules", async () => {
    git(project(), "init", "--quiet");
    git(project(), "config", "core.hooksPath", ".husky/_");
    const asked = await askedFor([
      ["write_file", { path: ".husky/pre-commit", content: "touch PWNED\n" }],
      ["write_file", { path: ".husky/_/pre-commit", content: "touch PWNED\n" }],
    ]);
    expect(asked).toEqual([
      { verdict: "ask", reason: "writes under .husky/ always ask", onlyAPersonCanAllow: true },
      { verdict: "ask", reason: 'writes under the git hooks folder (core.hooksPath = ".husky/_") always ask', onlyAPersonCanAllow: true },
    ]);
    expect(existsSync(join(project(), ".husky"))).toBe(false);
  });
});

describe("coreHooksPath", () => {
  // Each text with the value git itself reads from it (checked against `git config --file` below).
  const cases: readonly (readonly [string, string | undefined])[] = [
    ["[core]\n\thooksPath = .githooks\n", ".githooks"],
    ["[Core]\n\tHOOKSPATH=x", "x"],
    ['[core] hooksPath = "  spaced dir " ; comment\n', "  spaced dir "],
    ["[core]\n hooksPath = a b\t c # note\n", "a b  c"],
    ['[core]\nhooksPath = "a\\"b\\\\c#d"\n', 'a"b\\c#d'],
    ["[core]\nhooksPath = one\\\n two\n", "one two"],
    ["[core]\r\nhooksPath = crlf\r\n", "crlf"],
    ["[core]\nhooksPath = first\nbare = false\n[user]\nname = x\n[core]\nhooksPath = second\n", "second"],
    ['[core "x"]\nhooksPath = no\n[core.y]\nhooksPath = no\n[include]\npath = z\n[hooks]\nhooksPath = no\n', undefined],
    ["# [core]\n; hooksPath = no\n[core]\nhooksPathx = no\nxhooksPath = no\n", undefined],
  ];

  it("reads the last hooksPath of the [core] section as git does", () => {
    expect(cases.map(([text]) => coreHooksPath(text))).toEqual(cases.map(([, value]) => value));
  });

  it("agrees with git config --file on each of those texts", () => {
    const dir = mkdtempSync(join(tmpdir(), "mca-gitconfig-"));
    try {
      const read = cases.map(([text], index) => {
        const file = join(dir, `config-${index}`);
        writeFileSync(file, text);
        try {
          return git(dir, "config", "--file", file, "core.hooksPath").replace(/\n$/u, "");
        } catch {
          return undefined;
        }
      });
      expect(read).toEqual(cases.map(([, value]) => value));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("skips a value git refuses and keeps the one before", () => {
    const broken = ['[core]\nhooksPath = ok\nhooksPath = "unterminated\n', "[core]\nhooksPath = ok\nhooksPath = a\\qb\n", "[core]\nhooksPath = ok\nhooksPath\n"];
    expect(broken.map(coreHooksPath)).toEqual(["ok", "ok", "ok"]);
  });
});
