// What a session's sandbox keeps read-only wherever a writable folder holds it, present or not: what mca
// obeys at its next start (its own settings and state, the project's `.mca/`, the files a trusted project's
// servers run outside the sandbox) and what git obeys later (git-surface.ts's places, found by asking git).
import { readdirSync, realpathSync } from "node:fs";
import { dirname, extname, join, resolve } from "node:path";
import { gitSurfaceReader, userConfigFiles, type GitPlaceKind, type GitSurface, type ProjectProgram } from "../config/index.js";
import type { GuardedPlace } from "./read-only-places.js";

export interface SandboxPlaceSources {
  readonly projectDir: string;
  /** The environment the user's git reads (git-surface.ts). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** mca's own folders, absolute: its settings folder (settings.json in it) and its state folder. */
  readonly ownFolders: readonly string[];
  /** The files of the project that its trusted stdio servers run; none when it is not trusted. */
  readonly programs: readonly ProjectProgram[];
  /** Git's places, asked of git and cached (gitSurfaceReader); the session shares its own with the gate. Made here when not given. */
  readonly git?: { read(): GitSurface; invalidate(): void };
}

/** The places for a session's calls: `read` at each call; `changed` after a command ran outside the sandbox (it may have made a repository git's cached places do not know). */
export interface SandboxPlaces {
  read(): readonly GuardedPlace[];
  changed(): void;
}

export function sandboxPlaces(sources: SandboxPlaceSources): SandboxPlaces {
  const project = realPath(sources.projectDir);
  const fixed: GuardedPlace[] = [
    // mca's settings folder whole (its settings.json with it) and its state: an absent one cannot be made either.
    ...sources.ownFolders.map((path): GuardedPlace => ({ path, absent: "folder" })),
    { path: join(project, ".mca"), absent: "folder" },
    // Husky's hooks act only through a hooks path that git's config names (read-only): an absent one needs nothing.
    { path: join(project, ".husky"), absent: null },
    // Git reads the user's and the system's config for every repository, present or not: one made in a
    // writable home (`~/.gitconfig` with a core.fsmonitor) would be obeyed by every git the user runs.
    ...userConfigFiles(sources.env).map((path): GuardedPlace => ({ path, absent: "file" })),
  ];
  // Git's places are asked of git again only when a file they came from changed (git-surface.ts).
  const git = sources.git ?? gitSurfaceReader(project, { env: sources.env });
  // Read at each call: a file made beside a program since the last call is kept too.
  return {
    read: () => {
      // The project's root is listed once for every program at it, and not at all when none is.
      let rootNames: readonly string[] | undefined;
      const listRoot = (): readonly string[] => (rootNames ??= namesIn(project));
      return [
        ...fixed,
        ...sources.programs.flatMap((program) => programPlaces(project, program.path, listRoot)),
        ...git.read().places.map((place): GuardedPlace => ({ path: place.path, absent: ABSENT_GIT_PLACE[place.kind] })),
      ];
    },
    changed: () => git.invalidate(),
  };
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
 * `listRoot`: the names in the project's root, asked only for a program at the root.
 */
export function programPlaces(project: string, program: string, listRoot: () => readonly string[] = () => namesIn(project)): GuardedPlace[] {
  const path = resolve(project, program);
  const folder = dirname(path);
  if (folder !== project) return [{ path: folder, absent: null }];
  const extension = extname(path).toLowerCase();
  const family = SIBLING_EXTENSIONS.find((extensions) => extensions.includes(extension)) ?? (extension === "" ? [] : [extension]);
  const siblings = listRoot().filter((name) => family.includes(extname(name).toLowerCase()));
  return [path, ...siblings.map((name) => join(project, name))].filter((one, index, all) => all.indexOf(one) === index).map((one) => ({ path: one, absent: null }));
}

/** What holds each kind of git's places while it is absent: a folder blocks a `.git` file and folder alike. */
const ABSENT_GIT_PLACE: Readonly<Record<GitPlaceKind, GuardedPlace["absent"]>> = {
  "git-dir": "folder",
  gitfile: "folder",
  "submodule-place": "folder",
  gitmodules: "file",
  config: "file",
  "config-include": "file",
  hooks: "folder",
};

/** The names in a folder; none when it cannot be read (an unreadable project folder: each program alone). */
function namesIn(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

function realPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}
