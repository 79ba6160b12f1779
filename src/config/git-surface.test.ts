import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findGitProbe, type GitProbe } from "./git-probe.js";
import { gitSurfaceReader, readGitSurface, type GitPlace, type GitSurface } from "./git-surface.js";

/** A scratch folder per test: `root/home` is HOME (its .gitconfig the global config), projects go beside it. */
let root = "";
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "mca-git-surface-"));
  mkdirSync(join(root, "home"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const env = (): Record<string, string> => ({ PATH: process.env.PATH ?? "", HOME: join(root, "home"), GIT_CONFIG_NOSYSTEM: "1" });

function git(cwd: string, ...args: string[]): string {
  const identity = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };
  return execFileSync("git", ["-c", "init.defaultBranch=main", "-c", "protocol.file.allow=always", ...args], { cwd, env: { ...env(), ...identity }, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** A repository at `root/name` with one commit. */
function repository(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "--quiet");
  writeFileSync(join(dir, "README"), "x\n");
  git(dir, "add", "README");
  git(dir, "commit", "--quiet", "-m", "start");
  return dir;
}

function surface(project: string): GitSurface {
  return readGitSurface(project, { env: env() });
}

const place = (path: string, kind: GitPlace["kind"], reason: string, present = true): GitPlace => ({ path, present, kind, reason });

describe("readGitSurface", () => {
  it("names the place of .git in a project without a repository, as missing, and starts no git", () => {
    const project = join(root, "plain");
    mkdirSync(project);
    const noGit: GitProbe = { git: "/nonexistent/git", run: () => expect.unreachable("git was asked") };
    expect(readGitSurface(project, { env: env(), probe: noGit })).toEqual({
      places: [place(join(project, ".git"), "git-dir", "the place of the project's git folder (there is none yet: git would obey one made there)", false)],
      source: { kind: "no-repository" },
      walkLimited: false,
    });
  });

  it("finds a submodule whose name differs from its path by its path, with its .git and git folder", () => {
    const lib = repository("lib");
    const project = repository("project");
    git(project, "submodule", "add", "--quiet", "--name", "thelib", lib, "vendor/lib");
    git(project, "commit", "--quiet", "-m", "lib");
    expect(surface(project).places).toEqual([
      place(join(project, ".git"), "git-dir", "the repository's .git"),
      place(join(project, ".gitmodules"), "gitmodules", "the work tree's .gitmodules"),
      place(join(project, "vendor", "lib", ".git"), "gitfile", `the .git of the submodule at ${join(project, "vendor", "lib")}`),
      place(join(project, ".git", "modules", "thelib"), "git-dir", `a git folder ${join(project, "vendor", "lib", ".git")} points to`),
    ]);
  });

  it("names the place of a submodule that is not checked out (a clone without --recursive)", () => {
    const lib = repository("lib");
    const upstream = repository("upstream");
    git(upstream, "submodule", "add", "--quiet", lib, "vendor/lib");
    git(upstream, "commit", "--quiet", "-m", "lib");
    git(root, "clone", "--quiet", upstream, "project");
    const project = join(root, "project");
    expect(surface(project).places).toEqual([
      place(join(project, ".git"), "git-dir", "the repository's .git"),
      place(join(project, ".gitmodules"), "gitmodules", "the work tree's .gitmodules"),
      place(join(project, "vendor", "lib"), "submodule-place", "the place of a submodule that is not checked out (git would obey a .git made there)"),
    ]);
  });

  it("names a gitlink of the index that .gitmodules does not name", () => {
    const project = repository("project");
    const commit = git(project, "rev-parse", "HEAD").trim();
    git(project, "update-index", "--add", "--cacheinfo", `160000,${commit},hidden/sub`);
    expect(surface(project).places).toContainEqual(place(join(project, "hidden", "sub"), "submodule-place", "the place of a submodule that is not checked out (git would obey a .git made there)", false));
  });

  it("names every file a config includes, a tracked one and one under a condition, relative to the including file", () => {
    const project = repository("project");
    writeFileSync(join(project, ".gitconfig-shared"), "[includeIf \"onbranch:release\"]\n\tpath = more.gitconfig\n");
    git(project, "config", "include.path", "../.gitconfig-shared");
    expect(surface(project).places.filter((found) => found.kind === "config-include")).toEqual([
      place(join(project, ".gitconfig-shared"), "config-include", `a file git's config includes (include.path = "../.gitconfig-shared" in ${join(project, ".git", "config")})`),
      place(join(project, "more.gitconfig"), "config-include", `a file git's config includes (includeif.onbranch:release.path = "more.gitconfig" in ${join(project, ".gitconfig-shared")})`, false),
    ]);
  });

  it("resolves a relative core.hooksPath of the global config from the work tree, and ~/ as git does", () => {
    const project = repository("project");
    const gitconfig = join(root, "home", ".gitconfig");
    git(project, "config", "--global", "core.hooksPath", ".githooks");
    git(project, "config", "core.hooksPath", "~/hooks");
    expect(surface(project).places.filter((found) => found.kind === "hooks")).toEqual([
      place(join(project, ".githooks"), "hooks", `the git hooks folder (core.hooksPath = ".githooks" in ${gitconfig})`, false),
      place(join(project, ".git", ".githooks"), "hooks", `the git hooks folder (core.hooksPath = ".githooks" in ${gitconfig})`, false),
      place(join(root, "home", "hooks"), "hooks", `the git hooks folder (core.hooksPath = "${join(root, "home", "hooks")}")`, false),
    ]);
  });

  it("reads a linked worktree: its .git file, its git folder and the common one outside the project", () => {
    const main = repository("main");
    git(main, "worktree", "add", "--quiet", join(root, "linked"));
    const linked = join(root, "linked");
    expect(surface(linked).places).toEqual([
      place(join(linked, ".git"), "gitfile", "the repository's .git"),
      place(join(main, ".git", "worktrees", "linked"), "git-dir", "the repository's git folder"),
      place(join(main, ".git"), "git-dir", "the repository's common git folder"),
    ]);
  });

  it("finds a nested repository and a .git that is a symbolic link, without following symbolic links into folders", () => {
    const project = repository("project");
    const elsewhere = repository("elsewhere");
    git(project, "init", "--quiet", "tools/nested");
    mkdirSync(join(project, "linked"));
    symlinkSync(join(elsewhere, ".git"), join(project, "linked", ".git"));
    symlinkSync(elsewhere, join(project, "shortcut"));
    expect(surface(project).places.slice(1)).toEqual([
      place(join(project, "linked", ".git"), "git-dir", `the .git of the repository at ${join(project, "linked")}`),
      place(join(project, "tools", "nested", ".git"), "git-dir", `the .git of the repository at ${join(project, "tools", "nested")}`),
    ]);
  });

  it("runs nothing a hostile repository or environment names: fsmonitor, pager, filters, credential helper", () => {
    const project = repository("project");
    const marker = join(root, "PWNED");
    const script = join(root, "hostile.sh");
    writeFileSync(script, `#!/bin/sh\ntouch ${marker}\n`);
    chmodSync(script, 0o755);
    for (const [key, value] of [
      ["core.fsmonitor", script],
      ["core.pager", script],
      ["pager.config", script],
      ["pager.ls-files", script],
      ["core.sshCommand", script],
      ["credential.helper", `!${script}`],
      ["filter.x.clean", script],
      ["filter.x.smudge", script],
      ["filter.x.process", script],
      ["diff.x.textconv", script],
    ] as const) {
      git(project, "config", key, value);
    }
    writeFileSync(join(project, ".gitattributes"), "* filter=x diff=x\n");
    writeFileSync(join(project, ".gitmodules"), `[submodule "a"]\n\tpath = a\n\turl = ext::${script}\n\tupdate = !${script}\n`);
    const hostileEnv = { ...env(), GIT_PAGER: script, GIT_EXTERNAL_DIFF: script, GIT_CONFIG_PARAMETERS: `'core.fsmonitor'='${script}'`, GIT_DIR: join(root, "nowhere") };
    const found = readGitSurface(project, { env: hostileEnv });
    expect([found.source, existsSync(marker)]).toEqual([{ kind: "git" }, false]);
  });

  it("falls back to the files' text when there is no git, and says so", () => {
    const project = repository("project");
    git(project, "config", "core.hooksPath", ".githooks");
    expect(readGitSurface(project, { env: env(), probe: null })).toEqual({
      places: [
        place(join(project, ".git"), "git-dir", "the repository's .git"),
        place(join(project, ".githooks"), "hooks", `the git hooks folder (core.hooksPath = ".githooks" in ${join(project, ".git", "config")})`, false),
      ],
      source: { kind: "text", why: "git is not on PATH" },
      walkLimited: false,
    });
  });
});

describe("gitSurfaceReader", () => {
  /** The git on PATH, counting how often it is asked. */
  function countingProbe(project: string): { probe: GitProbe; runs: () => number } {
    const real = findGitProbe(env(), project);
    if (real === undefined) throw new Error("the tests need git on PATH");
    let runs = 0;
    return { probe: { git: real.git, run: (...args) => ((runs += 1), real.run(...args)) }, runs: () => runs };
  }

  it("asks git again only when a file the surface came from changed", () => {
    const project = repository("project");
    const { probe, runs } = countingProbe(project);
    const reader = gitSurfaceReader(project, { env: env(), probe });
    const first = reader.read();
    const asked = runs();
    expect([reader.read(), runs()]).toEqual([first, asked]);
    git(project, "config", "core.hooksPath", ".githooks");
    expect(reader.read().places).toContainEqual(place(join(project, ".githooks"), "hooks", 'the git hooks folder (core.hooksPath = ".githooks")', false));
    expect(runs()).toBeGreaterThan(asked);
  });

  it("asks again after invalidate", () => {
    const project = repository("project");
    const { probe, runs } = countingProbe(project);
    const reader = gitSurfaceReader(project, { env: env(), probe });
    reader.read();
    const asked = runs();
    reader.invalidate();
    reader.read();
    expect(runs()).toBeGreaterThan(asked);
  });
});
