import { mkdir, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
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
