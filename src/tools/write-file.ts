// write_file: creates or overwrites a project file with the given content, creating parent folders.
import { mkdir, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { Tool } from "../kernel/index.js";
import { changedFiles } from "./changed-files.js";
import { resolveInProject } from "./resolve-in-project.js";
import { requiredString } from "./tool-args.js";
import { errorResult, okResult } from "./tool-result.js";

export function createWriteFileTool(projectDir: string): Tool {
  return {
    name: "write_file",
    description:
      "Create or overwrite a file of the project with `content` (UTF-8), creating missing parent folders. " +
      "Replaces the whole file: to change part of an existing file, prefer edit_file. " +
      "Paths outside the project folder are refused.",
    inputSchema: {
      type: "object",
      properties: {
        path: { type: "string", description: "File path, relative to the project folder." },
        content: { type: "string", description: "The complete new content of the file." },
      },
      required: ["path", "content"],
      additionalProperties: false,
    },
    kind: "write",
    source: "local",
    originalName: "write_file",
    changes: (args) => changedFiles(projectDir, args),
    async run(args) {
      const path = requiredString(args, "path");
      if (path instanceof Error) return errorResult(path.message);
      const content = requiredString(args, "content");
      if (content instanceof Error) return errorResult(content.message);
      const absolute = resolveInProject(projectDir, path);
      if (absolute instanceof Error) return errorResult(absolute.message);
      const existing = await stat(absolute).catch(() => undefined);
      if (existing?.isDirectory()) return errorResult(`${path} is a folder, not a file`);
      try {
        await mkdir(dirname(absolute), { recursive: true });
        await writeFile(absolute, content, "utf8");
      } catch (error) {
        return errorResult(`could not write ${path}: ${error instanceof Error ? error.message : String(error)}`);
      }
      const verb = existing === undefined ? "created" : "overwrote";
      return okResult(`${verb} ${path} (${Buffer.byteLength(content, "utf8")} bytes)`);
    },
  };
}
