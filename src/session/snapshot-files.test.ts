import { execFileSync } from "node:child_process";
import { mkdir, readFile, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAgent, type SnapshotStore, type TurnUndo } from "../kernel/index.js";
import { eventLog, fakeTool, memoryTranscript, reply, scriptedModel, text, use } from "../kernel/test-support/fakes.js";
import { createSnapshotFiles } from "./snapshot-files.js";
import { tempStatePerTest } from "./test-support/temp-state.js";
import { createTreeCheckpoints } from "./tree-checkpoint.js";

const state = tempStatePerTest("mca-snapshots-");
const project = (): string => state().projectDir;
const snapshotsDir = (): string => join(state().dir, "snapshots");

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

function undone(parts: Partial<TurnUndo>): TurnUndo {
  return { restored: [], removed: [], leftAlone: [], notUndoable: [], commandCheckpoint: null, ...parts };
}

/** One turn as the kernel runs it: each path saved before `change` writes, then the turn sealed. */
async function turn(store: SnapshotStore, number: number, paths: readonly string[], change: () => Promise<void>): Promise<void> {
  for (const path of paths) await store.save(number, path);
  await change();
  await store.seal(number);
}

const CHANGED_SINCE = "it changed after that turn (by a command, another session or by hand); undo keeps that newer work";

