// What a path-taking write tool reports through `changes`, so the kernel snapshots the file first.
import type { ToolArgs } from "../kernel/index.js";
import { resolveInProject } from "./resolve-in-project.js";
import { requiredString } from "./tool-args.js";

/** The one file a write_file or edit_file call would change, so the kernel can snapshot it first. */
export function changedFiles(projectDir: string, args: ToolArgs): readonly string[] {
  const path = requiredString(args, "path");
  if (path instanceof Error) return [];
  const absolute = resolveInProject(projectDir, path);
  return absolute instanceof Error ? [] : [absolute];
}
