// read_file: a text file of the project as numbered lines, a window at a time (offset/limit in lines).
// The file is read a chunk at a time up to the end of the window, so a window near the start of a 2 GB
// file costs what the window costs; the window also ends where the result budget would cut it.
import { lstat, stat } from "node:fs/promises";
import { describeError, MAX_RESULT_CHARS, type Tool, type ToolArgs, type ToolResult } from "../kernel/index.js";
import { errorResult, okResult, optionalInteger, requiredString } from "./local-tool.js";
import { pathSubject, resolveInProject } from "./project-files.js";
import { openTextFile, type TextFile, type TextLine } from "./text-lines.js";

const READ_DEFAULT_LINES = 2_000;
const READ_MAX_LINE_CHARS = 2_000;
/** Up to this size the file is read to its end after the window, to say how many lines it has. */
const READ_COUNT_LINES_MAX_BYTES = 10 * 1024 * 1024;
/** Room kept under the result budget for the last line that says where to continue. */
const CONTINUATION_CHARS = 120;

type ReadArgs = { readonly path: string; readonly offset: number; readonly limit: number };

/**
 * `isSpillFile`: whether an absolute path is one of this session's kept results (a result cut to the budget
 * names it): the only files outside the project read_file reads.
 */
export function createReadFileTool(projectDir: string, isSpillFile: (path: string) => boolean = () => false): Tool<ReadArgs> {
  return {
    name: "read_file",
    description:
      "Read a text file of the project. Returns numbered lines (`<line number>\\t<text>`; the number and tab " +
      "are not part of the file). `offset` is the 1-based first line (default 1), `limit` the number of lines " +
      "(default and maximum 2,000). The window also ends before 8,000 characters, the result budget. When " +
      "lines remain, a last line says which offset continues. Lines over 2,000 characters are cut (the line " +
      "ends with `… [line cut]`). Files of any size can be read in windows; binary files are refused. Outside the " +
      "project, only the file a cut tool result names (where its whole text is kept) can be read, by the path given.",
    inputSchema: {
      type: "object",
      properties: {
        path: { type: "string", description: "File path, relative to the project folder." },
        offset: { type: "integer", minimum: 1, description: "First line to return, 1-based." },
        limit: { type: "integer", minimum: 1, maximum: READ_DEFAULT_LINES, description: "How many lines." },
      },
      required: ["path"],
      additionalProperties: false,
    },
    kind: "read",
    source: "local",
    originalName: "read_file",
    parse: parseArgs,
    gateSubject: ({ path }) => pathSubject(projectDir, path),
    async run(args, context) {
      const spilled = isSpillFile(args.path);
      const absolute = spilled ? args.path : resolveInProject(projectDir, args.path);
      if (absolute instanceof Error) return errorResult(absolute.message);
      // A kept result is a file mca wrote: a symlink in its place is not followed.
      const info = await (spilled ? lstat : stat)(absolute).catch(() => undefined);
      if (info === undefined) return errorResult(`file not found: ${args.path}`);
      if (info.isDirectory()) return errorResult(`${args.path} is a folder; use list_dir to see its entries`);
      // Opening a named pipe waits for a writer, for ever: only regular files are read.
      if (!info.isFile()) return errorResult(`${args.path} is not a regular file (a pipe, socket or device); read_file reads files only`);
      let file: TextFile;
      try {
        file = await openTextFile(absolute);
      } catch (error) {
        return errorResult(`could not read ${args.path}: ${describeError(error)}`);
      }
      try {
        if (file.binary) return errorResult(`${args.path} looks like a binary file; read_file shows text only`);
        const lines = file.lines({ maxLineChars: READ_MAX_LINE_CHARS, signal: context.signal });
        return await numberedWindow(args, lines, info.size);
      } catch (error) {
        return errorResult(`could not read ${args.path}: ${describeError(error)}`);
      } finally {
        await file.close();
      }
    },
  };
}

function parseArgs(args: ToolArgs): ReadArgs | Error {
  const path = requiredString(args, "path");
  if (path instanceof Error) return path;
  const offset = optionalInteger(args, "offset", { min: 1, max: Number.MAX_SAFE_INTEGER });
  if (offset instanceof Error) return offset;
  const limit = optionalInteger(args, "limit", { min: 1, max: READ_DEFAULT_LINES });
  if (limit instanceof Error) return limit;
  return { path, offset: offset ?? 1, limit: limit ?? READ_DEFAULT_LINES };
}

async function numberedWindow(
  { path, offset, limit }: ReadArgs,
  lines: AsyncGenerator<TextLine>,
  sizeBytes: number,
): Promise<ToolResult> {
  const shown: string[] = [];
  let shownChars = 0;
  let total = 0;
  let more = false;
  for await (const line of lines) {
    total = line.number;
    if (line.number < offset) continue;
    const row = `${line.number}\t${line.text}${line.cut ? "… [line cut]" : ""}`;
    const full = shown.length === limit || shownChars + row.length + 1 > MAX_RESULT_CHARS - CONTINUATION_CHARS;
    if (full) {
      more = true;
      // A small file is counted to its end, to say how many lines it has; a large one is left unread.
      if (sizeBytes > READ_COUNT_LINES_MAX_BYTES) break;
      continue;
    }
    shown.push(row);
    shownChars += row.length + 1;
  }
  if (total === 0) return okResult(`(${path} is empty)`);
  if (shown.length === 0) return errorResult(`offset ${offset} is past the end of ${path} (${total} lines)`);
  const numbered = shown.join("\n");
  if (!more) return okResult(numbered);
  const last = offset + shown.length - 1;
  const of = sizeBytes > READ_COUNT_LINES_MAX_BYTES ? `of a ${sizeBytes}-byte file` : `of ${total}`;
  return okResult(`${numbered}\n[lines ${offset}-${last} ${of}; continue with offset ${last + 1}]`);
}
