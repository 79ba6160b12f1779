// Tab in the chat's input line: slash commands at the start of a line, tool names after `/call`, a server's
// resources and the project's files after `@`, and file and folder names (relative to the project) anywhere else. Returns what
// readline's completer expects: the candidates, and the part of the line they replace.
import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import type { Mentions } from "./mentions.js";

/** More would not fit on a screen; the user types another letter instead. */
const MAX_CANDIDATES = 100;

export interface CompletionSources {
  readonly commands: readonly string[];
  readonly tools: () => readonly string[];
  readonly projectDir: string;
  /** A word that starts with `@`: the servers that offer resources (`@alias:`), then a server's resource URIs. */
  readonly mentions?: Pick<Mentions, "complete">;
}

export function completeLine(line: string, sources: CompletionSources): [string[], string] {
  if (/^\/\S*$/u.test(line)) {
    return [sources.commands.map((name) => `/${name}`).filter((command) => command.startsWith(line)), line];
  }
  const toolPrefix = /^\/call\s+(\S*)$/u.exec(line)?.[1];
  if (toolPrefix !== undefined) {
    return [sources.tools().filter((name) => name.startsWith(toolPrefix)).slice(0, MAX_CANDIDATES), toolPrefix];
  }
  const word = /(\S*)$/u.exec(line)?.[1] ?? "";
  if (word.startsWith("@")) {
    // `@alias:` and a server's URIs, then the project's files (`@src/ma` → `@src/main.ts`).
    const resources = sources.mentions?.complete(word) ?? [];
    const files = word.includes(":") ? [] : completePath(word.slice(1), sources.projectDir).map((path) => `@${path}`);
    return [[...resources, ...files].slice(0, MAX_CANDIDATES), word];
  }
  return [completePath(word, sources.projectDir), word];
}

/** `src/ma` → `src/main.ts`, `src/main/`…; hidden entries only when the name typed starts with a dot. */
function completePath(word: string, projectDir: string): string[] {
  const slash = word.lastIndexOf("/");
  const folderPart = slash === -1 ? "" : word.slice(0, slash + 1);
  const namePart = word.slice(slash + 1);
  const folder = resolve(projectDir, folderPart === "" ? "." : folderPart);
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.name.startsWith(namePart) && (namePart.startsWith(".") || !entry.name.startsWith(".")))
    .map((entry) => `${folderPart}${entry.name}${entry.isDirectory() ? "/" : ""}`)
    .sort()
    .slice(0, MAX_CANDIDATES);
}
