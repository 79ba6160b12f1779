// What a session's sandbox keeps read-only wherever a writable folder holds it, present or not: what mca
// obeys at its next start (its own settings and state, the project's `.mca/`, the files a trusted project's
// servers run outside the sandbox) and what git obeys later (the places the project's git settings name).
import { readdirSync, realpathSync, statSync } from "node:fs";
import { dirname, extname, join, resolve } from "node:path";
import { readProtectedFolders, userConfigDir, type ProjectProgram } from "../config/index.js";
import { userStateDir } from "../session/index.js";
import type { GuardedPlace } from "./read-only-places.js";

export interface SandboxPlaceSources {
  readonly projectDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
  /** The files of the project that its trusted stdio servers run; none when it is not trusted. */
  readonly programs: readonly ProjectProgram[];
}

/** The places for every call of the session, read from the disk at each call. */
export function sandboxPlaces(sources: SandboxPlaceSources): () => readonly GuardedPlace[] {
  const project = realPath(sources.projectDir);
  const fixed: GuardedPlace[] = [
    // mca's settings folder whole (its settings.json with it) and its state: an absent one cannot be made either.
    { path: userConfigDir(sources.env), absent: "folder" },
    { path: userStateDir(sources.env, sources.home), absent: "folder" },
    { path: join(project, ".mca"), absent: "folder" },
  ];
  // Read at each call, as git's: a file made beside a program since the last call is kept too.
  return () => [...fixed, ...sources.programs.flatMap((program) => programPlaces(project, program.path)), ...gitPlaces(project)];
}

/**
 * Languages whose program loads the files beside it by name: a program at the project's root keeps those of
 * its own language read-only, as the root itself cannot be.
 */
const SIBLING_EXTENSIONS: readonly (readonly string[])[] = [
  [".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx", ".json", ".node", ".wasm"],
  [".py", ".pyc", ".pth", ".so"],
  [".rb"],
  [".sh", ".bash"],
  [".pl", ".pm"],
  [".php"],
  [".lua"],
];

/**
 * The places of one program a trusted server runs outside the sandbox: the folder it lives in, whole; at the
 * project's root (which cannot be made read-only), the file itself and the files beside it in its language.
 */
export function programPlaces(project: string, program: string): GuardedPlace[] {
  const path = resolve(project, program);
  const folder = dirname(path);
  if (folder !== project) return [{ path: folder, absent: null }];
  const extension = extname(path).toLowerCase();
  const family = SIBLING_EXTENSIONS.find((extensions) => extensions.includes(extension)) ?? (extension === "" ? [] : [extension]);
  let siblings: string[] = [];
  try {
    siblings = readdirSync(project).filter((name) => family.includes(extname(name).toLowerCase()));
  } catch {
    // An unreadable project folder: the program alone.
  }
  return [path, ...siblings.map((name) => join(project, name))].filter((one, index, all) => all.indexOf(one) === index).map((one) => ({ path: one, absent: null }));
}

/**
 * The places git obeys later, from the project's git settings as read now: the git folder (in a project
 * without one, its place), those a `.git` file and `core.hooksPath` name, `.husky/`, and each submodule's
 * `.git` under the name its folder has in `.git/modules/`.
 */
function gitPlaces(project: string): GuardedPlace[] {
  const places = readProtectedFolders(project).flatMap((folder): GuardedPlace[] => {
    if (folder.path === ".mca") return [];
    return [{ path: resolve(project, folder.path), absent: folder.path === ".husky" ? null : "folder" }];
  });
  // A submodule's `.git` (a file naming its folder under `.git/modules/`) could be swapped for a folder with a
  // config of its own, which the outer `git status` would obey as it looks into the submodule.
  const submodules = submoduleNames(join(project, ".git", "modules"), "").map((name): GuardedPlace => ({ path: join(project, name, ".git"), absent: null }));
  return [...places, ...submodules];
}

/** Submodule names nest (`libs/a`): how deep, and how many, are looked for. */
const SUBMODULE_MAX_DEPTH = 4;
const SUBMODULE_MAX_COUNT = 256;

/**
 * The names of the submodules whose git folders are under `modules` (each holds HEAD), found to a limited
 * depth and count. By default a submodule's name is its path in the work tree, which is where its `.git` is.
 */
function submoduleNames(modules: string, prefix: string, found: string[] = []): string[] {
  if (prefix.split("/").length > SUBMODULE_MAX_DEPTH) return found;
  let entries: string[];
  try {
    entries = readdirSync(join(modules, prefix)).sort();
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (found.length >= SUBMODULE_MAX_COUNT) break;
    const name = prefix === "" ? entry : `${prefix}/${entry}`;
    if (isFile(join(modules, name, "HEAD"))) found.push(name);
    else submoduleNames(modules, name, found);
  }
  return found;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function realPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}
