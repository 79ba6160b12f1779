// Where the third-party MCP servers (dev dependencies) live, and how a test launches them: as plain
// `node <script>` commands, the shape an `mcpServers` entry and the SDK's stdio transport both take.
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);

export const EVERYTHING_SCRIPT = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
export const FILESYSTEM_SCRIPT = require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js");
export const MEMORY_SCRIPT = require.resolve("@modelcontextprotocol/server-memory/dist/index.js");
/** Absolute, so that a child started from any folder finds the loader. */
const TSX_LOADER = pathToFileURL(require.resolve("tsx")).href;
const SDK_V2_STDIO_MAIN = fileURLToPath(new URL("./sdk-v2-stdio-main.ts", import.meta.url));

export interface NodeCommand {
  readonly command: string;
  readonly args: string[];
}

export function everythingStdio(): NodeCommand {
  return { command: process.execPath, args: [EVERYTHING_SCRIPT, "stdio"] };
}

/** Only `folder` (and what is under it) is open to the server. */
export function filesystemStdio(folder: string): NodeCommand {
  return { command: process.execPath, args: [FILESYSTEM_SCRIPT, folder] };
}

/** The memory file is named by the environment (`MEMORY_FILE_PATH`), which the caller sets. */
export function memoryStdio(): NodeCommand {
  return { command: process.execPath, args: [MEMORY_SCRIPT] };
}

export function sdkV2Stdio(): NodeCommand {
  return { command: process.execPath, args: ["--import", TSX_LOADER, SDK_V2_STDIO_MAIN] };
}
