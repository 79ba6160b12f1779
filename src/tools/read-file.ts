// read_file: a text file of the project as numbered lines, a window at a time (offset/limit in lines).
import { readFile, stat } from "node:fs/promises";
import { describeError, type Tool, type ToolArgs, type ToolResult } from "../kernel/index.js";
import { errorResult, okResult, optionalInteger, requiredString } from "./local-tool.js";
import { looksBinary, pathSubject, resolveInProject } from "./project-files.js";

const READ_DEFAULT_LINES = 2_000;
const READ_MAX_FILE_BYTES = 10 * 1024 * 1024;

type ReadArgs = { readonly path: string; readonly offset: number; readonly limit: number };

export function createReadFileTool(projectDir: string): Tool<ReadArgs> {
  return {
    name: "read_file",
    description:
      "Read a text file of the project. Returns numbered lines (`<line number>\\t<text>`; the number and tab " +
      "are not part of the file). `offset` is the 1-based first line (default 1), `limit` the number of lines " +
      "(default and maximum 2,000). When lines remain, a last line says " +
      "which offset continues. Files over 10 MiB and binary files are refused. The result is cut to 8,000 " +
      "characters by the agent anyway, so read long files in windows.",
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
    async run({ path, offset, limit }) {
      const absolute = resolveInProject(projectDir, path);
      if (absolute instanceof Error) return errorResult(absolute.message);
      const info = await stat(absolute).catch(() => undefined);
      if (info === undefined) return errorResult(`file not found: ${path}`);
      if (info.isDirectory()) return errorResult(`${path} is a folder; use list_dir to see its entries`);
      if (info.size > READ_MAX_FILE_BYTES) {
        return errorResult(`${path} is ${info.size} bytes, over the 10 MiB limit; use bash (head, sed -n) instead`);
      }
      const content = await readFile(absolute).catch((error: unknown) => new Error(describeError(error)));
      if (content instanceof Error) return errorResult(`could not read ${path}: ${content.message}`);
      if (looksBinary(content)) return errorResult(`${path} looks like a binary file; read_file shows text only`);
      return numberedWindow(path, content.toString("utf8"), offset, limit);
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

function numberedWindow(path: string, text: string, offset: number, limit: number): ToolResult {
  if (text === "") return okResult(`(${path} is empty)`);
  const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
  if (offset > lines.length) {
    return errorResult(`offset ${offset} is past the end of ${path} (${lines.length} lines)`);
  }
  const window = lines.slice(offset - 1, offset - 1 + limit);
  const numbered = window.map((line, index) => `${offset + index}\t${line}`).join("\n");
  const last = offset - 1 + window.length;
  if (last >= lines.length) return okResult(numbered);
  return okResult(`${numbered}\n[lines ${offset}-${last} of ${lines.length}; continue with offset ${last + 1}]`);
}
