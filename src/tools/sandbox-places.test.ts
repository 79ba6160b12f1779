import { execFileSync } from "node:child_process";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { programPlaces, sandboxPlaces } from "./sandbox-places.js";
import { tempProjectPerTest } from "./test-support/temp-project.js";

describe("programPlaces", () => {
  const project = tempProjectPerTest("mca-program-places-");

  it("keeps the whole folder of a program below the project's root", () => {
    const root = realpathSync(project());
    expect(programPlaces(root, "tools/server/main.mjs")).toEqual([{ path: join(root, "tools", "server"), absent: null }]);
  });

  it("keeps a program at the root and the files beside it in its language, as the root itself cannot be read-only", () => {
    const root = realpathSync(project());
    for (const name of ["server.mjs", "lib.js", "types.ts", "package.json", "README.md", "tool.py"]) writeFileSync(join(root, name), "");
    mkdirSync(join(root, "src.js"));
    expect(programPlaces(root, "server.mjs").map((place) => place.path.slice(root.length + 1)).sort()).toEqual(["lib.js", "package.json", "server.mjs", "src.js", "types.ts"]);
    expect(programPlaces(root, "tool.py")).toEqual([{ path: join(root, "tool.py"), absent: null }]);
    expect(programPlaces(root, "run")).toEqual([{ path: join(root, "run"), absent: null }]);
  });
});

describe("sandboxPlaces", () => {
  const project = tempProjectPerTest("mca-sandbox-places-");
  const env = { HOME: "/nonexistent", PATH: process.env.PATH };
  const ownFolders = ["/c/mca", "/s/mca"];

  it("names mca's settings and state, the project's .mca/, .husky/, the programs and git's places, each held or not when absent", () => {
    const root = realpathSync(project());
    const places = sandboxPlaces({ projectDir: root, env, ownFolders, programs: [{ alias: "notes", path: "tools/s.mjs", hashed: true }] });
    expect(places.read()).toEqual([
      { path: "/c/mca", absent: "folder" },
      { path: "/s/mca", absent: "folder" },
      { path: join(root, ".mca"), absent: "folder" },
      { path: join(root, ".husky"), absent: null },
      // Git's system and user configs, read for every repository (HOME /nonexistent here).
      { path: "/etc/gitconfig", absent: "file" },
      { path: "/nonexistent/.config/git/config", absent: "file" },
      { path: "/nonexistent/.gitconfig", absent: "file" },
      { path: join(root, "tools"), absent: null },
      // The place of `.git` in a project without one.
      { path: join(root, ".git"), absent: "folder" },
    ]);
  });

  it("holds an absent .gitmodules or included config with a file, and an uninitialised submodule's place with a folder", () => {
    const root = realpathSync(project());
    execFileSync("git", ["init", "-q", root]);
    execFileSync("git", ["-C", root, "config", "include.path", "../team.gitconfig"]);
    execFileSync("git", ["-C", root, "update-index", "--add", "--cacheinfo", `160000,${"1".repeat(40)},sub`]);
    const git = sandboxPlaces({ projectDir: root, env, ownFolders, programs: [] }).read().slice(7);
    expect(git.filter((place) => [join(root, "team.gitconfig"), join(root, "sub")].includes(place.path))).toEqual([
      { path: join(root, "team.gitconfig"), absent: "file" },
      { path: join(root, "sub"), absent: "folder" },
    ]);
  });

  it("asks git again after `changed`, when a command outside the sandbox may have made a repository", () => {
    const root = realpathSync(project());
    execFileSync("git", ["init", "-q", root]);
    const places = sandboxPlaces({ projectDir: root, env, ownFolders, programs: [] });
    places.read();
    execFileSync("git", ["init", "-q", join(root, "nested")]);
    const before = places.read().some((place) => place.path === join(root, "nested", ".git"));
    places.changed();
    expect([before, places.read().some((place) => place.path === join(root, "nested", ".git"))]).toEqual([false, true]);
  });

  it("keeps the files beside each program at the root, and a file made there since the last call", () => {
    const root = realpathSync(project());
    for (const name of ["a.mjs", "b.py", "lib.js", "helper.py", "README.md"]) writeFileSync(join(root, name), "");
    const programs = [
      { alias: "a", path: "a.mjs", hashed: true },
      { alias: "b", path: "b.py", hashed: true },
    ];
    const places = sandboxPlaces({ projectDir: root, env, ownFolders, programs });
    const kept = (): string[] =>
      places
        .read()
        .slice(7, -1)
        .map((place) => place.path.slice(root.length + 1))
        .sort();
    const first = kept();
    writeFileSync(join(root, "later.js"), "");
    expect([first, kept()]).toEqual([
      ["a.mjs", "b.py", "helper.py", "lib.js"],
      ["a.mjs", "b.py", "helper.py", "later.js", "lib.js"],
    ]);
  });
});
