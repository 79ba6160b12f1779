import { execFileSync } from "node:child_process";
import { chmod, mkdir, readdir, readFile, rm, stat, symlink, truncate, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempStatePerTest } from "./test-support/temp-state.js";
import { createTreeCheckpoints, MAX_CHECKPOINT_FILE_BYTES } from "./tree-checkpoint.js";

const state = tempStatePerTest("mca-checkpoint-");
const project = (): string => state().projectDir;
const checkpointsOf = (session: string) => createTreeCheckpoints(state(), session, process.env);

async function take(checkpoints: ReturnType<typeof createTreeCheckpoints>): Promise<string> {
  const tree = await checkpoints.take();
  if (tree instanceof Error) throw tree;
  return tree;
}

describe("createTreeCheckpoints", () => {
  it("lists what changed between two checkpoints: changed, created and deleted files, .gitignore and .mca/ left out", async () => {
    await writeFile(join(project(), ".gitignore"), "build/\n");
    await writeFile(join(project(), "kept.txt"), "same");
    await writeFile(join(project(), "changed.txt"), "v0");
    await writeFile(join(project(), "deleted.txt"), "bye");
    const checkpoints = checkpointsOf("s1");
    const before = await take(checkpoints);
    await writeFile(join(project(), "changed.txt"), "v1");
    await rm(join(project(), "deleted.txt"));
    await mkdir(join(project(), "build"));
    await writeFile(join(project(), "build", "out.o"), "ignored");
    await writeFile(join(project(), "created.txt"), "new");
    const after = await take(checkpoints);
    expect((await checkpoints.changes(before, after)).sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: join(project(), "changed.txt"), existedBefore: true },
      { path: join(project(), "created.txt"), existedBefore: false },
      { path: join(project(), "deleted.txt"), existedBefore: true },
    ]);
  });

  it("writes a file back as it was in a checkpoint, with its executable bit", async () => {
    const file = join(project(), "run.sh");
    await writeFile(file, "#!/bin/sh\necho one\n");
    await chmod(file, 0o755);
    const checkpoints = checkpointsOf("s1");
    const before = await take(checkpoints);
    await writeFile(file, "echo two\n");
    await chmod(file, 0o644);
    await checkpoints.restoreFile(before, file);
    expect({ text: await readFile(file, "utf8"), executable: ((await stat(file)).mode & 0o100) !== 0 }).toEqual({ text: "#!/bin/sh\necho one\n", executable: true });
  });

  it("gives up, saying which file, when a new or changed file is too big to copy on every turn", async () => {
    await writeFile(join(project(), "huge.bin"), "");
    // Sparse: the size is what counts, no 20 MB is written.
    await truncate(join(project(), "huge.bin"), MAX_CHECKPOINT_FILE_BYTES + 1);
    const tree = await checkpointsOf("s1").take();
    expect(tree).toEqual(new Error("huge.bin is over 20 MB"));
  });

  it("keeps its repository in the state folder: nothing is written in the project", async () => {
    await writeFile(join(project(), "a.txt"), "a");
    await take(checkpointsOf("s1"));
    expect({
      head: (await stat(join(state().dir, "checkpoints.git", "HEAD"))).isFile(),
      project: await readdir(project()),
    }).toEqual({ head: true, project: ["a.txt"] });
  });
});

