// list_dir: the entries of a project folder, sorted, folders marked with a trailing slash.
import { readdir } from "node:fs/promises";
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
    async run({ path: shown }) {
      const absolute = resolveInProject(projectDir, shown);
      if (absolute instanceof Error) return errorResult(absolute.message);
      let entries;
      try {
        entries = await readdir(absolute, { withFileTypes: true });
      } catch (error) {
        const code = error instanceof Error && "code" in error ? error.code : undefined;
        if (code === "ENOENT") return errorResult(`folder not found: ${shown}`);
        if (code === "ENOTDIR") return errorResult(`${shown} is a file, not a folder; use read_file`);
        return errorResult(`could not list ${shown}: ${describeError(error)}`);
      }
      if (entries.length === 0) return okResult(`(${shown} is empty)`);
      // Code-unit order, not locale order: the same listing on every machine.
      const names = entries.map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name)).sort();
      const kept = names.slice(0, LIST_MAX_ENTRIES);
      const more = names.length - kept.length;
      return okResult(more > 0 ? `${kept.join("\n")}\n[${more} more entries not shown]` : kept.join("\n"));
    },
  };
}

function parseArgs(args: ToolArgs): ListArgs | Error {
  const path = optionalString(args, "path");
  if (path instanceof Error) return path;
  return { path: path ?? "." };
}
