// Adding and removing MCP servers in the scope files, as `mca mcp add` / `remove` / `get` do: each scope's
// file is edited in place (jsonc-edit.ts), an entry is checked with the reader that reads it at start-up
// before anything is written, and an alias is never written twice into one scope.
import { join } from "node:path";
import { sanitizeAlias } from "../mcp/index.js";
import { ConfigError, projectKey, readConfigJson, readingConfig, type Env } from "./config-reader.js";
import { hostVariables } from "./host-variables.js";
import { insertAt, keysAt, parseEditable, readEditable, removeAt, valueAt, writeAtomically, type JsonValue } from "./jsonc-edit.js";
import { readServer, type ConfigPlace } from "./server-entry.js";
import { userConfigDir } from "./settings.js";

export type McpScope = "local" | "project" | "user";

/** Narrowest first: the same alias in two scopes is taken from the narrower one. */
export const MCP_SCOPES: readonly McpScope[] = ["local", "project", "user"];

/** Where one scope keeps its servers: a file, and the path in it to the `mcpServers` object. */
export interface ServersPlace {
  readonly scope: McpScope;
  readonly file: string;
  readonly path: readonly string[];
}

/** Where a command runs: the project folder and the environment (the user's config folder, and `${VAR}`s). */
export interface EditContext {
  readonly projectDir: string;
  readonly env: Env;
}

/** `<user config folder>/mcp.json`: the user's servers, in every project. */
export function userMcpFile(env: Env): string {
  return join(userConfigDir(env), "mcp.json");
}

/** `<user config folder>/local-mcp.json`: `{ "projects": { "<real path>": { "mcpServers": … } } }`, never in the repository. */
export function localMcpFile(env: Env): string {
  return join(userConfigDir(env), "local-mcp.json");
}

/** `.mcp.json` is written (as Claude Code writes it); the older `mcp.config.json` is read, and edited only where it holds the alias. */
export const PROJECT_MCP_FILES = [".mcp.json", "mcp.config.json"] as const;

/** The scope's files, the one `add` writes first. */
export function scopePlaces(scope: McpScope, context: EditContext): ServersPlace[] {
  switch (scope) {
    case "user":
      return [{ scope, file: userMcpFile(context.env), path: ["mcpServers"] }];
    case "local":
      return [{ scope, file: localMcpFile(context.env), path: ["projects", projectKey(context.projectDir), "mcpServers"] }];
    case "project":
      return PROJECT_MCP_FILES.map((name) => ({ scope, file: join(context.projectDir, name), path: ["mcpServers"] }));
    default: {
      const unknown: never = scope;
      throw new Error(`unknown scope ${String(unknown)}`);
    }
  }
}

/** A scope file's servers as written, read for an edit. */
interface ReadPlace {
  readonly place: ServersPlace;
  readonly text: string | null;
  readonly mode: number | undefined;
  readonly aliases: readonly string[];
  readonly entries: ReadonlyMap<string, JsonValue>;
}

function readPlace(place: ServersPlace): ReadPlace | ConfigError {
  const read = readEditable(place.file);
  if (read instanceof ConfigError) return read;
  const root = read.text === null ? undefined : parseEditable(place.file, read.text);
  if (root instanceof ConfigError) return root;
  const aliases = keysAt(root, place.path);
  const entries = new Map<string, JsonValue>();
  for (const alias of aliases) {
    const entry = valueAt(root, [...place.path, alias]);
    if (entry !== undefined) entries.set(alias, entry);
  }
  return { place, text: read.text, mode: read.mode, aliases, entries };
}

/** A server found in a scope: where, and its entry as written. */
export interface FoundServer {
  readonly place: ServersPlace;
  readonly entry: JsonValue;
}

/** Every scope's entry for `alias`, narrowest first, and the files that could not be read on the way. */
export function findServer(alias: string, context: EditContext): { readonly found: FoundServer[]; readonly problems: ConfigError[] } {
  const found: FoundServer[] = [];
  const problems: ConfigError[] = [];
  for (const place of MCP_SCOPES.flatMap((scope) => scopePlaces(scope, context))) {
    const read = readPlace(place);
    if (read instanceof ConfigError) problems.push(read);
    else {
      const entry = read.entries.get(alias);
      if (entry !== undefined) found.push({ place, entry });
    }
  }
  return { found, problems };
}

/** A checked entry: what the reader would warn about, and the variables it names that are not set now. */
export interface CheckedEntry {
  readonly warnings: readonly ConfigError[];
  readonly unsetVariables: readonly string[];
}

