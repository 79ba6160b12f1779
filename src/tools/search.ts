// search: a JavaScript regular expression over the project's text files, line by line, skipping
// `.git` and `node_modules`; file names filtered by a glob. It stops at whichever comes first: a cap on
// matches, the result budget, its time limit or Ctrl-C. Files are read a chunk at a time and the pattern
// runs in a worker (see line-matcher), so neither a huge file nor a catastrophic pattern can hold it.
import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { describeError, MAX_RESULT_CHARS, type Tool, type ToolArgs, type ToolResult } from "../kernel/index.js";
import { startLineMatcher, type LineMatcher } from "./line-matcher.js";
import { errorResult, okResult, optionalString, requiredString } from "./local-tool.js";
import { pathSubject, resolveInProject } from "./project-files.js";
import { openTextFile, type TextLine } from "./text-lines.js";

const SEARCH_MAX_MATCHES = 200;
/** The whole search, walking, reading and matching, ends by then. */
const SEARCH_TIME_LIMIT_MS = 5_000;
const SEARCH_SHOWN_LINE_CHARS = 300;
/** A longer line is matched on its beginning only, so one endless line cannot fill memory. */
const SEARCH_MATCHED_LINE_CHARS = 100_000;
/** Lines are sent to the matcher in batches of about this many characters, across files. */
const BATCH_CHARS = 256 * 1024;
/** Room kept under the result budget for the sentence that says why the search ended. */
const NOTE_CHARS = 400;
const SKIPPED_FOLDERS: ReadonlySet<string> = new Set([".git", "node_modules"]);

type SearchArgs = {
  readonly pattern: RegExp;
  readonly path: string;
  readonly accepts: (relativePath: string) => boolean;
};

export interface SearchLimits {
  readonly timeLimitMs: number;
}

export function createSearchTool(projectDir: string, limits: SearchLimits = { timeLimitMs: SEARCH_TIME_LIMIT_MS }): Tool<SearchArgs> {
  const seconds = limits.timeLimitMs / 1000;
  return {
    name: "search",
    description:
      "Search the project's text files for a JavaScript regular expression, case-sensitive unless it starts " +
      "with `(?i)`. Output: one `file:line: text` per matching line, " +
      "files in name order, lines cut at 300 characters (lines over 100,000 characters are matched on " +
      "their beginning only). Stops at 200 matches or 8,000 characters of output (a last line says so). " +
      `The whole search is limited to ${seconds} seconds: a pattern that backtracks badly (like \`(a+)+$\`) ` +
      "or a search over too much is stopped there with an error. Skips `.git` and `node_modules`, " +
      "symbolic links and binary files. `path` narrows the search to a folder or file; `glob` filters " +
      "file names (`*.ts`, `src/**/*.{ts,tsx}`; without `/` it matches the base name).",
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
      // Opening a named pipe waits for a writer, for ever: the walk takes regular files only, and so does this.
      if (!rootInfo.isDirectory() && !rootInfo.isFile()) return errorResult(`${parsed.path} is not a regular file or a folder`);

      // One stop for the user's Ctrl-C and the time limit (by hand: AbortSignal.any needs Node 20.3).
      const stop = new AbortController();
      const onAbort = (): void => stop.abort();
      context.signal.addEventListener("abort", onAbort);
      if (context.signal.aborted) onAbort();
      const timer = setTimeout(onAbort, limits.timeLimitMs);
      const matcher = startLineMatcher(parsed.pattern, stop.signal);
      const found = createFoundLines(matcher);
      let ending: Ending;
      try {
        const files = rootInfo.isDirectory() ? walk(root, "") : single(root);
        ending = await searchFiles(files, parsed, projectDir, found, stop.signal);
      } finally {
        clearTimeout(timer);
        context.signal.removeEventListener("abort", onAbort);
        await matcher.close();
      }
      if (context.signal.aborted) return errorResult("search aborted");
      return report(ending, found.lines, parsed, seconds);
    },
  };
}

/** Why the search ended: it saw everything, or a cap, the stop signal or a failure ended it early. */
type Ending =
  | { readonly kind: "complete" }
  | { readonly kind: "match_cap" }
  | { readonly kind: "budget" }
  | { readonly kind: "stopped" }
  | { readonly kind: "failed"; readonly message: string };

