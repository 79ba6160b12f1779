// Checkpoints of the project's working tree, so /undo can take back what a turn's commands changed: a
// shadow git repository in `.mca/checkpoints.git`, outside the user's own git history, that records the
// tree (as git sees it: .gitignore honoured, `.git` and `.mca/` left out) as a tree object, one index per
// session. The first checkpoint hashes every file; later ones hash only what changed since.
import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { copyFile, readdir, stat, writeFile } from "node:fs/promises";
import { isAbsolute, join, relative } from "node:path";
import { ensureMcaFolder, mcaFolder } from "./mca-folder.js";

/** A file bigger than this makes the checkpoint give up: copying it into `.mca/` on every turn would cost too much. */
export const MAX_CHECKPOINT_FILE_BYTES = 20 * 1024 * 1024;
/** Each git command gets this long; a tree that takes longer has no checkpoint. */
const GIT_TIMEOUT_MS = 20_000;
/** Sizes are read this many files at a time: the first checkpoint of a large tree lists every file. */
const STAT_BATCH = 256;

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

export function createTreeCheckpoints(projectDir: string, session: string): TreeCheckpoints {
  const gitDir = join(mcaFolder(projectDir), "checkpoints.git");
  // No system or user config: no hooks, filters or fsmonitor of theirs run on the project's files.
  const env = {
    PATH: process.env.PATH ?? "",
    GIT_DIR: gitDir,
    GIT_WORK_TREE: projectDir,
    GIT_INDEX_FILE: join(gitDir, `index-${session}`),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
  };
  const git = (args: readonly string[], gitEnv: Readonly<Record<string, string>> = env): Promise<string> =>
    new Promise((resolve, reject) => {
      execFile("git", [...args], { cwd: projectDir, env: gitEnv, timeout: GIT_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, encoding: "utf8" }, (error, stdout, stderr) => {
        if (error === null) resolve(stdout);
        else reject(new Error(stderr.trim() === "" ? error.message : stderr.trim()));
      });
    });
  let ready: Promise<void> | undefined;
  const setUp = async (): Promise<void> => {
    ensureMcaFolder(projectDir);
    // Made as a bare repository (git refuses a work tree for `init --bare`); every later command names the tree.
    await git(["init", "--quiet", "--bare", gitDir], { PATH: env.PATH, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" });
    await writeFile(join(gitDir, "info", "exclude"), "/.mca/\n");
    // A new session starts from the newest index of an earlier one: git then hashes only the files whose
    // size or time changed since, instead of every file of the project again.
    const earlier = await newestIndex(gitDir);
    if (earlier !== undefined && earlier !== env.GIT_INDEX_FILE) await copyFile(earlier, env.GIT_INDEX_FILE, constants.COPYFILE_EXCL).catch(() => undefined);
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
        return new Error(error instanceof Error ? error.message : String(error));
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

async function newestIndex(gitDir: string): Promise<string | undefined> {
  const names = (await readdir(gitDir)).filter((name) => name.startsWith("index-"));
  const dated = await Promise.all(names.map(async (name) => ({ path: join(gitDir, name), modified: (await stat(join(gitDir, name))).mtimeMs })));
  return dated.sort((a, b) => b.modified - a.modified).at(0)?.path;
}
