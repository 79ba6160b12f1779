// Where mca keeps what it writes while it works on a project — transcripts, snapshot copies, the checkpoint
// repository, the prompt history: a folder of the user's own, `$XDG_STATE_HOME/mca/projects/<name>-<hash>/`
// (default `~/.local/state/mca/…`), never inside the project. Whatever a repository can commit is input:
// a `.mca/sessions` or `.mca/checkpoints.git` shipped in a clone is never read, resumed or adopted.
import { lstatSync, mkdirSync, realpathSync, writeFileSync, type Stats } from "node:fs";
import { basename, isAbsolute, join } from "node:path";

/** Folders mca creates are the user's only; files, the same (umask can only take more away). */
export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** The project and the folder that holds mca's state for it. */
export interface ProjectState {
  /** The project's real path (symlinks resolved): what the state folder's name is made from. */
  readonly projectDir: string;
  /** `<state home>/mca/projects/<name>-<hash>`; made on first use, by `ensureStateFolder`. */
  readonly dir: string;
}

/** How much of the project folder's name is kept in its state folder's name (the hash tells them apart). */
const NAME_CHARS = 40;
/** Hex characters of the hash of the project's real path: 48 bits, ample for one user's projects. */
const HASH_CHARS = 12;

/**
 * `$XDG_STATE_HOME/mca` when that is an absolute path (the XDG rule: a relative one is ignored), else
 * `<home>/.local/state/mca`.
 */
export function userStateDir(env: Readonly<Record<string, string | undefined>>, home: string): string {
  const xdg = env.XDG_STATE_HOME;
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(home, ".local", "state"), "mca");
}

/** The state folder of the project in `projectDir`, named after its real path. Nothing is created. */
export function projectState(projectDir: string, env: Readonly<Record<string, string | undefined>>, home: string): ProjectState {
  let real = projectDir;
  try {
    real = realpathSync(projectDir);
  } catch {
    // A folder that vanished keeps its name as written; nothing will be written for it anyway.
  }
  const name = basename(real).replace(/[^A-Za-z0-9_-]/gu, "_").slice(0, NAME_CHARS) || "root";
  const hash = fnv1a64(real).slice(0, HASH_CHARS);
  return { projectDir: real, dir: join(userStateDir(env, home), "projects", `${name}-${hash}`) };
}

/**
 * FNV-1a (64 bits) of the text's UTF-8 bytes, as 16 hex characters. Not a cryptographic hash, and it need not
 * be: it only tells the user's projects' folders apart, while what a folder holds names its project's real
 * path (a transcript's first line, the checkpoint repository's marker) and is checked against it. Loading
 * node:crypto for it would cost every start-up ~15 ms.
 */
export function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, "utf8")) hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return hash.toString(16).padStart(16, "0");
}

/**
 * Makes `<state folder>/<...parts>` (private folders) and returns its path. Every folder from the state
 * folder down must be a real folder of this user's, not a symlink: mca writes copies of the project's
 * files there and runs git on what it finds, so a folder it did not make is never taken for its own.
 */
export function ensureStateFolder(state: ProjectState, ...parts: string[]): string {
  const target = join(state.dir, ...parts);
  mkdirSync(target, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  let path = state.dir;
  for (const part of ["", ...parts]) {
    path = join(path, part);
    const info = lstatSync(path);
    if (!info.isDirectory()) throw new Error(`${path} is not a folder (mca keeps its state there)`);
    const uid = process.getuid?.();
    if (uid !== undefined && info.uid !== uid) throw new Error(`${path} belongs to another user (uid ${info.uid}); mca does not keep its state there`);
  }
  return target;
}

/** What an older mca kept in the project's own `.mca/`: ignored now, and said once per project. */
const OLD_STATE_ENTRIES = ["sessions", "snapshots", "checkpoints.git"] as const;
const OLD_STATE_NOTICED = "old-project-state-noticed";

/**
 * The notice that the project's `.mca/` holds state of an older mca (or state the repository planted),
 * which mca ignores; null when there is none or it was given before for this project. The delete command
 * is only offered when `.mca` is a real folder, so it cannot reach through a symlink.
 */
export function oldStateNotice(state: ProjectState): string | null {
  const folder = join(state.projectDir, ".mca");
  if (lstatOrNull(folder)?.isDirectory() !== true) return null;
  const found = OLD_STATE_ENTRIES.filter((entry) => lstatOrNull(join(folder, entry)) !== null);
  if (found.length === 0) return null;
  const marker = join(ensureStateFolder(state), OLD_STATE_NOTICED);
  if (lstatOrNull(marker) !== null) return null;
  writeFileSync(marker, "", { mode: PRIVATE_FILE_MODE });
  const paths = found.map((entry) => `.mca/${entry}`);
  return `${paths.join(", ")} in this project ${found.length === 1 ? "is" : "are"} ignored: mca keeps its sessions, snapshots and checkpoints in ${state.dir} (to delete the old ones: rm -rf ${paths.join(" ")})`;
}

/** What is at the path itself (a symlink is not followed); null when nothing can be seen there. */
function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}
