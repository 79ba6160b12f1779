// The tool definitions the user pinned (`mca mcp pin <alias>`): for each project folder and server alias, the
// hash of each of that server's tool definitions as the user accepted them. Like the trust record it lives in
// the user's config folder, never in the project, so no repository can pin (or unpin) a server for its user.
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describeError } from "../kernel/index.js";
import { ConfigError, optionalField, projectKey, readObject, readProjectStore, readString, type Env, type JsonObjectNode, type Path, type ReadContext } from "./config-reader.js";
import { userConfigDir } from "./settings.js";

/** A server's tools, each by its own name, with the hash of its definition. */
export type PinnedHashes = ReadonlyMap<string, string>;

/** `<user config folder>/pinned-tools.json`: `{ "projects": { "<real path>": { "<alias>": { "pinnedAt", "tools": { "<name>": "<sha256>" } } } } }`. */
export function pinsFile(env: Env): string {
  return join(userConfigDir(env), "pinned-tools.json");
}

interface PinnedServer {
  readonly pinnedAt: string;
  readonly tools: PinnedHashes;
}

type Store = ReadonlyMap<string, ReadonlyMap<string, PinnedServer>>;

/** The servers pinned for this project folder, by alias; a file that is not a store is a ConfigError at its place. */
export function readPins(projectDir: string, env: Env): ReadonlyMap<string, PinnedHashes> | ConfigError {
  const store = readStore(pinsFile(env));
  if (store instanceof ConfigError) return store;
  const servers = store.get(projectKey(projectDir)) ?? new Map<string, PinnedServer>();
  return new Map([...servers].map(([alias, server]) => [alias, server.tools]));
}

/** Records `tools` as the pinned definitions of `alias` in this project, replacing any before: written whole, readable by the user only. */
export async function recordPins(projectDir: string, env: Env, alias: string, tools: PinnedHashes, now: Date): Promise<void | ConfigError> {
  return changeStore(env, projectDir, (servers) => servers.set(alias, { pinnedAt: now.toISOString(), tools }));
}

/** Forgets the pins of `alias` in this project; whether there were any. */
export async function removePins(projectDir: string, env: Env, alias: string): Promise<boolean | ConfigError> {
  let removed = false;
  const changed = await changeStore(env, projectDir, (servers) => {
    removed = servers.delete(alias);
  });
  return changed instanceof ConfigError ? changed : removed;
}

async function changeStore(env: Env, projectDir: string, change: (servers: Map<string, PinnedServer>) => void): Promise<void | ConfigError> {
  const file = pinsFile(env);
  const store = readStore(file);
  if (store instanceof ConfigError) return store;
  const key = projectKey(projectDir);
  const servers = new Map(store.get(key));
  change(servers);
  const projects = new Map(store);
  if (servers.size === 0) projects.delete(key);
  else projects.set(key, servers);
  const json = Object.fromEntries(
    [...projects].map(([dir, pinned]) => [
      dir,
      Object.fromEntries([...pinned].map(([alias, server]) => [alias, { pinnedAt: server.pinnedAt, tools: Object.fromEntries(server.tools) }])),
    ]),
  );
  try {
    await mkdir(userConfigDir(env), { recursive: true, mode: 0o700 });
    // A temporary file renamed over the old one: a crash never leaves half a store behind.
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify({ projects: json }, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, file);
  } catch (error) {
    return new ConfigError(file, "", `cannot record the pinned definitions: ${describeError(error)}`);
  }
}

function readStore(file: string): Store | ConfigError {
  return readProjectStore(file, "cannot read the pinned definitions", (dir, entry, context) => {
    const servers = new Map<string, PinnedServer>();
    for (const [alias, { value }] of readObject(entry, ["projects", dir], context).members) {
      servers.set(alias, readServer(readObject(value, ["projects", dir, alias], context), ["projects", dir, alias], context));
    }
    return servers;
  });
}

/** A pinned server is read whole or refused: a hash that cannot be read would pin nothing without a word. */
function readServer(server: JsonObjectNode, path: Path, context: ReadContext): PinnedServer {
  const pinnedAt = optionalField(server, "pinnedAt");
  const tools = optionalField(server, "tools");
  const hashes = new Map<string, string>();
  if (tools !== undefined) {
    for (const [name, { value }] of readObject(tools, [...path, "tools"], context).members) hashes.set(name, readString(value, [...path, "tools", name], context));
  }
  return { pinnedAt: pinnedAt === undefined ? "" : readString(pinnedAt, [...path, "pinnedAt"], context), tools: hashes };
}
