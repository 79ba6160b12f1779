// edit_file: replaces one exact occurrence of a string in a project file; an ambiguous or missing
// match is an error the model can fix by quoting more context. The edit works on the file's bytes (the
// strings are matched as UTF-8), so every byte outside the replaced span stays as it was, even in a file
// that is not valid UTF-8 (decoding and re-encoding would turn each invalid byte into U+FFFD).
import { isUtf8 } from "node:buffer";
import { stat } from "node:fs/promises";
import { describeError, type Tool, type ToolArgs } from "../kernel/index.js";
import { errorResult, okResult, requiredString } from "./local-tool.js";
import { changedFiles, openRegularFile, pathSubject, resolveInProject } from "./project-files.js";

type EditArgs = { readonly path: string; readonly oldString: string; readonly newString: string };

export function createEditFileTool(projectDir: string): Tool<EditArgs> {
  return {
    name: "edit_file",
    description:
      "Replace text in a project file: `old_string` must occur exactly once in the file (character for " +
      "character, including whitespace and indentation; without read_file's line numbers) and is replaced " +
      "by `new_string`. When it occurs 0 or several times nothing changes and the error says how many " +
      "times it matched: quote more surrounding lines to make it unique. Bytes outside the replaced text are " +
      "kept exactly, also in files that are not valid UTF-8 (text there can only match its UTF-8 parts). " +
      "To create a file, use write_file.",
    inputSchema: {
      type: "object",
      properties: {
        path: { type: "string", description: "File path, relative to the project folder." },
        old_string: { type: "string", description: "The exact text to replace; must occur exactly once." },
        new_string: { type: "string", description: "The replacement text." },
      },
      required: ["path", "old_string", "new_string"],
      additionalProperties: false,
    },
    kind: "write",
    source: "local",
    originalName: "edit_file",
    parse: parseArgs,
    gateSubject: ({ path }) => pathSubject(projectDir, path),
    changes: ({ path }) => changedFiles(projectDir, path),
    async run({ path, oldString, newString }) {
      const absolute = resolveInProject(projectDir, path);
      if (absolute instanceof Error) return errorResult(absolute.message);
      const info = await stat(absolute).catch(() => undefined);
      // Opening a named pipe waits for a writer, for ever: only regular files are edited.
      if (info !== undefined && !info.isFile() && !info.isDirectory()) return errorResult(`${path} is not a regular file`);
      let content: Buffer;
      try {
        const file = await openRegularFile(absolute, "read");
        content = await file.readFile().finally(() => file.close());
      } catch (error) {
        return errorResult(readFailure(path, error));
      }
      const needle = Buffer.from(oldString, "utf8");
      const matches = countOccurrences(content, needle);
      if (matches !== 1) {
        const why = isUtf8(content) ? "" : ` (${path} is not valid UTF-8 text: only its UTF-8 parts can match)`;
        return errorResult(
          `old_string matched ${matches} times in ${path}${why}; it must match exactly once, so nothing was changed`,
        );
      }
      const at = content.indexOf(needle);
      const updated = Buffer.concat([content.subarray(0, at), Buffer.from(newString, "utf8"), content.subarray(at + needle.length)]);
      try {
        const file = await openRegularFile(absolute, "write");
        await file.writeFile(updated).finally(() => file.close());
      } catch (error) {
        return errorResult(`could not write ${path}: ${describeError(error)}`);
      }
      const line = countOccurrences(content.subarray(0, at), NEWLINE) + 1;
      return okResult(`edited ${path}: replaced 1 occurrence at line ${line}`);
    },
  };
}

function parseArgs(args: ToolArgs): EditArgs | Error {
  const path = requiredString(args, "path");
  if (path instanceof Error) return path;
  const oldString = requiredString(args, "old_string");
  if (oldString instanceof Error) return oldString;
  const newString = requiredString(args, "new_string");
  if (newString instanceof Error) return newString;
  if (oldString === "") return new Error(`argument "old_string" must not be empty; use write_file to create a file`);
  if (oldString === newString) return new Error("old_string and new_string are the same; nothing would change");
  return { path, oldString, newString };
}

const NEWLINE = Buffer.from("\n");

/** Overlapping occurrences count: in "aaa", "aa" is ambiguous, so it counts twice. */
function countOccurrences(content: Buffer, needle: Buffer): number {
  let count = 0;
  for (let at = content.indexOf(needle); at !== -1; at = content.indexOf(needle, at + 1)) count += 1;
  return count;
}

function readFailure(path: string, error: unknown): string {
  const code = error instanceof Error && "code" in error ? error.code : undefined;
  if (code === "ENOENT") return `file not found: ${path}`;
  if (code === "EISDIR") return `${path} is a folder, not a file`;
  return `could not read ${path}: ${describeError(error)}`;
}
