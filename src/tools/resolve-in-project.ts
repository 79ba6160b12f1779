// Confines every path a local tool touches to the project folder: lexically (`../x`, absolute paths
// elsewhere) and through symbolic links (a link inside the folder that points outside it).
import { lstatSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** The absolute path of `path` (relative to the project folder), or an Error the model can read. */
export function resolveInProject(projectDir: string, path: string): string | Error {
  const root = resolve(projectDir);
  const target = resolve(root, path);
  const outside = new Error(`path ${path} is outside the project folder ${root}`);
  if (!isInside(root, target)) return outside;

  // The file may not exist yet (write_file): check the real location of its deepest existing ancestor,
  // which is where the new file would really land.
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return new Error(`the project folder ${root} does not exist`);
  }
  const existing = deepestExisting(target);
  let realExisting: string;
  try {
    realExisting = realpathSync(existing);
  } catch {
    return new Error(`path ${path} goes through a broken symbolic link (${relative(root, existing) || "."})`);
  }
  const realTarget = join(realExisting, relative(existing, target));
  if (!isInside(realRoot, realTarget)) return outside;
  return target;
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
