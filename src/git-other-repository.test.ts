// A cloned project that ships a bare repository (`vendor.git`) whose config names a diff textconv: git run in
// it obeys that config. Without the sandbox, `--allow 'bash(git *)'` covers git only as far as git is known
// to only read, and git run in another repository is not: the scripted model's call asks, and without a
// terminal it is not run, so the textconv never runs.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "./cli/test-support/run-cli.js";

let project: TempProject;
beforeEach(async () => {
  project = await createTempProject();
});
afterEach(() => project.remove());

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", env: { PATH: process.env.PATH ?? "", HOME: project.home, GIT_CONFIG_NOSYSTEM: "1" } });
}

/** Ships `vendor.git` in the project: two commits of a.txt, and a textconv that leaves `marker` when it runs. */
async function shipBareRepository(): Promise<{ marker: string }> {
  const marker = join(dirname(project.dir), "the-textconv-ran");
  const work = join(dirname(project.dir), "work");
  await mkdir(work);
  git(work, "init", "--quiet");
  await writeFile(join(work, "a.txt"), "one\n");
  git(work, "add", "a.txt");
  git(work, "-c", "user.name=a", "-c", "user.email=a@example.com", "commit", "--quiet", "-m", "one");
  await writeFile(join(work, "a.txt"), "one\ntwo\n");
  git(work, "-c", "user.name=a", "-c", "user.email=a@example.com", "commit", "--quiet", "-am", "two");
  git(project.dir, "clone", "--quiet", "--bare", work, "vendor.git");
  await writeFile(join(project.dir, "vendor.git", "config"), `[core]\n\tbare = true\n[diff "evil"]\n\ttextconv = touch ${marker}; cat\n`);
  await writeFile(join(project.dir, "vendor.git", "info", "attributes"), "* diff=evil\n");
  return { marker };
}

/** What the scripted model's one bash call became: its line on stderr and the result the model was given. */
async function runScripted(command: string): Promise<{ code: number | null; notRun: string[]; result: string }> {
  const script = join(project.home, "script.json");
  await writeFile(script, JSON.stringify([[{ name: "bash", input: { command } }], "done"]));
  const run = await project.run(["--no-sandbox", "--allow", "bash(git *)", "-p", "show the vendored history"], "", { MCA_MOCK_SCRIPT: script });
  return { code: run.code, notRun: run.stderr.split("\n").filter((line) => line.startsWith("not run")), result: run.stdout.trim() };
}

describe("git run in a bare repository shipped in the project, without the sandbox", () => {
  it("is the attack: git -C vendor.git show runs the repository's textconv", async () => {
    const { marker } = await shipBareRepository();
    git(project.dir, "-C", "vendor.git", "show");
    expect(existsSync(marker)).toBe(true);
  });

  it("is not covered by --allow 'bash(git *)': the call asks, no terminal denies it, and the textconv never runs", async () => {
    const { marker } = await shipBareRepository();
    git(project.dir, "init", "--quiet");
    const own = await runScripted("git -C . log --oneline");
    const vendored = await runScripted("git -C vendor.git show");
    expect({ own, vendored, ran: existsSync(marker) }).toEqual({
      own: { code: 0, notRun: [], result: "done" },
      vendored: { code: 0, notRun: ['not run: bash needs approval and there is no terminal to ask on; run mca with --allow "bash" to allow it'], result: "done" },
      ran: false,
    });
  });
});
