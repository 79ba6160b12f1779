// The public surface of src/tools: the local coding tools as one table (adding a tool is adding a row).
// The rest of the program imports this folder only through here.
import type { Tool } from "../kernel/index.js";
import { createBashTool } from "./bash.js";
import { createEditFileTool } from "./edit-file.js";
import { createListDirTool } from "./list-dir.js";
import { createReadFileTool } from "./read-file.js";
import { createSearchTool } from "./search.js";
import { createWriteFileTool } from "./write-file.js";

export { NOT_A_REGULAR_FILE, openRegularFile } from "./project-files.js";

const LOCAL_TOOL_FACTORIES: ReadonlyArray<(projectDir: string) => Tool> = [
  createReadFileTool,
  createWriteFileTool,
  createEditFileTool,
  createListDirTool,
  createSearchTool,
  (projectDir) => createBashTool(projectDir),
];

/** Every local tool, confined to `projectDir`. */
export function createLocalTools(projectDir: string): Tool[] {
  return LOCAL_TOOL_FACTORIES.map((create) => create(projectDir));
}
