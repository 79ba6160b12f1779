// What stays read-only inside the sandbox's writable folders, present or not: each place found as the
// kernel will find it (symbolic links followed), an absent one held by an empty read-only placeholder that
// is removed after the command, and every folder on the way to a place pinned, so that no rename moves a
// place away and lets a command make a new one where it was.
import { accessSync, constants, lstatSync, readdirSync, readlinkSync, rmdirSync, unlinkSync, type Stats } from "node:fs";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";

/** A place that something mca or git obeys later lives at. */
export interface GuardedPlace {
  /** Absolute. */
  readonly path: string;
  /**
   * What holds the place while it is absent: an empty read-only folder or file, so that no command can create
   * it; null when an absent one needs nothing (what it would hold acts only through another, read-only file).
   */
  readonly absent: "folder" | "file" | null;
}

export type ReadOnlyMount =
  /** Present: bound over itself, read-only (and, a mount point, it cannot be renamed or removed). */
  | { readonly kind: "bind"; readonly path: string }
  /** Absent: bubblewrap makes it (an empty folder or file) to mount the placeholder on; removed after the command. */
  | { readonly kind: "placeholder"; readonly path: string; readonly shape: "folder" | "file" };

export interface ReadOnlyLayout {
  /** Folders between a writable folder and a read-only place, shallowest first: bound over themselves, still writable, so none can be renamed. */
  readonly pinned: readonly string[];
  readonly readOnly: readonly ReadOnlyMount[];
  /**
   * Symbolic links in a writable folder itself on the way to a place: a command could replace such a link,
   * and a mount cannot hold it (a mount follows it), so no command runs while one is there.
   */
  readonly unguarded: readonly string[];
}

/** Hops through symbolic links before a path counts as a loop, as Linux's own limit (ELOOP). */
const MAX_LINK_HOPS = 40;

/**
 * The mounts that keep `places` read-only inside `roots` (the writable folders, real paths), read from the
 * disk as it is now. A place outside every root is read-only anyway and needs nothing; a root itself is never
 * made read-only (that would take the project away).
 */
export function readOnlyLayout(roots: readonly string[], places: readonly GuardedPlace[]): ReadOnlyLayout {
  const lstat = memoLstat();
  const mounts = new Map<string, ReadOnlyMount>();
  const unguarded = new Set<string>();
  const rootOf = (path: string): string | undefined => deepestRoot(roots, path);
  for (const place of places) {
    const found = locate(resolve(place.path), lstat);
    for (const link of found.links) {
      const root = rootOf(link);
      if (root === undefined) continue;
      // A link in a folder below the root is held by making that folder read-only; one in the root itself cannot be.
      if (dirname(link) === root) unguarded.add(link);
      else mounts.set(dirname(link), { kind: "bind", path: dirname(link) });
    }
    const root = rootOf(found.path);
    if (root === undefined || root === found.path) continue;
    if (found.kind === "present") {
      mounts.set(found.path, { kind: "bind", path: found.path });
      continue;
    }
    if (place.absent === null) continue;
    const parent = dirname(found.path);
    // What this user cannot create there, a command (the same user, without capabilities) cannot either.
    if (!writableFolder(parent)) continue;
    // An empty folder on the way (an uninitialised submodule's) is made read-only whole: nothing is made on the disk.
    if (parent !== root && isEmptyFolder(parent)) mounts.set(parent, { kind: "bind", path: parent });
    else mounts.set(found.path, { kind: "placeholder", path: found.path, shape: found.last ? place.absent : "folder" });
  }
  const readOnly = outermost([...mounts.values()]).sort((a, b) => a.path.localeCompare(b.path));
  const pinned = new Set<string>();
  for (const mount of readOnly) {
    const root = rootOf(mount.path);
    if (root === undefined) continue;
    for (let folder = dirname(mount.path); folder !== root && isInside(root, folder); folder = dirname(folder)) pinned.add(folder);
  }
  return { pinned: [...pinned].sort((a, b) => a.length - b.length || a.localeCompare(b)), readOnly, unguarded: [...unguarded].sort() };
}

