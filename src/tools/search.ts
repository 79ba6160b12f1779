// search: a JavaScript regular expression over the project's text files, line by line, skipping
// `.git` and `node_modules`, with caps on file size and on the number of matches; file names filtered
// by a glob.
import type { Dirent } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { describeError, type Tool, type ToolArgs } from "../kernel/index.js";
import { errorResult, okResult, optionalString, requiredString } from "./local-tool.js";
import { looksBinary, pathSubject, resolveInProject } from "./project-files.js";

const SEARCH_MAX_MATCHES = 200;
const SEARCH_MAX_FILE_BYTES = 1024 * 1024;
const SEARCH_MAX_LINE_CHARS = 300;
const SKIPPED_FOLDERS: ReadonlySet<string> = new Set([".git", "node_modules"]);

type SearchArgs = {
  readonly pattern: RegExp;
  readonly path: string;
  readonly accepts: (relativePath: string) => boolean;
};

export function createSearchTool(projectDir: string): Tool<SearchArgs> {
  return {
    name: "search",
    description:
      "Search the project's text files for a JavaScript regular expression, case-sensitive unless it starts " +
      "with `(?i)`. Output: one `file:line: text` per matching line, " +
      "files in name order, lines cut at 300 characters. At most 200 matches (a last line says when " +
      "more were left out). Skips `.git` and `node_modules`, symbolic links, binary files and files over " +
      "1 MiB. `path` narrows the search to a folder or file; `glob` filters file names (`*.ts`, " +
      "`src/**/*.{ts,tsx}`; without `/` it matches the base name).",
    inputSchema: {
      type: "object",
      properties: {
        pattern: { type: "string", description: "A JavaScript regular expression, e.g. `function \\w+\\(`." },
        path: { type: "string", description: "Folder or file to search, relative to the project (default `.`)." },
        glob: { type: "string", description: "Only files whose path matches this glob." },
      },
      required: ["pattern"],
      additionalProperties: false,
    },
    kind: "read",
    source: "local",
    originalName: "search",
    parse: parseArgs,
    gateSubject: ({ path }) => pathSubject(projectDir, path),
    async run(parsed, context) {
      const root = resolveInProject(projectDir, parsed.path);
      if (root instanceof Error) return errorResult(root.message);
      const rootInfo = await stat(root).catch(() => undefined);
      if (rootInfo === undefined) return errorResult(`not found: ${parsed.path}`);

      const lines: string[] = [];
      let truncated = false;
      let oversized = 0;
      const files = rootInfo.isDirectory() ? walk(root, "") : single(root);
      for await (const file of files) {
        if (context.signal.aborted) return errorResult("search aborted");
        if (!parsed.accepts(file.relativePath)) continue;
        const info = await stat(file.absolute).catch(() => undefined);
        if (info === undefined) continue;
        if (info.size > SEARCH_MAX_FILE_BYTES) {
          oversized += 1;
          continue;
        }
        const content = await readFile(file.absolute).catch(() => undefined);
        if (content === undefined || looksBinary(content)) continue;
        const shownPath = relative(resolve(projectDir), file.absolute).split(sep).join("/");
        truncated = collectMatches(content.toString("utf8"), parsed.pattern, shownPath, lines);
        if (truncated) break;
      }

      const notes: string[] = [];
      if (truncated) notes.push(`[stopped at ${SEARCH_MAX_MATCHES} matches; narrow the pattern, path or glob]`);
      if (oversized > 0) notes.push(`[${oversized} files over 1 MiB were not searched]`);
      if (lines.length === 0) return okResult([`no matches for ${parsed.pattern} in ${parsed.path}`, ...notes].join("\n"));
      return okResult([...lines, ...notes].join("\n"));
    },
  };
}

function parseArgs(args: ToolArgs): SearchArgs | Error {
  const source = requiredString(args, "pattern");
  if (source instanceof Error) return source;
  const path = optionalString(args, "path");
  if (path instanceof Error) return path;
  const glob = optionalString(args, "glob");
  if (glob instanceof Error) return glob;
  let pattern: RegExp;
  try {
    // `(?i)` is how grep-minded models ask for case-insensitivity; JavaScript spells it as a flag.
    pattern = source.startsWith("(?i)") ? new RegExp(source.slice(4), "i") : new RegExp(source);
  } catch (error) {
    return new Error(`invalid regular expression: ${describeError(error)}`);
  }
  return { pattern, path: path ?? ".", accepts: glob === undefined ? () => true : compileGlob(glob) };
}

/** Appends `file:line: text` rows; true when the match cap was reached. */
function collectMatches(text: string, pattern: RegExp, shownPath: string, into: string[]): boolean {
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index += 1) {
    const line = (lines[index] ?? "").replace(/\r$/, "");
    if (!pattern.test(line)) continue;
    if (into.length === SEARCH_MAX_MATCHES) return true;
    const shown = line.length > SEARCH_MAX_LINE_CHARS ? `${line.slice(0, SEARCH_MAX_LINE_CHARS)}…` : line;
    into.push(`${shownPath}:${index + 1}: ${shown}`);
  }
  return false;
}

interface FoundFile {
  readonly absolute: string;
  /** Relative to the searched folder, `/`-separated: what the glob is matched against. */
  readonly relativePath: string;
}

async function* single(absolute: string): AsyncGenerator<FoundFile> {
  yield { absolute, relativePath: absolute.slice(absolute.lastIndexOf(sep) + 1) };
}

async function* walk(folder: string, prefix: string): AsyncGenerator<FoundFile> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const relativePath = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    const absolute = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) yield* walk(absolute, relativePath);
    } else if (entry.isFile()) {
      yield { absolute, relativePath };
    }
  }
}

// File-name globs: `*` and `?` stay inside one path segment, `**/` spans folders, `{a,b}` is an
// alternation. A glob without `/` matches the file's base name (`*.ts` anywhere).

/** A predicate over `/`-separated paths relative to the folder being searched. */
export function compileGlob(glob: string): (relativePath: string) => boolean {
  const pattern = globToRegExp(glob);
  if (glob.includes("/")) return (relativePath) => pattern.test(relativePath);
  return (relativePath) => pattern.test(relativePath.slice(relativePath.lastIndexOf("/") + 1));
}

function globToRegExp(glob: string): RegExp {
  let source = "";
  let braceDepth = 0;
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob.charAt(i);
    if (char === "*" && glob.charAt(i + 1) === "*") {
      const slashFollows = glob.charAt(i + 2) === "/";
      source += slashFollows ? "(?:.*/)?" : ".*";
      i += slashFollows ? 2 : 1;
    } else if (char === "*") {
      source += "[^/]*";
    } else if (char === "?") {
      source += "[^/]";
    } else if (char === "{") {
      braceDepth += 1;
      source += "(?:";
    } else if (char === "}" && braceDepth > 0) {
      braceDepth -= 1;
      source += ")";
    } else if (char === "," && braceDepth > 0) {
      source += "|";
    } else {
      source += char.replace(/[.+^$()|[\]\\{}]/g, "\\$&");
    }
  }
  return new RegExp(`^${source}$`);
}