describe("createSnapshotFiles", () => {
  it("restores a changed file to its content before the turn's first change", async () => {
    const file = join(project(), "a.txt");
    await writeFile(file, "original");
    const store = createSnapshotFiles(state(), { folder: "s1" });
    await store.save(1, file);
    await writeFile(file, "first change");
    await store.save(1, file);
    await writeFile(file, "second change");
    await store.seal(1);
    expect(await store.undoLatest()).toEqual(undone({ restored: [file] }));
    expect(await readFile(file, "utf8")).toBe("original");
  });

  it("removes a file the turn created, and says removed", async () => {
    const file = join(project(), "new", "b.txt");
    const store = createSnapshotFiles(state(), { folder: "s1" });
    await turn(store, 1, [file], async () => {
      await mkdir(join(project(), "new"));
      await writeFile(file, "created");
    });
    expect(await store.undoLatest()).toEqual(undone({ removed: [file] }));
    expect(await exists(file)).toBe(false);
  });

  it("restores a file that was deleted, with its permissions", async () => {
    const file = join(project(), "run.sh");
    await writeFile(file, "#!/bin/sh\n", { mode: 0o755 });
    const store = createSnapshotFiles(state(), { folder: "s1" });
    await turn(store, 4, [file], () => rm(file));
    await store.undoLatest();
    expect({ text: await readFile(file, "utf8"), mode: (await stat(file)).mode & 0o777 }).toEqual({ text: "#!/bin/sh\n", mode: 0o755 });
  });

  it("keeps the copies and an index under <state folder>/snapshots/<session>/<turn>/, and removes them once undone", async () => {
    const file = join(project(), "a.txt");
    await writeFile(file, "x");
    const store = createSnapshotFiles(state(), { folder: "s1" });
    await turn(store, 2, [file], () => writeFile(file, "y"));
    expect((await readdir(join(snapshotsDir(), "s1", "2"))).sort()).toEqual(["0-a.txt", "index.json"]);
    await store.undoLatest();
    expect(await exists(join(snapshotsDir(), "s1", "2"))).toBe(false);
  });

  it("undoes the latest turn first, one turn at a time, then has nothing left", async () => {
    const a = join(project(), "a.txt");
    const b = join(project(), "b.txt");
    await writeFile(a, "a0");
    await writeFile(b, "b0");
    const store = createSnapshotFiles(state(), { folder: "s1" });
    await turn(store, 1, [a], () => writeFile(a, "a1"));
    await turn(store, 2, [b], () => writeFile(b, "b1"));
    expect(await store.undoLatest()).toEqual(undone({ restored: [b] }));
    expect([await readFile(a, "utf8"), await readFile(b, "utf8")]).toEqual(["a1", "b0"]);
    expect(await store.undoLatest()).toEqual(undone({ restored: [a] }));
    expect(await store.undoLatest()).toBeNull();
  });

  it("leaves alone a file that changed after the turn, says why, and still restores the turn's other files", async () => {
    const a = join(project(), "a.txt");
    const b = join(project(), "b.txt");
    await writeFile(a, "v0");
    await writeFile(b, "b0");
    const store = createSnapshotFiles(state(), { folder: "s1" });
    await turn(store, 1, [a, b], async () => {
      await writeFile(a, "v1");
      await writeFile(b, "b1");
    });
    // The next turn's command writes v2: nothing of it is in the snapshots.
    await store.note(2, { kind: "command", tool: "bash" });
    await writeFile(a, "v2");
    await store.seal(2);
    expect(await store.undoLatest()).toEqual(
      undone({ notUndoable: [{ kind: "command", tool: "bash" }], commandCheckpoint: { taken: false, why: "no checkpoints in this run" } }),
    );
    expect(await store.undoLatest()).toEqual(undone({ restored: [b], leftAlone: [{ path: a, reason: CHANGED_SINCE }] }));
    expect([await readFile(a, "utf8"), await readFile(b, "utf8")]).toEqual(["v2", "b0"]);
  });

  it("does not take back a file the turn created once something else deleted and re-created it differently", async () => {
    const file = join(project(), "made.txt");
    const store = createSnapshotFiles(state(), { folder: "s1" });
    await turn(store, 1, [file], () => writeFile(file, "by the turn"));
    await writeFile(file, "by hand");
    expect(await store.undoLatest()).toEqual(undone({ leftAlone: [{ path: file, reason: CHANGED_SINCE }] }));
    expect(await readFile(file, "utf8")).toBe("by hand");
  });

  it("leaves alone the files of a turn that never ended (mca stopped during it)", async () => {
    const file = join(project(), "a.txt");
    await writeFile(file, "v0");
    await createSnapshotFiles(state(), { folder: "s1" }).save(1, file);
    await writeFile(file, "v1");
    const afterCrash = createSnapshotFiles(state(), { folder: "s1" });
    expect(await afterCrash.undoLatest()).toEqual(
      undone({ leftAlone: [{ path: file, reason: "mca stopped before that turn ended, so what the turn left in it is unknown" }] }),
    );
    expect(await readFile(file, "utf8")).toBe("v1");
  });

  it("keeps each session's turns apart: one session's undo never touches another's files", async () => {
    const a = join(project(), "a.txt");
    await writeFile(a, "v0");
    const first = createSnapshotFiles(state(), { folder: "session-a" });
    const second = createSnapshotFiles(state(), { folder: "session-b" });
    await turn(first, 1, [a], () => writeFile(a, "v1"));
    const b = join(project(), "b.txt");
    await turn(second, 1, [b], () => writeFile(b, "by b"));
    expect(await first.undoLatest()).toEqual(undone({ restored: [a] }));
    expect([await readFile(a, "utf8"), await readFile(b, "utf8")]).toEqual(["v0", "by b"]);
  });

  it("finds the turns of an earlier process in its folder (a resumed session), and numbers its own after them", async () => {
    const a = join(project(), "a.txt");
    const b = join(project(), "b.txt");
    await writeFile(a, "a0");
    await turn(createSnapshotFiles(state(), { folder: "s1" }), 1, [a], () => writeFile(a, "a1"));
    const resumed = createSnapshotFiles(state(), { folder: "s1" });
    await turn(resumed, 1, [b], () => writeFile(b, "b1"));
    expect(await readdir(join(snapshotsDir(), "s1"))).toEqual(["1", "2"]);
    expect(await resumed.undoLatest()).toEqual(undone({ removed: [b] }));
    expect(await resumed.undoLatest()).toEqual(undone({ restored: [a] }));
    expect(await readFile(a, "utf8")).toBe("a0");
  });

  it("never restores a copy left in a turn's folder by an earlier run without its index", async () => {
    const stale = join(snapshotsDir(), "s1", "1");
    await mkdir(stale, { recursive: true });
    await writeFile(join(stale, "0-a.txt"), "stale");
    const file = join(project(), "a.txt");
    await writeFile(file, "fresh");
    const store = createSnapshotFiles(state(), { folder: "s1" });
    await turn(store, 1, [file], () => writeFile(file, "changed"));
    expect(await store.undoLatest()).toEqual(undone({ restored: [file] }));
    expect(await readFile(file, "utf8")).toBe("fresh");
    expect(await store.undoLatest()).toBeNull();
  });
});

