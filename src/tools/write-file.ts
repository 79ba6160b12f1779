// write_file: creates or overwrites a project file with the given content, creating parent folders.
import { mkdir, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { describeError, type Tool, type ToolArgs } from "../kernel/index.js";
import { errorResult, okResult, requiredString } from "./local-tool.js";
import { changedFiles, openRegularFile, pathSubject, resolveInProject } from "./project-files.js";

type WriteArgs = { readonly path: string; readonly content: string };

export function createWriteFileTool(projectDir: string): Tool<WriteArgs> {
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
    parse: parseArgs,
    gateSubject: ({ path }) => pathSubject(projectDir, path),
    changes: ({ path }) => changedFiles(projectDir, path),
    async run({ path, content }) {
      const absolute = resolveInProject(projectDir, path);
      if (absolute instanceof Error) return errorResult(absolute.message);
      const existing = await stat(absolute).catch(() => undefined);
      if (existing?.isDirectory()) return errorResult(`${path} is a folder, not a file`);
      // Opening a named pipe waits for a reader, for ever: only regular files are written.
      if (existing !== undefined && !existing.isFile()) return errorResult(`${path} is not a regular file`);
      try {
        await mkdir(dirname(absolute), { recursive: true });
        const file = await openRegularFile(absolute, "write");
        await file.writeFile(content, "utf8").finally(() => file.close());
      } catch (error) {
        return errorResult(`could not write ${path}: ${describeError(error)}`);
      }
      const verb = existing === undefined ? "created" : "overwrote";
      return okResult(`${verb} ${path} (${Buffer.byteLength(content, "utf8")} bytes)`);
    },
  };
}

function parseArgs(args: ToolArgs): WriteArgs | Error {
  const path = requiredString(args, "path");
  if (path instanceof Error) return path;
  const content = requiredString(args, "content");
  if (content instanceof Error) return content;
  return { path, content };
}
