// A repository whose git settings run code from a folder of its work tree (core.hooksPath, husky), driven
// through the real CLI with allow rules that cover every write: a hook is never written unasked.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "./cli/test-support/run-cli.js";

let project: TempProject;
beforeEach(async () => {
  project = await createTempProject();
});
afterEach(() => project.remove());

function git(...args: string[]): void {
  execFileSync("git", ["-c", "init.defaultBranch=main", ...args], { cwd: project.dir, env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" } });
}

/** `mca call write_file` with every write allowed by a rule: its exit code, the approval line, and whether the file is there after. */
async function writeWithEverythingAllowed(path: string): Promise<{ code: number | null; approval: string; notRun: string; written: boolean }> {
  const run = await project.run(["--allow", "write_file(*)", "--allow", "edit_file(**)", "call", "write_file", JSON.stringify({ path, content: "touch PWNED\n" })], "");
  const line = (start: string): string => run.stderr.split("\n").find((text) => text.startsWith(start)) ?? "";
  return { code: run.code, approval: line("mca call"), notRun: line("not run:"), written: existsSync(join(project.dir, path)) };
}

describe("a write to a repository's hooks through the CLI", () => {
  it("is asked, not done, in the folder core.hooksPath names", async () => {
    git("init", "--quiet");
    git("config", "core.hooksPath", ".githooks");
    expect(await writeWithEverythingAllowed(".githooks/pre-commit")).toEqual({
      code: 1,
      approval: 'mca call write_file failed; approval: ask (writes under the git hooks folder (core.hooksPath = ".githooks") always ask)',
      notRun: 'not run: write_file needs approval and there is no terminal to ask on; writes under the git hooks folder (core.hooksPath = ".githooks") always ask, so only a person at a terminal can allow it',
      written: false,
    });
    expect(await writeWithEverythingAllowed("src/a.ts")).toEqual({ code: 0, approval: "", notRun: "", written: true });
  });

  it("is asked, not done, in a husky repository's .husky folder", async () => {
    git("init", "--quiet");
    git("config", "core.hooksPath", ".husky/_");
    expect(await writeWithEverythingAllowed(".husky/pre-commit")).toEqual({
      code: 1,
      approval: "mca call write_file failed; approval: ask (writes under .husky/ always ask)",
      notRun: "not run: write_file needs approval and there is no terminal to ask on; writes under .husky/ always ask, so only a person at a terminal can allow it",
      written: false,
    });
  });
});
