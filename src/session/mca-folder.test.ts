import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { tempProjectPerTest } from "../tools/test-support/temp-project.js";
import { ensureMcaFolder } from "./mca-folder.js";

const project = tempProjectPerTest("mca-folder-");

describe("ensureMcaFolder", () => {
  it("creates .mca/ and the folder asked for, the user's only, with a .gitignore that git obeys", () => {
    const dir = ensureMcaFolder(project(), "sessions");
    execFileSync("git", ["init", "-q"], { cwd: project() });
    expect({
      dir,
      mode: statSync(join(project(), ".mca")).mode & 0o777,
      inner: statSync(dir).mode & 0o777,
      untracked: execFileSync("git", ["status", "--porcelain", "--untracked-files=all"], { cwd: project(), encoding: "utf8" }),
    }).toEqual({ dir: join(project(), ".mca", "sessions"), mode: 0o700, inner: 0o700, untracked: "" });
  });

  it("leaves a .mca/ the user made as it is: no .gitignore added", () => {
    mkdirSync(join(project(), ".mca"));
    ensureMcaFolder(project(), "snapshots");
    expect(readdirSync(join(project(), ".mca"))).toEqual(["snapshots"]);
    expect(existsSync(join(project(), ".mca", ".gitignore"))).toBe(false);
  });

  it("writes the .gitignore once: a later call keeps what is there", () => {
    ensureMcaFolder(project(), "a");
    const first = readFileSync(join(project(), ".mca", ".gitignore"), "utf8");
    ensureMcaFolder(project(), "b");
    expect(readFileSync(join(project(), ".mca", ".gitignore"), "utf8")).toBe(first);
  });
});
