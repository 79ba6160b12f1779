import { mkdir, readFile, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAgent } from "../kernel/index.js";
import { eventLog, fakeTool, memoryTranscript, reply, scriptedModel, text, use } from "../kernel/test-support/fakes.js";
import { tempProjectPerTest } from "../tools/test-support/temp-project.js";
import { createSnapshotFiles, snapshotsDir } from "./snapshot-files.js";

const project = tempProjectPerTest("mca-snapshots-");

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

describe("createSnapshotFiles", () => {
  it("restores a changed file to its content before the turn's first change", async () => {
    const file = join(project(), "a.txt");
    await writeFile(file, "original");
    const store = createSnapshotFiles(project());
    await store.save(1, file);
    await writeFile(file, "first change");
    await store.save(1, file);
    await writeFile(file, "second change");
    expect(await store.restore(1)).toEqual([file]);
    expect(await readFile(file, "utf8")).toBe("original");
  });

  it("deletes a file the turn created", async () => {
    const file = join(project(), "new", "b.txt");
    const store = createSnapshotFiles(project());
    await store.save(1, file);
    await mkdir(join(project(), "new"));
    await writeFile(file, "created");
    expect(await store.restore(1)).toEqual([file]);
    expect(await exists(file)).toBe(false);
  });

  it("restores a file that was deleted, with its permissions", async () => {
    const file = join(project(), "run.sh");
    await writeFile(file, "#!/bin/sh\n", { mode: 0o755 });
    const store = createSnapshotFiles(project());
    await store.save(4, file);
    await rm(file);
    await store.restore(4);
    expect({ text: await readFile(file, "utf8"), mode: (await stat(file)).mode & 0o777 }).toEqual({ text: "#!/bin/sh\n", mode: 0o755 });
  });

  it("keeps the copies under .mca/snapshots/<turn>/ and removes them once restored", async () => {
    const file = join(project(), "a.txt");
    await writeFile(file, "x");
    const store = createSnapshotFiles(project());
    await store.save(2, file);
    expect(await readdir(join(snapshotsDir(project()), "2"))).toEqual(["0-a.txt"]);
    await store.restore(2);
    expect(await exists(join(snapshotsDir(project()), "2"))).toBe(false);
  });

  it("restores only the turn asked for, and nothing for a turn it never saved", async () => {
    const a = join(project(), "a.txt");
    const b = join(project(), "b.txt");
    await writeFile(a, "a0");
    await writeFile(b, "b0");
    const store = createSnapshotFiles(project());
    await store.save(1, a);
    await writeFile(a, "a1");
    await store.save(2, b);
    await writeFile(b, "b1");
    expect(await store.restore(2)).toEqual([b]);
    expect([await readFile(a, "utf8"), await readFile(b, "utf8")]).toEqual(["a1", "b0"]);
    expect(await store.restore(7)).toEqual([]);
  });

  it("never restores a copy left in the turn's folder by an earlier run", async () => {
    const stale = join(snapshotsDir(project()), "1");
    await mkdir(stale, { recursive: true });
    await writeFile(join(stale, "0-a.txt"), "stale");
    const file = join(project(), "a.txt");
    await writeFile(file, "fresh");
    const store = createSnapshotFiles(project());
    await store.save(1, file);
    await writeFile(file, "changed");
    await store.restore(1);
    expect(await readFile(file, "utf8")).toBe("fresh");
  });
});

describe("createSnapshotFiles' copies", () => {
  it("are readable by the user only, in folders that are the user's only, under a .mca/ that git ignores", async () => {
    const file = join(project(), "a.txt");
    await writeFile(file, "x", { mode: 0o644 });
    await createSnapshotFiles(project()).save(1, file);
    const mode = async (path: string): Promise<number> => (await stat(path)).mode & 0o777;
    expect({
      copy: await mode(join(snapshotsDir(project()), "1", "0-a.txt")),
      turn: await mode(join(snapshotsDir(project()), "1")),
      snapshots: await mode(snapshotsDir(project())),
      mca: await mode(join(project(), ".mca")),
      gitignore: (await readFile(join(project(), ".mca", ".gitignore"), "utf8")).split("\n").includes("*"),
    }).toEqual({ copy: 0o600, turn: 0o700, snapshots: 0o700, mca: 0o700, gitignore: true });
  });
});

