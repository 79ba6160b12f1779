// The folders of a project where a write can turn into running code, for the gate to ask before every
// write there: those of every project (ALWAYS_PROTECTED) and the places of the git surface inside the
// project (git-surface.ts): hooks folders of every config level, included config files, `.gitmodules`,
// git folders a `.git` file points to. A file is named like a folder: the gate matches whole segments.
import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { ALWAYS_PROTECTED, type ProtectedFolder } from "../kernel/index.js";
import type { GitPlace, GitSurface } from "./git-surface.js";

/**
 * The project's protected folders, its own first (a hooks folder under `.husky/` is named as the hooks
 * folder). `surface`: the project's git surface, best from a session's gitSurfaceReader.
 */
export function readProtectedFolders(projectDir: string, surface: GitSurface): ProtectedFolder[] {
  const project = resolve(projectDir);
  const own: ProtectedFolder[] = [];
  for (const place of surface.places) {
    // Writes into a `.git` at any depth always ask already (so a missing submodule's `.git` too); the rest
    // of a submodule's place is its files.
    if (place.kind === "submodule-place") continue;
    for (const path of insideProject(project, place.path)) {
      if (path.toLowerCase().split("/").includes(".git") || own.some((folder) => holds(folder.path, path))) continue;
      own.push({ path, anyDepth: false, reason: `writes ${FILE_KINDS.has(place.kind) ? "to" : "under"} ${place.reason} always ask` });
    }
  }
  return [...own, ...ALWAYS_PROTECTED];
}

/** The kinds of place that are files git reads rather than folders, for how a reason words it. */
const FILE_KINDS: ReadonlySet<GitPlace["kind"]> = new Set(["gitfile", "gitmodules", "config", "config-include"]);

/** Whether the folder `outer` is `path` or holds it (both project-relative, `/`-separated). */
function holds(outer: string, path: string): boolean {
  return outer === "." || path === outer || path.startsWith(`${outer}/`);
}

/**
 * `target` relative to the project, `/`-separated, when it is inside: as written and, when it exists,
 * through its symbolic links (the gate matches a file's real path). `.` for the project itself.
 */
function insideProject(project: string, target: string): string[] {
  const forms = [relative(project, target)];
  try {
    forms.push(relative(realpathSync.native(project), realpathSync.native(target)));
  } catch {
    // Not there yet: a write could create it, under the name as written.
  }
  const inside = forms.filter((form) => form !== ".." && !form.startsWith(`..${sep}`) && !isAbsolute(form));
  return [...new Set(inside.map((form) => (form === "" ? "." : form.split(sep).join("/"))))];
}