describe("createTreeCheckpoints, given what a repository or the user's git setup could plant", () => {
  /** A filter command that leaves a file behind when it runs; the file's path, to check it never appears. */
  const plantFilter = async (): Promise<{ config: string; ran: string }> => {
    const ran = join(dirname(project()), "the-filter-ran");
    const config = `[filter "evil"]\n\tclean = touch ${ran}; cat\n\tsmudge = touch ${ran}; cat\n\trequired = true\n[core]\n\tfsmonitor = touch ${ran}; true\n`;
    await writeFile(join(project(), ".gitattributes"), "* filter=evil\n");
    await writeFile(join(project(), "a.txt"), "a");
    return { config, ran };
  };
  const exists = (path: string): Promise<boolean> => stat(path).then(() => true, () => false);

  it("runs no filter or fsmonitor that the user's git config defines for a .gitattributes in the project", async () => {
    const { config, ran } = await plantFilter();
    const home = join(dirname(project()), "home");
    await mkdir(join(home, ".config", "git"), { recursive: true });
    await writeFile(join(home, ".gitconfig"), config);
    await writeFile(join(home, ".config", "git", "config"), config);
    const env = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), GIT_CONFIG_GLOBAL: join(home, ".gitconfig"), GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "filter.evil.clean", GIT_CONFIG_VALUE_0: `touch ${ran}; cat` };
    const checkpoints = createTreeCheckpoints(state(), "s1", env);
    const before = await take(checkpoints);
    await writeFile(join(project(), "a.txt"), "b");
    await take(checkpoints);
    await checkpoints.restoreFile(before, join(project(), "a.txt"));
    expect({ ran: await exists(ran), text: await readFile(join(project(), "a.txt"), "utf8") }).toEqual({ ran: false, text: "a" });
  });

  it("never adopts a checkpoint repository the project ships in .mca/", async () => {
    const { config, ran } = await plantFilter();
    const planted = join(project(), ".mca", "checkpoints.git");
    execFileSync("git", ["init", "--quiet", "--bare", planted]);
    await writeFile(join(planted, "config"), `[core]\n\tbare = true\n${config}`);
    const before = await take(checkpointsOf("s1"));
    expect({ ran: await exists(ran), tree: /^[0-9a-f]{40}$/u.test(before), planted: (await readdir(join(planted, "objects"))).sort() }).toEqual({ ran: false, tree: true, planted: ["info", "pack"] });
  });

  it("refuses a repository in its place that mca did not make, and leaves it alone", async () => {
    const { config, ran } = await plantFilter();
    const found = join(state().dir, "checkpoints.git");
    await mkdir(state().dir, { recursive: true });
    execFileSync("git", ["init", "--quiet", "--bare", found]);
    await writeFile(join(found, "config"), `[core]\n\tbare = true\n${config}`);
    expect(await checkpointsOf("s1").take()).toEqual(new Error(`${found} was not made by mca for this project, so it is not used (delete it and mca makes its own)`));
    expect(await exists(ran)).toBe(false);
  });

  it("refuses a symlink in its place: the repository it leads to is not turned into a checkpoint store", async () => {
    execFileSync("git", ["init", "--quiet"], { cwd: project() });
    await mkdir(state().dir, { recursive: true });
    await symlink(join(project(), ".git"), join(state().dir, "checkpoints.git"));
    const result = await checkpointsOf("s1").take();
    expect(result instanceof Error && result.message.includes("was not made by mca")).toBe(true);
    expect(execFileSync("git", ["rev-parse", "--is-bare-repository"], { cwd: project(), encoding: "utf8" }).trim()).toBe("false");
  });

  it("runs no git found through a relative folder on PATH (which would be the project's)", async () => {
    const ran = join(dirname(project()), "planted-git-ran");
    await mkdir(join(project(), "bin"));
    await writeFile(join(project(), "bin", "git"), `#!/bin/sh\ntouch ${ran}\nexit 1\n`, { mode: 0o755 });
    const tree = await createTreeCheckpoints(state(), "s1", { PATH: `bin:${process.env.PATH ?? ""}` }).take();
    expect({ ran: await exists(ran), taken: typeof tree === "string" }).toEqual({ ran: false, taken: true });
  });

  it("keeps every file and folder of its repository the user's only, objects included", async () => {
    await writeFile(join(project(), "a.txt"), "a", { mode: 0o644 });
    await take(checkpointsOf("s1"));
    const modes = new Set<string>();
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        modes.add(`${entry.isDirectory() ? "folder" : "file"} ${((await stat(path)).mode & 0o077).toString(8)}`);
        if (entry.isDirectory()) await walk(path);
      }
    };
    await walk(join(state().dir, "checkpoints.git"));
    expect([...modes].sort()).toEqual(["file 0", "folder 0"]);
  });

  it("makes its repository once, with its marker, and uses it again in a later session", async () => {
    await writeFile(join(project(), "a.txt"), "a");
    const first = await take(checkpointsOf("s1"));
    const second = await take(checkpointsOf("s2"));
    expect({ same: first === second, entries: (await readdir(state().dir)).sort() }).toEqual({ same: true, entries: ["checkpoints.git"] });
  });
});