/**
 * Removes the placeholders bubblewrap made for `layout`, once the command is over (its PID namespace is gone,
 * so nothing of it runs): each was absent before and, a mount point while the command ran, could not be
 * swapped. Only an empty folder or an empty file goes; whatever else is there now is left.
 */
export function removePlaceholders(layout: ReadOnlyLayout): void {
  for (const mount of layout.readOnly) {
    if (mount.kind !== "placeholder") continue;
    try {
      const stat = lstatSync(mount.path);
      if (mount.shape === "folder" && stat.isDirectory()) rmdirSync(mount.path);
      else if (mount.shape === "file" && stat.isFile() && stat.size === 0) unlinkSync(mount.path);
    } catch {
      // Gone already, or not empty: left as it is.
    }
  }
}

type Located =
  /** `path` is there: the place itself, or a file on its way that a command could swap for a folder. */
  | { readonly kind: "present"; readonly path: string; readonly links: readonly string[] }
  /** `path` is the first missing entry on the way; `last`: it is the place itself, not a folder above it. */
  | { readonly kind: "missing"; readonly path: string; readonly last: boolean; readonly links: readonly string[] };

/**
 * Walks `path` from `/` entry by entry as the kernel resolves it, following symbolic links (each one named in
 * `links`), up to the first entry that is missing or is no folder. A loop counts as present where it starts:
 * nothing can be made through it, and the link itself is named.
 */
function locate(path: string, lstat: (path: string) => Stats | null): Located {
  const links: string[] = [];
  const parts = path.split(sep).filter((part) => part !== "");
  let current: string = sep;
  for (let hops = 0; parts.length > 0; ) {
    const name = parts.shift() ?? "";
    if (name === ".") continue;
    if (name === "..") {
      current = dirname(current);
      continue;
    }
    const next = join(current, name);
    const stat = lstat(next);
    if (stat === null) return { kind: "missing", path: next, last: parts.length === 0, links };
    if (stat.isSymbolicLink()) {
      links.push(next);
      hops += 1;
      const target = hops > MAX_LINK_HOPS ? null : readLink(next);
      if (target === null) return { kind: "present", path: next, links };
      parts.unshift(...target.split(sep).filter((part) => part !== ""));
      if (isAbsolute(target)) current = sep;
      continue;
    }
    if (parts.length > 0 && !stat.isDirectory()) return { kind: "present", path: next, links };
    current = next;
  }
  return { kind: "present", path: current, links };
}

/** lstat for one layout: the places share most of their folders. */
function memoLstat(): (path: string) => Stats | null {
  const known = new Map<string, Stats | null>();
  return (path) => {
    let stat = known.get(path);
    if (stat === undefined) {
      try {
        stat = lstatSync(path);
      } catch {
        stat = null;
      }
      known.set(path, stat);
    }
    return stat;
  };
}

function readLink(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

function writableFolder(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function isEmptyFolder(path: string): boolean {
  try {
    return readdirSync(path).length === 0;
  } catch {
    return false;
  }
}

/**
 * The mounts no other mount holds, in one sweep: sorted with the separator first, a folder comes just before
 * everything inside it, so a mount inside any kept one is inside the last kept one.
 */
function outermost(mounts: readonly ReadOnlyMount[]): ReadOnlyMount[] {
  const keyed = mounts.map((mount) => ({ mount, key: mount.path.split(sep).join("\0") }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const kept: ReadOnlyMount[] = [];
  for (const { mount } of keyed) {
    const last = kept.at(-1);
    if (last === undefined || !isInside(last.path, mount.path)) kept.push(mount);
  }
  return kept;
}

/** The innermost root holding `path` (roots nest: the project in a writable home); its own bind holds it in place. */
function deepestRoot(roots: readonly string[], path: string): string | undefined {
  return roots.filter((root) => isInside(root, path)).sort((a, b) => b.length - a.length)[0];
}

/** Whether `path` is `folder` or below it; both absolute and normalised (a string test: a layout makes thousands). */
export function isInside(folder: string, path: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`);
}
