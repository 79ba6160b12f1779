// What can be read of a repository without running git, for when git is missing or refuses: the repository
// found upward as git finds it, the git folders a `.git` file names, and `core.hooksPath` from a config's
// text. Neither `[include]` nor conditions are followed; asking git (git-surface.ts) is the way that does.
import { statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { readRegularFile } from "./regular-file.js";

/** Far more than a `.git` file or a repository's config needs; a larger one is not read. */
const MAX_GIT_FILE_BYTES = 1024 * 1024;

export interface TextRepository {
  /** The folder that holds `.git`. */
  readonly workTree: string;
  /** The git folders a `.git` file points to (the worktree's own and the common one); none for a `.git` folder, protected anyway. */
  readonly gitDirs: readonly string[];
  /** The `gitdir:` line as written, for the reason. */
  readonly pointer: string;
  /** The config files that may set `core.hooksPath`, in the order git reads them (a later value wins). */
  readonly configs: readonly string[];
}

export function findRepository(project: string): TextRepository | undefined {
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
export function pointedRepository(workTree: string, dotGit: string): TextRepository {
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
export function readText(file: string): string | undefined {
  const read = readRegularFile(file, MAX_GIT_FILE_BYTES);
  return read.kind === "read" ? read.bytes.toString("utf8") : undefined;
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
