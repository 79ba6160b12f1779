// list_dir: the entries of a project folder, sorted, folders marked with a trailing slash. The folder is
// read entry by entry and only the first names in order are kept, so a folder of 200,000 entries costs
// the memory of 1,000 names (and the time to count the rest).
import type { Dir } from "node:fs";
import { opendir } from "node:fs/promises";
import { describeError, type Tool, type ToolArgs } from "../kernel/index.js";
import { errorResult, okResult, optionalString } from "./local-tool.js";
import { pathSubject, resolveInProject } from "./project-files.js";

const LIST_MAX_ENTRIES = 1_000;

type ListArgs = { readonly path: string };

export function createListDirTool(projectDir: string): Tool<ListArgs> {
  return {
    name: "list_dir",
    description:
      "List the entries of a project folder (default: the project folder itself), one per line, sorted by " +
      "name, folders with a trailing `/`. Not recursive; hidden entries included; at most 1,000 entries " +
      "(a last line says how many more there are). Use search to find files by content.",
    inputSchema: {
      type: "object",
      properties: {
        path: { type: "string", description: "Folder path, relative to the project folder (default `.`)." },
      },
      additionalProperties: false,
    },
    kind: "read",
    source: "local",
    originalName: "list_dir",
    parse: parseArgs,
    gateSubject: ({ path }) => pathSubject(projectDir, path),
    async run({ path: shown }, context) {
      const absolute = resolveInProject(projectDir, shown);
      if (absolute instanceof Error) return errorResult(absolute.message);
      let folder: Dir;
      try {
        folder = await opendir(absolute, { bufferSize: 256 });
      } catch (error) {
        const code = error instanceof Error && "code" in error ? error.code : undefined;
        if (code === "ENOENT") return errorResult(`folder not found: ${shown}`);
        if (code === "ENOTDIR") return errorResult(`${shown} is a file, not a folder; use read_file`);
        return errorResult(`could not list ${shown}: ${describeError(error)}`);
      }
      const first = createFirstNames(LIST_MAX_ENTRIES);
      try {
        for await (const entry of folder) {
          if (context.signal.aborted) return errorResult("list_dir aborted");
          first.add(entry.isDirectory() ? `${entry.name}/` : entry.name);
        }
      } catch (error) {
        return errorResult(`could not list ${shown}: ${describeError(error)}`);
      }
      // (The async iterator closes the folder when it ends, breaks or throws.)
      const { names, more } = first.result();
      if (names.length === 0) return okResult(`(${shown} is empty)`);
      return okResult(more > 0 ? `${names.join("\n")}\n[${more} more entries not shown]` : names.join("\n"));
    },
  };
}

/**
 * The `cap` smallest names of a stream in code-unit order (not locale order: the same listing on every
 * machine), and how many others there were. Names gather in a buffer of twice the cap, which is sorted
 * and trimmed when full, so memory stays at 2 × cap names and the work at O(n log cap).
 */
function createFirstNames(cap: number): { add(name: string): void; result(): { names: string[]; more: number } } {
  let kept: string[] = [];
  let seen = 0;
  const trim = (): void => {
    kept.sort();
    kept = kept.slice(0, cap);
  };
  return {
    add(name) {
      seen += 1;
      kept.push(name);
      if (kept.length >= 2 * cap) trim();
    },
    result() {
      trim();
      return { names: kept, more: seen - kept.length };
    },
  };
}

function parseArgs(args: ToolArgs): ListArgs | Error {
  const path = optionalString(args, "path");
  if (path instanceof Error) return path;
  return { path: path ?? "." };
}
