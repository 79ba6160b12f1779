// How tests launch the scripted legacy stdio server (legacy-stdio-server.mjs).
import { fileURLToPath } from "node:url";

const SCRIPT_PATH = fileURLToPath(new URL("./legacy-stdio-server.mjs", import.meta.url));

/** The command and args for a StdioTransport; each flag is `--name` or `--name=value`. */
export function legacyStdioServer(...flags: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [SCRIPT_PATH, ...flags] };
}
