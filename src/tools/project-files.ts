// The project folder as the local tools see it: every path a tool touches is confined to it, lexically
// (`../x`, absolute paths elsewhere) and through symbolic links (a link inside the folder that points
// outside it); the gate judges the path where it really leads; a write tool names the file it changes.
import { constants, lstatSync, realpathSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { normalizedPath, type GateSubject } from "../kernel/index.js";

/** The absolute path of `path` (relative to the project folder), or an Error the model can read. */
export function resolveInProject(projectDir: string, path: string): string | Error {
  const located = locate(projectDir, path);
  return located instanceof Error ? located : located.target;
}

/**
 * What the approval gate matches for a call on `path`: where it really leads, relative to the real project
 * folder (symlinks resolved, `.`, `..` and trailing slashes gone, `/abs/project/.env` as `.env`), so that
 * `read_file(.env)` also covers `envlink` and `.env/`. A path the tools would refuse is `outside`.
 */
export function pathSubject(projectDir: string, path: string): GateSubject {
  const located = locate(projectDir, path);
  if (located instanceof Error) return { kind: "path", text: normalizedPath(path.split(sep).join("/")), outside: true };
  const real = relative(located.realRoot, located.realTarget).split(sep).join("/");
  return { kind: "path", text: real === "" ? "." : real, outside: false };
}

interface Located {
  /** Where the tools open the file: the lexical absolute path. */
  readonly target: string;
  readonly realRoot: string;
  /** Where that really is, through every symbolic link. */
  readonly realTarget: string;
}

/** Confinement, lexically and through symbolic links, with the real location of the path. */
function locate(projectDir: string, path: string): Located | Error {
  const root = resolve(projectDir);
  const target = resolve(root, path);
  const outside = new Error(`path ${path} is outside the project folder ${root}`);
  if (!isInside(root, target)) return outside;

  // The file may not exist yet (write_file): check the real location of its deepest existing ancestor,
  // which is where the new file would really land. `native` also gives the case the file system stores.
  let realRoot: string;
  try {
    realRoot = realpathSync.native(root);
  } catch {
    return new Error(`the project folder ${root} does not exist`);
  }
  const existing = deepestExisting(target);
  let realExisting: string;
  try {
    realExisting = realpathSync.native(existing);
  } catch {
    return new Error(`path ${path} goes through a broken symbolic link (${relative(root, existing) || "."})`);
  }
  const realTarget = join(realExisting, relative(existing, target));
  if (!isInside(realRoot, realTarget)) return outside;
  return { target, realRoot, realTarget };
}

/** The one file a write_file or edit_file call would change, so the kernel can snapshot it first. */
export function changedFiles(projectDir: string, path: string): readonly string[] {
  const absolute = resolveInProject(projectDir, path);
  return absolute instanceof Error ? [] : [absolute];
}

/** The message of openRegularFile's Error for a pipe, socket or device. */
export const NOT_A_REGULAR_FILE = "not a regular file (a pipe, socket or device)";

const OPEN_FLAGS = { read: constants.O_RDONLY, write: constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC } as const;

/**
 * Opens a file a tool reads or writes; regular files only. Opening a named pipe waits for the other end for
 * ever, so the open does not block (a pipe opens at once, or fails with ENXIO when written with nobody
 * reading) and the open file itself is checked: nothing can be swapped in between a check and the open.
 * A folder is an Error with code EISDIR, anything else not regular an Error saying what it is.
 */
export async function openRegularFile(path: string, mode: keyof typeof OPEN_FLAGS): Promise<FileHandle> {
  const notRegular = new Error(NOT_A_REGULAR_FILE);
  let handle: FileHandle;
  try {
    handle = await open(path, OPEN_FLAGS[mode] | constants.O_NONBLOCK, 0o666);
  } catch (error) {
    throw error instanceof Error && "code" in error && error.code === "ENXIO" ? notRegular : error;
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw Object.assign(new Error("it is a folder, not a file"), { code: "EISDIR" });
    if (!info.isFile()) throw notRegular;
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function deepestExisting(path: string): string {
  let current = path;
  for (;;) {
    try {
      lstatSync(current);
      return current;
    } catch {
      const parent = dirname(current);
      if (parent === current) return current;
      current = parent;
    }
  }
}
