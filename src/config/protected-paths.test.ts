import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ALWAYS_PROTECTED, createAgent, parseRule, type Decision, type ProtectedFolder, type Rule } from "../kernel/index.js";
import { eventLog, memorySnapshots, memoryTranscript, scriptedModel } from "../kernel/test-support/fakes.js";
import { createLocalTools } from "../tools/index.js";
import { tempProjectPerTest } from "../tools/test-support/temp-project.js";
import { readGitSurface } from "./git-surface.js";
import { readProtectedFolders } from "./protected-paths.js";

/** git with no system config and the test's own HOME (its ~/.gitconfig), so only the test's settings count. */
function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "init.defaultBranch=main", "-c", "protocol.file.allow=always", ...args], { cwd, env: { ...process.env, ...gitEnv(cwd) }, encoding: "utf8" });
}

/** The environment of the user's git in these tests: HOME beside the project, no system config. */
function gitEnv(project: string): Record<string, string> {
  return { PATH: process.env.PATH ?? "", HOME: homeOf(project), GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };
}

/** Each test's HOME: a folder of its own beside the project (made on first use). */
function homeOf(project: string): string {
  const home = `${project.replace(/\/(?:main|linked|app|a|b)$/u, "")}-home`;
  mkdirSync(home, { recursive: true });
  return home;
}

function folders(projectDir: string): ProtectedFolder[] {
  return readProtectedFolders(projectDir, readGitSurface(projectDir, { env: gitEnv(projectDir) }));
}

/** `file`: where the hooks path is set, when it is not the repository's own config. */
function hooksFolder(path: string, written: string, file?: string): ProtectedFolder {
  const where = file === undefined ? "" : ` in ${file}`;
  return { path, anyDepth: false, reason: `writes under the git hooks folder (core.hooksPath = ${JSON.stringify(written)}${where}) always ask` };
}

describe("readProtectedFolders", () => {
  const project = tempProjectPerTest("mca-protected-");
  afterEach(() => rmSync(homeOf(project()), { recursive: true, force: true }));
  const config = (): string => join(project(), ".git", "config");

  it("is the folders of every project when there is no repository", () => {
    expect(folders(project())).toEqual(ALWAYS_PROTECTED);
  });

  it("adds the hooks folder that core.hooksPath names, relative to the work tree", () => {
    git(project(), "init", "--quiet");
    git(project(), "config", "core.hooksPath", ".githooks");
    expect(folders(project())).toEqual([hooksFolder(".githooks", ".githooks"), ...ALWAYS_PROTECTED]);
  });

  it("adds a relative hooks folder of the user's ~/.gitconfig, from the work tree", () => {
    git(project(), "init", "--quiet");
    git(project(), "config", "--global", "core.hooksPath", ".githooks");
    expect(folders(project())).toEqual([hooksFolder(".githooks", ".githooks", join(homeOf(project()), ".gitconfig")), ...ALWAYS_PROTECTED]);
  });

  it("names husky's hooks folder as the hooks folder, before .husky itself", () => {
    git(project(), "init", "--quiet");
    git(project(), "config", "core.hooksPath", ".husky/_");
    expect(folders(project())).toEqual([hooksFolder(".husky/_", ".husky/_"), ...ALWAYS_PROTECTED]);
  });

  it("takes an absolute hooks folder inside the project and leaves one outside, or under ~ outside it, alone", () => {
    git(project(), "init", "--quiet");
    git(project(), "config", "core.hooksPath", join(project(), "tools", "hooks"));
    expect(folders(project())).toEqual([hooksFolder("tools/hooks", join(project(), "tools", "hooks")), ...ALWAYS_PROTECTED]);
    git(project(), "config", "core.hooksPath", tmpdir());
    expect(folders(project())).toEqual(ALWAYS_PROTECTED);
    git(project(), "config", "core.hooksPath", "~/hooks");
    expect(folders(project())).toEqual(ALWAYS_PROTECTED);
  });

  it("names a hooks folder that is a symbolic link under its own name and where it leads", () => {
    git(project(), "init", "--quiet");
    mkdirSync(join(project(), "tools", "hooks"), { recursive: true });
    symlinkSync(join("tools", "hooks"), join(project(), "hooks"));
    git(project(), "config", "core.hooksPath", "hooks");
    expect(folders(project())).toEqual([hooksFolder("hooks", "hooks"), hooksFolder("tools/hooks", "hooks"), ...ALWAYS_PROTECTED]);
  });

  it("reads the repository above a project that is one of its folders", () => {
    git(project(), "init", "--quiet");
    git(project(), "config", "core.hooksPath", "app/hooks");
    mkdirSync(join(project(), "app"));
    expect(folders(join(project(), "app"))).toEqual([hooksFolder("hooks", "app/hooks"), ...ALWAYS_PROTECTED]);
  });

  it("reads the shared config of a linked worktree, and resolves its hooks folder from the linked work tree", () => {
    const main = join(project(), "main");
    mkdirSync(main);
    git(main, "init", "--quiet");
    git(main, "commit", "--quiet", "--allow-empty", "-m", "start");
    git(main, "config", "core.hooksPath", ".githooks");
    git(main, "worktree", "add", "--quiet", join(project(), "linked"));
    expect(folders(join(project(), "linked"))).toEqual([hooksFolder(".githooks", ".githooks"), ...ALWAYS_PROTECTED]);
  });

  it("protects a git folder inside the project that a .git file points to", () => {
    git(project(), "init", "--quiet", `--separate-git-dir=${join(project(), "repo-data")}`);
    git(project(), "config", "core.hooksPath", ".githooks");
    const gitFolder: ProtectedFolder = { path: "repo-data", anyDepth: false, reason: "writes under the repository's git folder always ask" };
    expect(folders(project())).toEqual([gitFolder, hooksFolder(".githooks", ".githooks"), ...ALWAYS_PROTECTED]);
  });

  it("protects a file the repository's config includes, and the hooks folder that file names", () => {
    git(project(), "init", "--quiet");
    writeFileSync(join(project(), ".gitconfig-shared"), "[core]\n\thooksPath = .githooks\n");
    git(project(), "config", "include.path", "../.gitconfig-shared");
    const included: ProtectedFolder = { path: ".gitconfig-shared", anyDepth: false, reason: `writes to a file git's config includes (include.path = "../.gitconfig-shared" in ${config()}) always ask` };
    expect(folders(project())).toEqual([included, hooksFolder(".githooks", ".githooks", join(project(), ".gitconfig-shared")), ...ALWAYS_PROTECTED]);
  });

  it("protects .gitmodules", () => {
    git(project(), "init", "--quiet");
    writeFileSync(join(project(), ".gitmodules"), "");
    expect(folders(project())).toEqual([{ path: ".gitmodules", anyDepth: false, reason: "writes to the work tree's .gitmodules always ask" }, ...ALWAYS_PROTECTED]);
  });

  it("does not hang on a named pipe planted as the config or as the .git file", () => {
    mkdirSync(join(project(), "a", ".git"), { recursive: true });
    execFileSync("mkfifo", [join(project(), "a", ".git", "config"), join(project(), "b.git")]);
    mkdirSync(join(project(), "b"));
    execFileSync("mv", [join(project(), "b.git"), join(project(), "b", ".git")]);
    expect([folders(join(project(), "a")), folders(join(project(), "b"))]).toEqual([ALWAYS_PROTECTED, ALWAYS_PROTECTED]);
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
      protectedFolders: () => folders(project()),
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
