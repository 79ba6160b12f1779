// The kernel's SnapshotStore on disk, per session: before a turn first changes a file, a copy of it (or
// the fact that it did not exist) goes to `<state folder>/snapshots/<session>/<turn>/`, with an index.json
// that also holds, once the turn ends, a hash of what it left in each file, and the commands and remote
// calls it ran. Before a turn's first command and when it ends, the project's tree is checkpointed
// (tree-checkpoint.ts), so what commands changed can be undone too. /undo reads all this back (after
// --resume too) and restores a file only where it still holds what the turn left, and where the path
// still really leads inside the project. Only regular files are copied, hashed or written back: a named
// pipe, socket or device in their place is refused with a reason instead of blocking for ever.
import { createHash } from "node:crypto";
import { chmod, copyFile, lstat, mkdir, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { isRecord, type NotUndoable, type SnapshotStore, type TurnUndo } from "../kernel/index.js";
import { NOT_A_REGULAR_FILE, openRegularFile } from "../tools/index.js";
import { ensureStateFolder, PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE, type ProjectState } from "./state-folder.js";
import type { TreeChange, TreeCheckpoints } from "./tree-checkpoint.js";

/** One saved file: its copy's name in the turn's folder and its mode, or null for a file the turn created. */
interface SavedFile {
  readonly path: string;
  readonly copy: string | null;
  readonly mode: number;
  /** SHA-256 of what the turn left in it, null when the turn left no file there; absent until the turn ends. */
  readonly left?: string | null;
}

interface TurnRecord {
  readonly files: readonly SavedFile[];
  readonly notUndoable: readonly NotUndoable[];
  readonly sealed: boolean;
  /** The project's tree before the turn's first command, and how many files were saved by then (their copies are older). */
  readonly treeBefore?: string;
  readonly savedBeforeTree?: number;
  /** The tree when the turn ended. */
  readonly treeAfter?: string;
  /** Why there is no checkpoint around the turn's commands. */
  readonly treeProblem?: string;
}

const INDEX_FILE = "index.json";
const CHANGED_SINCE_REASON = "it changed after that turn (by a command, another session or by hand); undo keeps that newer work";
const EMPTY_TURN: TurnRecord = { files: [], notUndoable: [], sealed: false };

export interface SnapshotFilesOptions {
  /**
   * The folder under the state folder's `snapshots/` of this session's turns: its id, or for a resumed session the
   * folder of the session it resumed, so /undo reaches the turns before the resume.
   */
  readonly folder?: string;
  /** Checkpoints of the project's tree around a turn's commands; without them, what commands change is not undone. */
  readonly checkpoints?: TreeCheckpoints;
}

/**
 * Turns are numbered by the kernel from 1 in each process; in the folder they follow the turns already
 * there (a resumed session's). The kernel saves one path at a time (it awaits each save), which this
 * store relies on.
 */
export function createSnapshotFiles(state: ProjectState, options: SnapshotFilesOptions = {}): SnapshotStore {
  const projectDir = state.projectDir;
  const root = join(state.dir, "snapshots", options.folder ?? "default");
  let firstTurn: Promise<number> | undefined;
  const folderOf = async (turn: number): Promise<string> => {
    firstTurn ??= turnNumbers(root).then((numbers) => Math.max(0, ...numbers));
    return join(root, String((await firstTurn) + turn));
  };

  async function update(turn: number, change: (record: TurnRecord, dir: string) => Promise<TurnRecord>): Promise<void> {
    const dir = await folderOf(turn);
    const before = (await readRecord(dir)) ?? EMPTY_TURN;
    if (before === EMPTY_TURN) {
      ensureStateFolder(state, "snapshots");
      // A folder left by an earlier run under this number holds nothing of this turn.
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    }
    const after = await change(before, dir);
    if (after !== before) await writeFile(join(dir, INDEX_FILE), JSON.stringify(after), { mode: PRIVATE_FILE_MODE });
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

  async function undoFile(dir: string, saved: SavedFile, sealed: boolean): Promise<{ readonly outcome: "restored" | "removed" } | { readonly reason: string }> {
    const outside = await outsideReason(saved.path);
    if (outside !== undefined) return { reason: outside };
    if (!sealed || saved.left === undefined) return { reason: "mca stopped before that turn ended, so what the turn left in it is unknown" };
    const now = await contentHash(saved.path);
    if (now === NOT_REGULAR) return { reason: NOT_REGULAR_REASON };
    if (now !== saved.left) return { reason: CHANGED_SINCE_REASON };
    if (saved.copy === null) {
      // Folders the tool created for the file are left in place; only the file goes.
      await rm(saved.path, { force: true });
      return { outcome: "removed" };
    }
    await mkdir(dirname(saved.path), { recursive: true });
    await copyFile(join(dir, saved.copy), saved.path);
    await chmod(saved.path, saved.mode);
    return { outcome: "restored" };
  }

  /** What the turn's commands changed in the tree, and which of those files changed again since. */
  async function commandChanges(record: TurnRecord): Promise<{ changes: TreeChange[]; changedSince: Set<string>; checkpoint: TurnUndo["commandCheckpoint"] }> {
    const none = (checkpoint: TurnUndo["commandCheckpoint"]) => ({ changes: [], changedSince: new Set<string>(), checkpoint });
    if (!record.notUndoable.some((what) => what.kind === "command")) return none(null);
    const { treeBefore, treeAfter } = record;
    if (treeBefore === undefined || treeAfter === undefined || options.checkpoints === undefined) {
      return none({ taken: false, why: record.treeProblem ?? "mca stopped before that turn ended" });
    }
    const now = await options.checkpoints.take();
    if (now instanceof Error) return none({ taken: false, why: `the tree cannot be read now (${now.message})` });
    const changedSince = new Set((await options.checkpoints.changes(treeAfter, now)).map((change) => change.path));
    return { changes: await options.checkpoints.changes(treeBefore, treeAfter), changedSince, checkpoint: { taken: true } };
  }

  async function undoTreeChange(record: TurnRecord, change: TreeChange, changedSince: ReadonlySet<string>): Promise<Awaited<ReturnType<typeof undoFile>>> {
    const outside = await outsideReason(change.path);
    if (outside !== undefined) return { reason: outside };
    if (changedSince.has(change.path)) return { reason: CHANGED_SINCE_REASON };
    if (!change.existedBefore) {
      await rm(change.path, { force: true });
      return { outcome: "removed" };
    }
    if (record.treeBefore === undefined || options.checkpoints === undefined) return { reason: "no checkpoint holds it" };
    await options.checkpoints.restoreFile(record.treeBefore, change.path);
    return { outcome: "restored" };
  }

  return {
    async save(turn, path) {
      const target = resolve(path);
      await update(turn, async (record, dir) => {
        if (record.files.some((file) => file.path === target)) return record;
        const copy = `${record.files.length}-${basename(target)}`;
        let saved: SavedFile;
        let file;
        try {
          file = await openRegularFile(target, "read");
        } catch (error) {
          if (!isMissing(error)) throw error;
          file = null;
        }
        if (file === null) saved = { path: target, copy: null, mode: 0 };
        else {
          try {
            const { mode } = await file.stat();
            // Copied from the file that was checked, the user's only whatever the original's mode.
            await writeFile(join(dir, copy), file.createReadStream({ autoClose: false }), { mode: PRIVATE_FILE_MODE, flag: "wx" });
            saved = { path: target, copy, mode };
          } finally {
            await file.close();
          }
        }
        return { ...record, files: [...record.files, saved] };
      });
    },

    async note(turn, what) {
      await update(turn, async (record) => {
        const noted = record.notUndoable.some((known) => known.kind === what.kind && known.tool === what.tool)
          ? record
          : { ...record, notUndoable: [...record.notUndoable, { kind: what.kind, tool: what.tool }] };
        if (what.kind !== "command" || record.treeBefore !== undefined || record.treeProblem !== undefined) return noted;
        const tree = options.checkpoints === undefined ? new Error("no checkpoints in this run") : await options.checkpoints.take();
        return tree instanceof Error ? { ...noted, treeProblem: tree.message } : { ...noted, treeBefore: tree, savedBeforeTree: record.files.length };
      });
    },

    async seal(turn) {
      const dir = await folderOf(turn);
      const record = await readRecord(dir);
      if (record === null) return;
      const files = await Promise.all(record.files.map(async (file) => ({ ...file, left: await contentHash(file.path) })));
      let tree: Partial<TurnRecord> = {};
      if (record.treeBefore !== undefined && options.checkpoints !== undefined) {
        const after = await options.checkpoints.take();
        tree = after instanceof Error ? { treeProblem: `the tree could not be read when the turn ended (${after.message})` } : { treeAfter: after };
      }
      await writeFile(join(dir, INDEX_FILE), JSON.stringify({ ...record, ...tree, files, sealed: true }), { mode: PRIVATE_FILE_MODE });
    },

    async undoLatest() {
      for (const number of (await turnNumbers(root)).sort((a, b) => b - a)) {
        const dir = join(root, String(number));
        const record = await readRecord(dir);
        if (record === null || (record.files.length === 0 && record.notUndoable.length === 0)) {
          await rm(dir, { recursive: true, force: true });
          continue;
        }
        const undone: { restored: string[]; removed: string[]; leftAlone: Array<{ path: string; reason: string }> } = { restored: [], removed: [], leftAlone: [] };
        const note = (path: string, result: Awaited<ReturnType<typeof undoFile>>): void => {
          if ("reason" in result) undone.leftAlone.push({ path, reason: result.reason });
          else undone[result.outcome].push(path);
        };
        const commands = await commandChanges(record);
        // A file saved before the checkpoint has the older copy; one saved after it, the checkpoint has.
        const savedEarlier = new Set(record.files.slice(0, record.savedBeforeTree ?? record.files.length).map((file) => file.path));
        const byTree = new Set(commands.changes.filter((change) => !savedEarlier.has(change.path)).map((change) => change.path));
        for (const saved of record.files) if (!byTree.has(saved.path)) note(saved.path, await undoFile(dir, saved, record.sealed));
        for (const change of commands.changes) if (byTree.has(change.path)) note(change.path, await undoTreeChange(record, change, commands.changedSince));
        await rm(dir, { recursive: true, force: true });
        const report: TurnUndo = { ...undone, notUndoable: record.notUndoable, commandCheckpoint: commands.checkpoint };
        return report;
      }
      return null;
    },
  };
}

/** The numbers of the turn folders under `root`, in no order; none when it does not exist yet. */
async function turnNumbers(root: string): Promise<number[]> {
  const names = await readdir(root).catch((error: unknown) => {
    if (isMissing(error)) return [];
    throw error;
  });
  return names.filter((name) => /^[1-9][0-9]*$/.test(name)).map(Number);
}

/** What contentHash gives for a pipe, socket or device: never the hash of what a turn left. */
const NOT_REGULAR = "not a regular file";
const NOT_REGULAR_REASON = "it is no longer a regular file (a pipe, socket or device is there now)";

/** SHA-256 of the file's bytes, null when there is no file, NOT_REGULAR for one that is not a regular file. */
async function contentHash(path: string): Promise<string | null> {
  let file;
  try {
    file = await openRegularFile(path, "read");
  } catch (error) {
    if (isMissing(error) || (error instanceof Error && "code" in error && error.code === "EISDIR")) return null;
    if (error instanceof Error && error.message === NOT_A_REGULAR_FILE) return NOT_REGULAR;
    throw error;
  }
  try {
    return createHash("sha256").update(await file.readFile()).digest("hex");
  } finally {
    await file.close();
  }
}

/** A turn's index as written by this store, or null when it is missing or not one (a file is data: it is checked). */
async function readRecord(dir: string): Promise<TurnRecord | null> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(join(dir, INDEX_FILE), "utf8"));
  } catch {
    return null;
  }
  if (!isRecord(value) || !Array.isArray(value.files) || !Array.isArray(value.notUndoable) || typeof value.sealed !== "boolean") return null;
  const files: SavedFile[] = [];
  for (const file of value.files) {
    if (!isRecord(file) || typeof file.path !== "string" || !isAbsolute(file.path) || typeof file.mode !== "number") return null;
    const copy = file.copy === null ? null : typeof file.copy === "string" && basename(file.copy) === file.copy ? file.copy : undefined;
    if (copy === undefined) return null;
    const left = file.left === undefined || file.left === null || typeof file.left === "string" ? file.left : false;
    if (left === false) return null;
    files.push({ path: file.path, copy, mode: file.mode, ...(left === undefined ? {} : { left }) });
  }
  const notUndoable: NotUndoable[] = [];
  for (const item of value.notUndoable) {
    if (!isRecord(item) || (item.kind !== "command" && item.kind !== "remote") || typeof item.tool !== "string") return null;
    notUndoable.push({ kind: item.kind, tool: item.tool });
  }
  const { treeBefore, treeAfter, treeProblem, savedBeforeTree } = value;
  return {
    files,
    notUndoable,
    sealed: value.sealed,
    ...(typeof treeBefore === "string" ? { treeBefore } : {}),
    ...(typeof treeAfter === "string" ? { treeAfter } : {}),
    ...(typeof treeProblem === "string" ? { treeProblem } : {}),
    ...(typeof savedBeforeTree === "number" ? { savedBeforeTree } : {}),
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