describe("createSnapshotFiles with checkpoints of the tree around commands", () => {
  const withCheckpoints = () => createSnapshotFiles(state(), { folder: "s1", checkpoints: createTreeCheckpoints(state(), "s1", process.env) });

  it("undoes what a command changed: a changed file restored, a created one removed", async () => {
    const a = join(project(), "a.txt");
    const made = join(project(), "made.txt");
    await writeFile(a, "v0");
    const store = withCheckpoints();
    await store.note(1, { kind: "command", tool: "bash" });
    await writeFile(a, "by the command");
    await writeFile(made, "new");
    await store.seal(1);
    expect(await store.undoLatest()).toEqual(
      undone({ restored: [a], removed: [made], notUndoable: [{ kind: "command", tool: "bash" }], commandCheckpoint: { taken: true } }),
    );
    expect([await readFile(a, "utf8"), await exists(made)]).toEqual(["v0", false]);
  });

  it("puts back the turn's first version of a file a command changed before write_file did", async () => {
    const a = join(project(), "a.txt");
    await writeFile(a, "v0");
    const store = withCheckpoints();
    await store.note(1, { kind: "command", tool: "bash" });
    await writeFile(a, "by the command");
    await store.save(1, a);
    await writeFile(a, "by write_file");
    await store.seal(1);
    expect((await store.undoLatest())?.restored).toEqual([a]);
    expect(await readFile(a, "utf8")).toBe("v0");
  });

  it("leaves alone a file a command changed if it changed again after the turn", async () => {
    const a = join(project(), "a.txt");
    await writeFile(a, "v0");
    const store = withCheckpoints();
    await store.note(1, { kind: "command", tool: "bash" });
    await writeFile(a, "by the command");
    await store.seal(1);
    await writeFile(a, "by hand");
    expect((await store.undoLatest())?.leftAlone).toEqual([{ path: a, reason: CHANGED_SINCE }]);
    expect(await readFile(a, "utf8")).toBe("by hand");
  });
});

describe("createSnapshotFiles' copies", () => {
  it("are readable by the user only, in folders that are the user's only, and nothing is written in the project", async () => {
    const file = join(project(), "a.txt");
    await writeFile(file, "x", { mode: 0o644 });
    await createSnapshotFiles(state(), { folder: "s1" }).save(1, file);
    const mode = async (path: string): Promise<number> => (await stat(path)).mode & 0o777;
    expect({
      copy: await mode(join(snapshotsDir(), "s1", "1", "0-a.txt")),
      index: await mode(join(snapshotsDir(), "s1", "1", "index.json")),
      turn: await mode(join(snapshotsDir(), "s1", "1")),
      snapshots: await mode(snapshotsDir()),
      state: await mode(state().dir),
      project: await readdir(project()),
    }).toEqual({ copy: 0o600, index: 0o600, turn: 0o700, snapshots: 0o700, state: 0o700, project: ["a.txt"] });
  });
});

describe("createSnapshotFiles and files that are not regular files", () => {
  it("refuses to save a named pipe, with a reason, instead of waiting for a writer for ever", async () => {
    const fifo = join(project(), "pipe");
    execFileSync("mkfifo", [fifo]);
    await expect(createSnapshotFiles(state(), { folder: "s1" }).save(1, fifo)).rejects.toThrow("not a regular file (a pipe, socket or device)");
  });

  it("leaves alone, with a reason, a file that became a named pipe after the turn", async () => {
    const file = join(project(), "a.txt");
    await writeFile(file, "original");
    const store = createSnapshotFiles(state(), { folder: "s1" });
    await turn(store, 1, [file], () => writeFile(file, "changed"));
    await rm(file);
    execFileSync("mkfifo", [file]);
    expect(await store.undoLatest()).toEqual(undone({ leftAlone: [{ path: file, reason: "it is no longer a regular file (a pipe, socket or device is there now)" }] }));
    expect((await stat(file)).isFIFO()).toBe(true);
  });

  it("seals a turn whose file became a named pipe without blocking", async () => {
    const file = join(project(), "a.txt");
    await writeFile(file, "original");
    const store = createSnapshotFiles(state(), { folder: "s1" });
    await store.save(1, file);
    await rm(file);
    execFileSync("mkfifo", [file]);
    await store.seal(1);
    expect((await store.undoLatest())?.leftAlone).toEqual([{ path: file, reason: "it is no longer a regular file (a pipe, socket or device is there now)" }]);
  });
});

