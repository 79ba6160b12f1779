// The folders of a project where a write can turn into running code, for the gate to ask before every
// write there: those of every project (ALWAYS_PROTECTED) and those its git settings name, the hooks folder
// of `core.hooksPath` and a git folder that a `.git` file points to. Git's config is read as plain text:
// git is never run, and neither `[include]` nor the user's or the system's config is followed.
import { realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ALWAYS_PROTECTED, type ProtectedFolder } from "../kernel/index.js";
import { readRegularFile } from "./regular-file.js";

/** Far more than a `.git` file or a repository's config needs; a larger one is not read. */
const MAX_GIT_FILE_BYTES = 1024 * 1024;

/**
 * The project's protected folders, its own first (a hooks folder under `.husky/` is named as the hooks
 * folder). The repository is the nearest folder upward holding `.git`, as git finds it.
 */
export function readProtectedFolders(projectDir: string): ProtectedFolder[] {
  const project = resolve(projectDir);
  const repository = findRepository(project);
  if (repository === undefined) return [...ALWAYS_PROTECTED];
  const own: ProtectedFolder[] = [];
  const add = (target: string, reason: string): void => {
    for (const path of insideProject(project, target)) {
      if (!own.some((folder) => folder.path === path)) own.push({ path, anyDepth: false, reason });
    }
  };
  for (const gitDir of repository.gitDirs) add(gitDir, `writes under the git folder (gitdir: ${JSON.stringify(repository.pointer)}) always ask`);
  const hooksPath = repository.configs.map((file) => coreHooksPath(readText(file) ?? "")).reduce<string | undefined>((last, value) => value ?? last, undefined);
  // `~/` and `%(prefix)/` expand outside what git's config text says; such a folder is left alone.
  if (hooksPath !== undefined && hooksPath !== "" && !/^(?:~|%\(prefix\)\/)/u.test(hooksPath)) {
    add(resolve(repository.workTree, hooksPath), `writes under the git hooks folder (core.hooksPath = ${JSON.stringify(hooksPath)}) always ask`);
  }
  return [...own, ...ALWAYS_PROTECTED];
}

/**
 * The protected folders at the project's root as absolute paths, for a sandbox to bind read-only (a
 * folder protected at any depth is named only at the root).
 */
export function protectedFolderPaths(projectDir: string, folders: readonly ProtectedFolder[]): string[] {
  return [...new Set(folders.map((folder) => resolve(projectDir, folder.path)))];
}

interface Repository {
  /** The folder that holds `.git`. */
  readonly workTree: string;
  /** The git folders a `.git` file points to (the worktree's own and the common one); none for a `.git` folder, protected anyway. */
  readonly gitDirs: readonly string[];
  /** The `gitdir:` line as written, for the reason. */
  readonly pointer: string;
  /** The config files that may set `core.hooksPath`, in the order git reads them (a later value wins). */
  readonly configs: readonly string[];
}

