// The public surface of src/tools: the local coding tools as one table (adding a tool is adding a row).
// The rest of the program imports this folder only through here.
import type { Tool } from "../kernel/index.js";
import { createBashTool, type BashSandbox } from "./bash.js";
import { createEditFileTool } from "./edit-file.js";
import { createListDirTool } from "./list-dir.js";
import { createReadFileTool } from "./read-file.js";
import { createSearchTool } from "./search.js";
import { createWriteFileTool } from "./write-file.js";

export { NOT_A_REGULAR_FILE, openRegularFile, resolveInProject } from "./project-files.js";
export { detectSandbox, findSandbox, homeInProjectNotice, type SandboxAvailability } from "./sandbox.js";
export type { BashSandbox } from "./bash.js";
export type { GuardedPlace } from "./read-only-places.js";
export { sandboxPlaces, type SandboxPlaces, type SandboxPlaceSources } from "./sandbox-places.js";

export interface LocalToolOptions {
  /** Where bash commands run; absent: no sandbox. */
  readonly sandbox?: BashSandbox;
  /** The session's kept results (a cut result names its file), which read_file reads outside the project; absent: none. */
  readonly isSpillFile?: (path: string) => boolean;
}

const LOCAL_TOOL_FACTORIES: ReadonlyArray<(projectDir: string, options: LocalToolOptions) => Tool> = [
  (projectDir, { isSpillFile }) => createReadFileTool(projectDir, isSpillFile),
  createWriteFileTool,
  createEditFileTool,
  createListDirTool,
  (projectDir) => createSearchTool(projectDir),
  (projectDir, { sandbox }) => createBashTool(projectDir, sandbox === undefined ? {} : { sandbox }),
];

/** Every local tool, confined to `projectDir`. */
export function createLocalTools(projectDir: string, options: LocalToolOptions = {}): Tool[] {
  return LOCAL_TOOL_FACTORIES.map((create) => create(projectDir, options));
}
export { createDomainAccess, type DomainAccess, type DomainApprover, type DomainSources } from "./domain-access.js";