describe("createSnapshotFiles' undo, where a path now leads elsewhere", () => {
  /** The project is a folder of the test's temporary folder; `outside` is its sibling, beyond the project. */
  const layout = async () => {
    const dir = join(project(), "repo");
    const outside = join(project(), "outside");
    await mkdir(join(dir, "src"), { recursive: true });
    await mkdir(outside);
    return { dir, outside, store: createSnapshotFiles({ projectDir: dir, dir: state().dir }, { folder: "s1" }) };
  };

  it("does not write through a folder that became a symlink out of the project, and says which file it left and why", async () => {
    const { dir, outside, store } = await layout();
    const file = join(dir, "src", "hook");
    await writeFile(file, "original");
    await turn(store, 1, [file], async () => {
      await rm(join(dir, "src"), { recursive: true });
      await symlink(outside, join(dir, "src"));
    });
    expect(await store.undoLatest()).toEqual(undone({ leftAlone: [{ path: file, reason: `it now leads outside the project (to ${join(outside, "hook")})` }] }));
    expect(await readdir(outside)).toEqual([]);
  });

  it("does not delete a file outside the project when undoing the creation of a file whose folder became such a symlink", async () => {
    const { dir, outside, store } = await layout();
    const file = join(dir, "src", "new.txt");
    await turn(store, 1, [file], async () => {
      await writeFile(join(outside, "new.txt"), "not the project's");
      await rm(join(dir, "src"), { recursive: true });
      await symlink(outside, join(dir, "src"));
    });
    const report = await store.undoLatest();
    expect([report?.removed, report?.leftAlone.length]).toEqual([[], 1]);
    expect(await readFile(join(outside, "new.txt"), "utf8")).toBe("not the project's");
  });

  it("does not create the missing target of a file that became a dangling symlink", async () => {
    const { dir, outside, store } = await layout();
    const file = join(dir, "a.txt");
    await writeFile(file, "original");
    await turn(store, 1, [file], async () => {
      await rm(file);
      await symlink(join(outside, "planted"), file);
    });
    expect(await store.undoLatest()).toEqual(undone({ leftAlone: [{ path: file, reason: "it is now a symlink to a place that does not exist" }] }));
    expect(await readdir(outside)).toEqual([]);
  });

  it("restores through a symlink that stays inside the project", async () => {
    const { dir, store } = await layout();
    const file = join(dir, "lib", "a.txt");
    await mkdir(join(dir, "lib"));
    await writeFile(file, "original");
    await turn(store, 1, [file], async () => {
      await rm(join(dir, "lib"), { recursive: true });
      await symlink(join(dir, "src"), join(dir, "lib"));
    });
    expect(await store.undoLatest()).toEqual(undone({ restored: [file] }));
    expect(await readFile(join(dir, "src", "a.txt"), "utf8")).toBe("original");
  });
});

describe("createSnapshotFiles behind the agent", () => {
  it("lets /undo put back the files of the last prompt that changed some: one restored, one removed", async () => {
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
      snapshots: createSnapshotFiles(state(), { folder: "s1" }),
      transcript: memoryTranscript(),
      emit: eventLog().emit,
    });
    await agent.prompt("write both", new AbortController().signal);
    expect([await readFile(existing, "utf8"), await readFile(created, "utf8")]).toEqual(["after", "new"]);
    expect(await agent.undo()).toEqual({ nothingToUndo: false, restored: [existing], removed: [created], leftAlone: [], notUndoable: [], commandCheckpoint: null });
    expect({ existing: await readFile(existing, "utf8"), created: await exists(created) }).toEqual({ existing: "before", created: false });
  });
});
