import { chmod, mkdir, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempProjectPerTest } from "../tools/test-support/temp-project.js";
import { createTreeCheckpoints, MAX_CHECKPOINT_FILE_BYTES } from "./tree-checkpoint.js";

const project = tempProjectPerTest("mca-checkpoint-");

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
    const checkpoints = createTreeCheckpoints(project(), "s1");
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
    const checkpoints = createTreeCheckpoints(project(), "s1");
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
    const tree = await createTreeCheckpoints(project(), "s1").take();
    expect(tree).toEqual(new Error("huge.bin is over 20 MB"));
  });

  it("keeps its repository inside .mca/, apart from the project's own git", async () => {
    await take(createTreeCheckpoints(project(), "s1"));
    expect((await stat(join(project(), ".mca", "checkpoints.git", "HEAD"))).isFile()).toBe(true);
    expect(await stat(join(project(), ".git")).then(() => true, () => false)).toBe(false);
  });
});