function findRepository(project: string): Repository | undefined {
  for (let dir = project; ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    const kind = entryKind(dotGit);
    if (kind === "directory") return { workTree: dir, gitDirs: [], pointer: "", configs: [join(dotGit, "config"), join(dotGit, "config.worktree")] };
    if (kind === "file") return pointedRepository(dir, dotGit);
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * A `.git` file (a linked worktree, a submodule) says `gitdir: <path>`, relative to its own folder; that
 * folder's `commondir`, when present, names the folder with the shared config, relative to it.
 */
function pointedRepository(workTree: string, dotGit: string): Repository {
  const text = readText(dotGit) ?? "";
  const pointer = text.startsWith("gitdir: ") ? text.slice("gitdir: ".length).trimEnd() : "";
  if (pointer === "") return { workTree, gitDirs: [], pointer, configs: [] };
  const gitDir = resolve(workTree, pointer);
  const common = readText(join(gitDir, "commondir"))?.trim();
  const commonDir = common === undefined || common === "" ? gitDir : resolve(gitDir, common);
  return { workTree, gitDirs: [gitDir, commonDir], pointer, configs: [join(commonDir, "config"), join(gitDir, "config.worktree")] };
}

function entryKind(path: string): "directory" | "file" | "none" {
  try {
    const stat = statSync(path);
    return stat.isDirectory() ? "directory" : "file";
  } catch {
    return "none";
  }
}

/** A regular file's text; undefined when it is absent, unreadable, too large or no regular file (a FIFO never blocks). */
function readText(file: string): string | undefined {
  const read = readRegularFile(file, MAX_GIT_FILE_BYTES);
  return read.kind === "read" ? read.bytes.toString("utf8") : undefined;
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

/**
 * The last `hooksPath` of the `[core]` section in a git config's text, undefined when none. As git reads
 * it (https://git-scm.com/docs/git-config#_syntax): section and key names whatever their case, `#` and `;`
 * comments, a value's outer whitespace dropped, `"` quoting, the escapes `\\ \" \n \t \b`, a backslash at
 * a line's end continuing it. A broken value is skipped; `[core "x"]` and `[core.x]` are other sections.
 */
export function coreHooksPath(text: string): string | undefined {
  let inCore = false;
  let found: string | undefined;
  for (let index = 0; index < text.length; ) {
    const char = text[index] ?? "";
    if (/\s/u.test(char)) {
      index += 1;
    } else if (char === "#" || char === ";") {
      index = lineEnd(text, index);
    } else if (char === "[") {
      const close = text.indexOf("]", index);
      if (close === -1) return found;
      inCore = text.slice(index + 1, close).toLowerCase() === "core";
      index = close + 1;
    } else {
      CONFIG_KEY.lastIndex = index;
      const key = CONFIG_KEY.exec(text);
      // A key without `=` is a boolean, and anything else is a line git refuses: neither names a folder.
      if (key === null || key[2] !== "=") {
        index = lineEnd(text, index);
        continue;
      }
      const value = readValue(text, index + key[0].length);
      if (inCore && key[1]?.toLowerCase() === "hookspath" && value.text !== undefined) found = value.text;
      index = value.end;
    }
  }
  return found;
}

/** A variable's name and the `=` after it (sticky: matched where the scan is). */
const CONFIG_KEY = /([A-Za-z][A-Za-z0-9-]*)[ \t]*(=?)/uy;

function lineEnd(text: string, from: number): number {
  const end = text.indexOf("\n", from);
  return end === -1 ? text.length : end + 1;
}

const ESCAPES: Readonly<Record<string, string>> = { "\\": "\\", '"': '"', n: "\n", t: "\t", b: "\b" };

/**
 * A value from just after its `=` to the end of its (continued) line, as git's parse_value reads it:
 * whitespace outside quotes counts once something precedes it, each as one space, and only when more follows.
 */
function readValue(text: string, from: number): { readonly text: string | undefined; readonly end: number } {
  let value = "";
  let spaces = "";
  let quoted = false;
  let comment = false;
  for (let index = from; ; ) {
    const char = text[index];
    if (char === undefined || char === "\n") return { text: quoted ? undefined : value, end: index + 1 };
    index += 1;
    if (comment) continue;
    if (!quoted && (char === " " || char === "\t" || char === "\r")) {
      if (value !== "") spaces += " ";
      continue;
    }
    if (!quoted && (char === "#" || char === ";")) {
      comment = true;
      continue;
    }
    value += spaces;
    spaces = "";
    if (char === "\\") {
      const next = text[index] ?? "";
      index += next === "\r" && text[index + 1] === "\n" ? 2 : 1;
      if (next === "\n" || next === "\r") continue;
      const escaped = ESCAPES[next];
      if (escaped === undefined) return { text: undefined, end: lineEnd(text, index) };
      value += escaped;
    } else if (char === '"') {
      quoted = !quoted;
    } else {
      value += char;
    }
  }
}
