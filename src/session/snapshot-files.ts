// The kernel's SnapshotStore on disk: before a turn first changes a file, a copy of it (or the fact that
// it did not exist) goes to `<project>/.mca/snapshots/<turn>/`; /undo puts it back.
import { chmod, copyFile, mkdir, rm, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { SnapshotStore } from "../kernel/index.js";

type Saved = { readonly kind: "file"; readonly copy: string; readonly mode: number } | { readonly kind: "absent" };

export function snapshotsDir(projectDir: string): string {
  return join(projectDir, ".mca", "snapshots");
}

/**
 * The index of what was saved lives in memory: undo covers the turns of this process only. A turn's
 * folder left behind by an earlier run is emptied the first time this store saves into that turn.
 * The kernel saves one path at a time (it awaits each save), which this store relies on.
 */
export function createSnapshotFiles(projectDir: string): SnapshotStore {
  const root = snapshotsDir(projectDir);
  const turns = new Map<number, Map<string, Saved>>();

  async function turnIndex(turn: number): Promise<Map<string, Saved>> {
    const existing = turns.get(turn);
    if (existing !== undefined) return existing;
    const dir = join(root, String(turn));
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const index = new Map<string, Saved>();
    turns.set(turn, index);
    return index;
  }

  return {
    async save(turn, path) {
      const target = resolve(path);
      const index = await turnIndex(turn);
      if (index.has(target)) return;
      const copy = join(root, String(turn), `${index.size}-${basename(target)}`);
      try {
        const { mode } = await stat(target);
        await copyFile(target, copy);
        index.set(target, { kind: "file", copy, mode });
      } catch (error) {
        if (!isMissing(error)) throw error;
        index.set(target, { kind: "absent" });
      }
    },

    async restore(turn) {
      const index = turns.get(turn);
      if (index === undefined) return [];
      for (const [target, saved] of index) {
        switch (saved.kind) {
          case "file":
            await mkdir(dirname(target), { recursive: true });
            await copyFile(saved.copy, target);
            await chmod(target, saved.mode);
            break;
          case "absent":
            // Folders the tool created for the file are left in place; only the file goes.
            await rm(target, { force: true });
            break;
          default: {
            const unknown: never = saved;
            throw new Error(`unknown snapshot ${JSON.stringify(unknown)}`);
          }
        }
      }
      turns.delete(turn);
      await rm(join(root, String(turn)), { recursive: true, force: true });
      return [...index.keys()];
    },
  };
}

/** The file (or a folder on its path) does not exist: there is nothing to copy, only an absence to restore. */
function isMissing(error: unknown): boolean {
  return error instanceof Error && "code" in error && (error.code === "ENOENT" || error.code === "ENOTDIR");
}
