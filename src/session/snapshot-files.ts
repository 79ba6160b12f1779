// The kernel's SnapshotStore on disk: before a turn first changes a file, a copy of it (or the fact that
// it did not exist) goes to `<project>/.mca/snapshots/<turn>/`, readable by the user only; /undo puts it
// back — but only where the path still really leads inside the project.
import { chmod, copyFile, lstat, mkdir, realpath, rm, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { SnapshotStore } from "../kernel/index.js";
import { ensureMcaFolder, mcaFolder, PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from "./mca-folder.js";

type Saved = { readonly kind: "file"; readonly copy: string; readonly mode: number } | { readonly kind: "absent" };

export function snapshotsDir(projectDir: string): string {
  return join(mcaFolder(projectDir), "snapshots");
}

export interface SnapshotFilesOptions {
  /**
   * Told of each path /undo does not write: since the snapshot, the path (or a folder on it) became a
   * symlink that leads outside the project, or the project itself is gone.
   */
  readonly onSkipped?: (path: string, reason: string) => void;
}

/**
 * The index of what was saved lives in memory: undo covers the turns of this process only. A turn's
 * folder left behind by an earlier run is emptied the first time this store saves into that turn.
 * The kernel saves one path at a time (it awaits each save), which this store relies on.
 */
export function createSnapshotFiles(projectDir: string, options: SnapshotFilesOptions = {}): SnapshotStore {
  const root = snapshotsDir(projectDir);
  const turns = new Map<number, Map<string, Saved>>();

  async function turnIndex(turn: number): Promise<Map<string, Saved>> {
    const existing = turns.get(turn);
    if (existing !== undefined) return existing;
    ensureMcaFolder(projectDir, "snapshots");
    const dir = join(root, String(turn));
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    const index = new Map<string, Saved>();
    turns.set(turn, index);
    return index;
  }

  /** The reason not to write `target` now, or undefined when its real location is inside the project. */
  async function outsideReason(target: string): Promise<string | undefined> {
    const project = await realpath(projectDir).catch(() => undefined);
    if (project === undefined) return "the project folder is gone";
    const real = await realLocation(target);
    if (real === DANGLING) return "it is now a symlink to a place that does not exist";
    const inside = relative(project, real);
    if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) return `it now leads outside the project (to ${real})`;
    return undefined;
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
        // copyFile gives the copy the file's own mode; a copy of the project's files is the user's only.
        await chmod(copy, PRIVATE_FILE_MODE);
        index.set(target, { kind: "file", copy, mode });
      } catch (error) {
        if (!isMissing(error)) throw error;
        index.set(target, { kind: "absent" });
      }
    },

    async restore(turn) {
      const index = turns.get(turn);
      if (index === undefined) return [];
      const restored: string[] = [];
      for (const [target, saved] of index) {
        const skip = await outsideReason(target);
        if (skip !== undefined) {
          options.onSkipped?.(target, skip);
          continue;
        }
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
        restored.push(target);
      }
      turns.delete(turn);
      await rm(join(root, String(turn)), { recursive: true, force: true });
      return restored;
    },
  };
}

const DANGLING = Symbol("dangling symlink");

/**
 * Where `path` really is: symlinks resolved all the way, for a path that does not exist through its
 * deepest existing folder (a file a turn created may be gone, a folder on its path too). A symlink whose
 * target is missing is DANGLING: writing through it would create its target, wherever that is.
 */
async function realLocation(path: string): Promise<string | typeof DANGLING> {
  const missing: string[] = [];
  let existing = path;
  for (;;) {
    try {
      return join(await realpath(existing), ...missing.reverse());
    } catch (error) {
      if (!isMissing(error) || dirname(existing) === existing) throw error;
      if (await isSymlink(existing)) return DANGLING;
      missing.push(basename(existing));
      existing = dirname(existing);
    }
  }
}

async function isSymlink(path: string): Promise<boolean> {
  return lstat(path).then(
    (stats) => stats.isSymbolicLink(),
    () => false,
  );
}

/** The file (or a folder on its path) does not exist: there is nothing to copy, only an absence to restore. */
function isMissing(error: unknown): boolean {
  return error instanceof Error && "code" in error && (error.code === "ENOENT" || error.code === "ENOTDIR");
}
