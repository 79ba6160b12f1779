// Checkpoints of the project's working tree, so /undo can take back what a turn's commands changed: a
// shadow git repository in mca's state folder (`checkpoints.git`), outside the user's own git history,
// that records the tree (as git sees it: .gitignore honoured, `.git` and `.mca/` left out) as a tree
// object, one index per session. The first checkpoint hashes every file; later ones hash only what changed.
//
// The repository is mca's own: made by mca (a marker written before it is moved into place), never one
// found there, and git runs on it with no configuration but its own — no system or user config, no
// attributes file, no hooks or fsmonitor — so a filter, hook or pager that a project's `.gitattributes`
// names has nothing to run.
import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { copyFile, lstat, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { isAbsolute, join, relative } from "node:path";
import { describeError } from "../kernel/index.js";
import { ensureStateFolder, type ProjectState } from "./state-folder.js";

/** A file bigger than this makes the checkpoint give up: copying it into the state folder on every turn would cost too much. */
export const MAX_CHECKPOINT_FILE_BYTES = 20 * 1024 * 1024;
/** Each git command gets this long; a tree that takes longer has no checkpoint. */
const GIT_TIMEOUT_MS = 20_000;
/** What one git command may print (the file list of a large tree): past it the checkpoint gives up. */
const GIT_OUTPUT_MAX_BYTES = 64 * 1024 * 1024;
/** Sizes are read this many files at a time: the first checkpoint of a large tree lists every file. */
const STAT_BATCH = 256;
/** Written into the repository by mca when it makes it, naming the project: a repository without it is not mca's. */
const MARKER_FILE = "mca-checkpoints.json";

/**
 * Settings given on every git command, above the repository's own: nothing git could run on its own
 * account (hooks, fsmonitor, a pager) and no attributes file outside the tree.
 */
const GIT_SETTINGS = ["core.hooksPath=/dev/null", "core.fsmonitor=false", "core.attributesFile=/dev/null", "core.pager=cat", "core.autocrlf=false", "core.symlinks=true"];

export interface TreeChange {
  readonly path: string;
  /** Whether the file existed in the earlier tree (false: the later tree added it). */
  readonly existedBefore: boolean;
}

export interface TreeCheckpoints {
  /** The tree as it is now, by its git id; an Error says why there is none (no git, a file too big, …). */
  take(): Promise<string | Error>;
  /** The files (absolute paths) that differ between two trees taken here. */
  changes(from: string, to: string): Promise<TreeChange[]>;
  /** Writes `path` back as it was in `tree`: its content and its executable bit. */
  restoreFile(tree: string, path: string): Promise<void>;
}

/**
 * Checkpoints of `state.projectDir`, kept in its state folder; `session` names this session's index.
 * Of `env` only PATH is used, and only its absolute folders (a relative one would find a `git` planted in
 * the project): the user's git configuration, whichever variable names it, is never read.
 */
export function createTreeCheckpoints(state: ProjectState, session: string, env: Readonly<Record<string, string | undefined>>): TreeCheckpoints {
  const projectDir = state.projectDir;
  const gitDir = join(state.dir, "checkpoints.git");
  const path = (env.PATH ?? "").split(":").filter((folder) => isAbsolute(folder)).join(":");
  const bareEnv = { PATH: path, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_ATTR_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0" };
  const treeEnv = { ...bareEnv, GIT_DIR: gitDir, GIT_WORK_TREE: projectDir, GIT_INDEX_FILE: join(gitDir, `index-${session}`) };
  const git = (args: readonly string[], gitEnv: Readonly<Record<string, string>> = treeEnv): Promise<string> =>
    new Promise((resolve, reject) => {
      const settings = GIT_SETTINGS.flatMap((setting) => ["-c", setting]);
      execFile("git", [...settings, ...args], { cwd: projectDir, env: gitEnv, timeout: GIT_TIMEOUT_MS, maxBuffer: GIT_OUTPUT_MAX_BYTES, encoding: "utf8" }, (error, stdout, stderr) => {
        if (error === null) resolve(stdout);
        else reject(new Error(stderr.trim() === "" ? error.message : stderr.trim()));
      });
    });
  const marker = JSON.stringify({ project: projectDir });
  let ready: Promise<void> | undefined;
  const setUp = async (): Promise<void> => {
    ensureStateFolder(state);
    if (!(await isOurs(gitDir, marker))) {
      if (await exists(gitDir)) throw new Error(`${gitDir} was not made by mca for this project, so it is not used (delete it and mca makes its own)`);
      // Made beside its place and moved there whole with its marker: a repository without one is never mca's half-made one.
      const fresh = `${gitDir}.new-${process.pid}-${session}`;
      await rm(fresh, { recursive: true, force: true });
      // Bare (git refuses a work tree for `init --bare`); every later command names the tree. Shared as
      // 0600: every file git writes there is the user's only, as the copies of the project's files are.
      await git(["init", "--quiet", "--bare", "--shared=0600", fresh], bareEnv);
      await writeFile(join(fresh, "info", "exclude"), "/.mca/\n");
      await writeFile(join(fresh, MARKER_FILE), marker, { mode: 0o600 });
      await rename(fresh, gitDir).catch(async (error: unknown) => {
        // Another session of the project made it first: theirs is as good, when it is ours.
        await rm(fresh, { recursive: true, force: true });
        if (!(await isOurs(gitDir, marker))) throw error;
      });
    }
    // A new session starts from the newest index of an earlier one: git then hashes only the files whose
    // size or time changed since, instead of every file of the project again.
    const earlier = await newestIndex(gitDir);
    if (earlier !== undefined && earlier !== treeEnv.GIT_INDEX_FILE) await copyFile(earlier, treeEnv.GIT_INDEX_FILE, constants.COPYFILE_EXCL).catch(() => undefined);
  };
  const absolute = (path: string): string => join(projectDir, path);

  return {
    async take() {
      try {
        ready ??= setUp();
        await ready;
        // What `add` would hash: new and changed files. One too big ends the attempt before anything is copied.
        const pending = (await git(["ls-files", "-z", "--others", "--modified", "--exclude-standard"])).split("\0").filter((path) => path !== "");
        for (let start = 0; start < pending.length; start += STAT_BATCH) {
          const batch = pending.slice(start, start + STAT_BATCH);
          const sizes = await Promise.all(batch.map((path) => stat(absolute(path)).then((stats) => (stats.isFile() ? stats.size : 0), () => 0)));
          const big = batch.find((_path, index) => (sizes[index] ?? 0) > MAX_CHECKPOINT_FILE_BYTES);
          if (big !== undefined) return new Error(`${big} is over ${MAX_CHECKPOINT_FILE_BYTES / 1024 / 1024} MB`);
        }
        await git(["add", "--all", "--", "."]);
        return (await git(["write-tree"])).trim();
      } catch (error) {
        return new Error(describeError(error));
      }
    },

    async changes(from, to) {
      const listed = (await git(["diff-tree", "-r", "-z", "--no-renames", "--name-status", from, to])).split("\0");
      const found: TreeChange[] = [];
      for (let index = 0; index + 1 < listed.length; index += 2) {
        const [status, path] = [listed[index], listed[index + 1]];
        if (status === undefined || path === undefined || path === "") continue;
        found.push({ path: absolute(path), existedBefore: status !== "A" });
      }
      return found;
    },

    async restoreFile(tree, path) {
      const inside = relative(projectDir, path);
      if (inside.startsWith("..") || isAbsolute(inside)) throw new Error(`${path} is outside the project`);
      await git(["checkout", tree, "--", inside]);
    },
  };
}

/** Whether `gitDir` is a real folder (not a symlink) holding mca's marker for this project. */
async function isOurs(gitDir: string, marker: string): Promise<boolean> {
  try {
    if (!(await lstat(gitDir)).isDirectory() || !(await lstat(join(gitDir, MARKER_FILE))).isFile()) return false;
    return (await readFile(join(gitDir, MARKER_FILE), "utf8")) === marker;
  } catch {
    return false;
  }
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

async function newestIndex(gitDir: string): Promise<string | undefined> {
  const names = (await readdir(gitDir)).filter((name) => name.startsWith("index-"));
  const dated = await Promise.all(names.map(async (name) => ({ path: join(gitDir, name), modified: (await stat(join(gitDir, name))).mtimeMs })));
  return dated.sort((a, b) => b.modified - a.modified).at(0)?.path;
}