describe("createSnapshotFiles' restore, where a path now leads elsewhere", () => {
  /** The project is a folder of the test's temporary folder; `outside` is its sibling, beyond the project. */
  const layout = async () => {
    const dir = join(project(), "repo");
    const outside = join(project(), "outside");
    await mkdir(join(dir, "src"), { recursive: true });
    await mkdir(outside);
    const skipped: string[] = [];
    const store = createSnapshotFiles(dir, { onSkipped: (path, reason) => skipped.push(`${path}: ${reason}`) });
    return { dir, outside, skipped, store };
  };

  it("does not write through a folder that became a symlink out of the project, and says which file it skipped", async () => {
    const { dir, outside, skipped, store } = await layout();
    const file = join(dir, "src", "hook");
    await writeFile(file, "original");
    await store.save(1, file);
    await rm(join(dir, "src"), { recursive: true });
    await symlink(outside, join(dir, "src"));

    expect(await store.restore(1)).toEqual([]);
    expect(await readdir(outside)).toEqual([]);
    expect(skipped).toEqual([`${file}: it now leads outside the project (to ${join(outside, "hook")})`]);
  });

  it("does not delete a file outside the project when undoing the creation of a file whose folder became such a symlink", async () => {
    const { dir, outside, skipped, store } = await layout();
    const file = join(dir, "src", "new.txt");
    await store.save(1, file);
    await writeFile(join(outside, "new.txt"), "not the project's");
    await rm(join(dir, "src"), { recursive: true });
    await symlink(outside, join(dir, "src"));

    expect(await store.restore(1)).toEqual([]);
    expect(await readFile(join(outside, "new.txt"), "utf8")).toBe("not the project's");
    expect(skipped).toHaveLength(1);
  });

  it("does not create the missing target of a file that became a dangling symlink", async () => {
    const { dir, outside, skipped, store } = await layout();
    const file = join(dir, "a.txt");
    await writeFile(file, "original");
    await store.save(1, file);
    await rm(file);
    await symlink(join(outside, "planted"), file);

    expect(await store.restore(1)).toEqual([]);
    expect(await readdir(outside)).toEqual([]);
    expect(skipped).toEqual([`${file}: it is now a symlink to a place that does not exist`]);
  });

  it("restores through a symlink that stays inside the project", async () => {
    const { dir, skipped, store } = await layout();
    const file = join(dir, "lib", "a.txt");
    await mkdir(join(dir, "lib"));
    await writeFile(file, "original");
    await store.save(1, file);
    await rm(join(dir, "lib"), { recursive: true });
    await symlink(join(dir, "src"), join(dir, "lib"));

    expect(await store.restore(1)).toEqual([file]);
    expect(await readFile(join(dir, "src", "a.txt"), "utf8")).toBe("original");
    expect(skipped).toEqual([]);
  });
});

describe("createSnapshotFiles behind the agent", () => {
  it("lets /undo put back the files of the last prompt that changed some", async () => {
    const existing = join(project(), "a.txt");
    const created = join(project(), "b.txt");
    await writeFile(existing, "before");
    const write = fakeTool({
      name: "write_file",
      kind: "write",
      inputSchema: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } }, required: ["path", "content"] },
      changes: (args) => [String(args.path)],
      run: async (args) => {
        await writeFile(String(args.path), String(args.content));
        return { text: "written", isError: false };
      },
    });
    const agent = createAgent({
      model: scriptedModel([
        () => reply(use("t1", "write_file", { path: existing, content: "after" }), use("t2", "write_file", { path: created, content: "new" })),
        () => reply(text("done")),
      ]),
      tools: [write],
      rules: [],
      system: "",
      approve: async () => "once",
      snapshots: createSnapshotFiles(project()),
      transcript: memoryTranscript(),
      emit: eventLog().emit,
    });
    await agent.prompt("write both", new AbortController().signal);
    expect([await readFile(existing, "utf8"), await readFile(created, "utf8")]).toEqual(["after", "new"]);
    expect(await agent.undo()).toEqual({ restored: [existing, created], notUndoable: [], nothingToUndo: false });
    expect({ existing: await readFile(existing, "utf8"), created: await exists(created) }).toEqual({ existing: "before", created: false });
  });
});