async function searchFiles(
  files: AsyncGenerator<FoundFile>,
  parsed: SearchArgs,
  projectDir: string,
  found: FoundLines,
  stop: AbortSignal,
): Promise<Ending> {
  for await (const file of files) {
    if (stop.aborted) return { kind: "stopped" };
    if (!parsed.accepts(file.relativePath)) continue;
    const text = await openTextFile(file.absolute).catch(() => undefined);
    if (text === undefined) continue;
    try {
      if (text.binary) continue;
      const shownPath = relative(resolve(projectDir), file.absolute).split(sep).join("/");
      for await (const line of text.lines({ maxLineChars: SEARCH_MATCHED_LINE_CHARS, signal: stop })) {
        const ending = await found.add(shownPath, line);
        if (ending !== undefined) return ending;
      }
    } finally {
      await text.close();
    }
  }
  if (stop.aborted) return { kind: "stopped" };
  return (await found.flush()) ?? { kind: "complete" };
}

interface FoundLines {
  /** Queues a line for matching; an Ending once the search must end. */
  add(shownPath: string, line: TextLine): Promise<Ending | undefined>;
  /** Matches what is queued. */
  flush(): Promise<Ending | undefined>;
  /** `file:line: text` rows, in file and line order. */
  readonly lines: readonly string[];
}

function createFoundLines(matcher: LineMatcher): FoundLines {
  const lines: string[] = [];
  let shownChars = 0;
  let batch: { readonly shownPath: string; readonly number: number; readonly text: string }[] = [];
  let batchChars = 0;
  const flush = async (): Promise<Ending | undefined> => {
    const queued = batch;
    batch = [];
    batchChars = 0;
    if (queued.length === 0) return undefined;
    // One more than the cap, to know whether the cap left matches out.
    const outcome = await matcher.match(queued.map((line) => line.text), SEARCH_MAX_MATCHES - lines.length + 1);
    if (outcome.kind !== "matched") return outcome;
    for (const index of outcome.indexes) {
      const line = queued[index];
      if (line === undefined) continue;
      if (lines.length === SEARCH_MAX_MATCHES) return { kind: "match_cap" };
      const shown = line.text.length > SEARCH_SHOWN_LINE_CHARS ? `${line.text.slice(0, SEARCH_SHOWN_LINE_CHARS)}…` : line.text;
      const row = `${line.shownPath}:${line.number}: ${shown}`;
      if (shownChars + row.length + 1 > MAX_RESULT_CHARS - NOTE_CHARS) return { kind: "budget" };
      lines.push(row);
      shownChars += row.length + 1;
    }
    return undefined;
  };
  return {
    async add(shownPath, { number, text, cut }) {
      batch.push({ shownPath, number, text });
      batchChars += text.length;
      // After a cut line the rest of it may be long to pass over (a 2 GB file of one line): what is
      // queued is matched first, so a search that has enough stops without reading it.
      return batchChars >= BATCH_CHARS || cut ? flush() : undefined;
    },
    flush,
    lines,
  };
}

function report(ending: Ending, lines: readonly string[], parsed: SearchArgs, seconds: number): ToolResult {
  const none = `no matches for ${parsed.pattern} in ${parsed.path}`;
  const body = lines.length === 0 ? [none] : [...lines];
  switch (ending.kind) {
    case "complete":
      return okResult(body.join("\n"));
    case "match_cap":
      return okResult([...body, `[stopped at ${SEARCH_MAX_MATCHES} matches; narrow the pattern, path or glob]`].join("\n"));
    case "budget":
      return okResult([...body, `[stopped at ${MAX_RESULT_CHARS} characters of results; narrow the pattern, path or glob]`].join("\n"));
    case "stopped":
      return errorResult(
        [
          `search stopped at its time limit of ${seconds} seconds: the pattern may backtrack catastrophically ` +
            "(nested repetition like (a+)+), or there was too much to search; simplify the pattern or narrow path or glob. " +
            (lines.length === 0 ? "No matches before it stopped." : "Matches found before it stopped:"),
          ...lines,
        ].join("\n"),
      );
    case "failed":
      return errorResult(`search failed: ${ending.message}`);
    default: {
      const unknown: never = ending;
      throw new Error(`unknown ending ${JSON.stringify(unknown)}`);
    }
  }
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