const UNSET_VARIABLE = /^variable ([A-Za-z_][A-Za-z0-9_]*) is not set$/;
/** Stands in for a variable not set now: it may well be set when mca starts the server. */
const STAND_IN = "1";

/**
 * `text` (one entry's JSON) read exactly as a scope file's entry is read at start-up; `label` names it in
 * errors. A variable not set now is no fault (it is read when the server starts): it is checked standing in as "1".
 */
export function checkServerEntry(alias: string, text: string, label: string, env: Env, place: ConfigPlace): CheckedEntry | ConfigError {
  if (alias === "") return new ConfigError(label, "", "a server's name must not be empty");
  const node = readConfigJson(text, label);
  if (node instanceof ConfigError) return node;
  const unset: string[] = [];
  for (;;) {
    const stood = { ...env, ...Object.fromEntries(unset.map((name) => [name, STAND_IN])) };
    // The editors' variables (`${workspaceFolder}`, …) mean here what they mean in every scope's file.
    const named = hostVariables({ projectDir: place.projectDir, env: stood, inputs: [] });
    const read = readingConfig(() => readServer(alias, node, { file: label, text, env: stood, asWritten: true, place, named }));
    if (!(read instanceof ConfigError)) return { warnings: read.warnings, unsetVariables: unset };
    const name = UNSET_VARIABLE.exec(read.detail)?.[1];
    if (name === undefined || unset.includes(name)) return read;
    unset.push(name);
  }
}

function writeOptions(scope: McpScope, mode: number | undefined): { readonly mode: number; readonly dirMode?: number } {
  // The user's files are theirs alone; a project file keeps the bits it has (it is meant to be shared).
  return scope === "project" ? { mode: mode ?? 0o644 } : { mode: 0o600, dirMode: 0o700 };
}

/** Two aliases that sanitise alike would give one tool prefix to two servers. */
function collision(alias: string, reads: readonly ReadPlace[]): string | undefined {
  for (const read of reads) {
    if (read.aliases.includes(alias)) return `"${alias}" is already in the ${read.place.scope} scope (${read.place.file}): remove it first (mca mcp remove ${alias} -s ${read.place.scope})`;
    const other = read.aliases.find((each) => sanitizeAlias(each) === sanitizeAlias(alias));
    if (other !== undefined) return `"${alias}" and "${other}" (${read.place.file}) would give the same tool names: choose another name`;
  }
  return undefined;
}

/** Writes `entry` (already checked) as `alias` into the scope's first file; refused when the scope has that alias. */
export async function addServer(scope: McpScope, alias: string, entry: JsonValue, context: EditContext): Promise<ServersPlace | ConfigError> {
  const reads: ReadPlace[] = [];
  for (const place of scopePlaces(scope, context)) {
    const read = readPlace(place);
    if (read instanceof ConfigError) return read;
    reads.push(read);
  }
  const [target] = reads;
  if (target === undefined) throw new Error(`scope ${scope} has no file`);
  const refused = collision(alias, reads);
  if (refused !== undefined) return new ConfigError(target.place.file, "", refused);
  const text = insertAt(target.place.file, target.text, [...target.place.path, alias], entry);
  if (text instanceof ConfigError) return text;
  const written = await writeAtomically(target.place.file, text, writeOptions(scope, target.mode));
  return written instanceof ConfigError ? written : target.place;
}

/**
 * Removes `alias` from the files of `scope` that hold it. In the local store a project left without servers
 * loses its entry too, so an add and a remove leave the file as it was.
 */
export async function removeServer(scope: McpScope, alias: string, context: EditContext): Promise<ServersPlace[] | ConfigError> {
  const removed: ServersPlace[] = [];
  for (const place of scopePlaces(scope, context)) {
    const read = readPlace(place);
    if (read instanceof ConfigError) return read;
    if (read.text === null || !read.aliases.includes(alias)) continue;
    let text = read.text;
    // A name written twice in one file is removed whole: each removal takes the first that is left.
    for (const each of read.aliases) if (each === alias) text = removeAt(text, [...place.path, alias]);
    if (scope === "local") text = withoutEmptyProject(place, text);
    const written = await writeAtomically(place.file, text, writeOptions(scope, read.mode));
    if (written instanceof ConfigError) return written;
    removed.push(place);
  }
  return removed;
}

function withoutEmptyProject(place: ServersPlace, text: string): string {
  const root = parseEditable(place.file, text);
  if (root === undefined || root instanceof ConfigError) return text;
  const project = place.path.slice(0, -1);
  const empty = keysAt(root, place.path).length === 0 && keysAt(root, project).every((key) => key === "mcpServers");
  return empty ? removeAt(text, project) : text;
}
