// Which project folders the user trusted, and for which contents. A repository's own `mcp.config.json`,
// `.mcp.json` and `.mca/settings.json` are a permit the repository issues to itself: they take effect (servers started,
// allow rules applied) only once the user has trusted this folder with exactly these files. The record
// lives in the user's config folder, never in the project, and holds a hash of the files' contents, so an
// edited file (a `git pull`, a changed branch) asks again.
import { createHash } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { describeError } from "../kernel/index.js";
import { stdioServerCwd } from "../mcp/index.js";
import { ConfigError, projectKey, readConfigText, readProjectStore, type Env } from "./config-reader.js";
import { neededInputs, parseMcpConfig } from "./mcp-config.js";
import { readRegularFile } from "./regular-file.js";
import { userConfigDir, type ProjectFileRead } from "./settings.js";

export const PROJECT_MCP_CONFIG = "mcp.config.json";
/** The project's MCP servers as Claude Code (and other hosts) write them: read as mcp.config.json is, under the same trust. */
export const PROJECT_SHARED_MCP_CONFIG = ".mcp.json";
export const PROJECT_SETTINGS = join(".mca", "settings.json");
/** The project's own files that trust covers, relative to the project folder, in the order they are hashed. */
export const PROJECT_FILES = [PROJECT_MCP_CONFIG, PROJECT_SETTINGS, PROJECT_SHARED_MCP_CONFIG] as const;
/** The project files whose stdio servers may run programs of the project, in the order they are read. */
const PROJECT_MCP_FILES = [PROJECT_MCP_CONFIG, PROJECT_SHARED_MCP_CONFIG] as const;
/**
 * Files trust covered from the start are hashed absent too; one added later only when present, so that a
 * folder trusted before it was read is not asked about again for a file it does not have.
 */
const HASHED_WHEN_ABSENT: readonly string[] = [PROJECT_MCP_CONFIG, PROJECT_SETTINGS];

export interface ProjectFiles {
  /** The real path of the project folder: the key of the trust record. */
  readonly projectDir: string;
  /**
   * Each present file of PROJECT_FILES by its absolute path: its text as it was hashed (or why it cannot be read), so that what the user is shown
   * before trusting is exactly what the hash records.
   */
  readonly texts: ReadonlyMap<string, string | ConfigError>;
  /** The files of the project that the enabled stdio servers of its mcp.config.json and .mcp.json run, in the configs' order. */
  readonly programs: readonly ProjectProgram[];
  /** sha256 over every file's name, presence and bytes, and over each program's path and bytes. */
  readonly hash: string;
}

/**
 * A file inside the project that a stdio server runs: its command, or an argument, that names a regular file
 * there (`./tools/server.sh`, `node dist/server.js`). Its bytes are in the hash, so a change to it asks again;
 * only the file named is hashed, not what it loads in turn.
 */
export interface ProjectProgram {
  readonly alias: string;
  /** Relative to the project folder. */
  readonly path: string;
  /** False when it did not fit in what was left of MAX_HASHED_PROGRAM_BYTES: then its later changes are not asked about. */
  readonly hashed: boolean;
}

/** What start-up reads and hashes of the programs, all together: a bundled server of a few MiB fits, a repository's gigabytes do not. */
export const MAX_HASHED_PROGRAM_BYTES = 16 * 1024 * 1024;

/**
 * A project file as read with the others (null when absent): what the run uses, never a later read, so a
 * file changed after it was read — while the user decided, say — is not what takes effect.
 */
export function projectFileRead(files: ProjectFiles | null, name: (typeof PROJECT_FILES)[number]): ProjectFileRead | null {
  if (files === null) return null;
  const path = join(files.projectDir, name);
  const text = files.texts.get(path);
  return text === undefined ? null : { path, text };
}

export type TrustState =
  /** The project has none of its own files: there is nothing to trust. */
  | { readonly kind: "no-project-files" }
  | { readonly kind: "trusted"; readonly files: ProjectFiles }
  /** Never trusted, or trusted for other contents (`changed`). */
  | { readonly kind: "untrusted"; readonly files: ProjectFiles; readonly changed: boolean };

/** `$XDG_CONFIG_HOME/mca/trusted-projects.json`: `{ "projects": { "<real path>": { "sha256", "trustedAt" } } }`. */
export function trustStoreFile(env: Readonly<Record<string, string | undefined>>): string {
  return join(userConfigDir(env), "trusted-projects.json");
}

/** The project's own files and their hash, read now; null when it has none of them (nothing to hash or trust). */
function readProjectFiles(projectDir: string, env: Env): ProjectFiles | null {
  const realDir = projectKey(projectDir);
  const read = PROJECT_FILES.map((name) => ({ name, path: join(realDir, name), text: readConfigText(join(realDir, name), "cannot read the file") }));
  // A project without files of its own has nothing to hash: node:crypto is not even loaded (start-up time).
  if (read.every(({ text }) => text === null)) return null;
  const texts = new Map<string, string | ConfigError>();
  const hash = createHash("sha256");
  // Name and length prefix each entry, so no two different sets of files give the same stream.
  for (const { name, path, text } of read) {
    if (text === null && !HASHED_WHEN_ABSENT.includes(name)) continue;
    const entry = text === null ? "absent" : text instanceof ConfigError ? "unreadable" : `${Buffer.byteLength(text)}`;
    hash.update(`${name}\0${entry}\0`).update(typeof text === "string" ? text : "");
    if (text !== null) texts.set(path, text);
  }
  const budget = { bytes: MAX_HASHED_PROGRAM_BYTES };
  const programs = PROJECT_MCP_FILES.flatMap((name) => readPrograms(realDir, name, texts.get(join(realDir, name)), env, budget));
  for (const program of programs) {
    hash.update(`program\0${program.alias}\0${program.path}\0${program.bytes === undefined ? "unhashed" : program.bytes.length}\0`);
    if (program.bytes !== undefined) hash.update(program.bytes);
  }
  return { projectDir: realDir, texts, programs: programs.map(({ alias, path, hashed }) => ({ alias, path, hashed })), hash: hash.digest("hex") };
}

/**
 * The project files the config's enabled stdio servers run, with the bytes of those hashed. A command is a
 * file only when it names a path (with a `/`; a bare name is looked up on PATH); any argument may be one.
 * Both are resolved against the server's working folder, as the child resolves them. A config that cannot
 * be read runs nothing.
 */
function readPrograms(realDir: string, name: string, text: string | ConfigError | undefined, env: Env, budget: { bytes: number }): readonly (ProjectProgram & { readonly bytes?: Buffer })[] {
  const configFile = join(realDir, name);
  // An entry that uses an input (typed when the server starts) runs all the same: read with a stand-in answer.
  const standIns = typeof text === "string" ? new Map(neededInputs(text, configFile).map((input) => [input.id, input.id])) : undefined;
  const config = typeof text === "string" ? parseMcpConfig(text, configFile, env, undefined, standIns) : undefined;
  if (config === undefined || config instanceof ConfigError) return [];
  const programs: (ProjectProgram & { readonly bytes?: Buffer })[] = [];
  for (const server of config.servers) {
    if (server.transport !== "stdio" || !server.enabled) continue;
    const cwd = stdioServerCwd(server, configFile);
    // The command first, then the arguments smallest first: a large data file named before the script
    // cannot spend the budget that the script's own hash needs.
    const command = server.command.includes("/") ? [resolve(cwd, server.command)] : [];
    const args = server.args.map((arg) => ({ path: resolve(cwd, arg), size: sizeOf(resolve(cwd, arg)) })).sort((a, b) => a.size - b.size);
    for (const path of new Set([...command, ...args.map((arg) => arg.path)])) {
      const inside = relative(realDir, path);
      if (inside === "" || inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside)) continue;
      const read = readRegularFile(path, budget.bytes);
      if (read.kind === "absent" || read.kind === "unreadable") continue;
      if (read.kind === "read") budget.bytes -= read.bytes.length;
      programs.push({ alias: server.alias, path: inside, hashed: read.kind === "read", ...(read.kind === "read" ? { bytes: read.bytes } : {}) });
    }
  }
  return programs;
}

/** The size a path's stat gives (not opened: a named pipe is harmless here), or 0 when there is none. */
function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Whether the user trusted this project folder for its present contents; a broken store is a ConfigError. */
export function projectTrust(projectDir: string, env: Env): TrustState | ConfigError {
  const files = readProjectFiles(projectDir, env);
  if (files === null) return { kind: "no-project-files" };
  const store = readStore(trustStoreFile(env));
  if (store instanceof ConfigError) return store;
  const recorded = store.get(files.projectDir);
  if (recorded?.sha256 === files.hash) return { kind: "trusted", files };
  return { kind: "untrusted", files, changed: recorded !== undefined };
}

/** Records that the user trusts `files` (as read when they were shown): written whole, readable by the user only. */
export async function recordTrust(files: ProjectFiles, env: Readonly<Record<string, string | undefined>>, now: Date): Promise<void | ConfigError> {
  const file = trustStoreFile(env);
  const store = readStore(file);
  if (store instanceof ConfigError) return store;
  const projects = Object.fromEntries([...store, [files.projectDir, { sha256: files.hash, trustedAt: now.toISOString() }]]);
  try {
    await mkdir(userConfigDir(env), { recursive: true, mode: 0o700 });
    // A temporary file renamed over the old one: a crash never leaves half a store behind.
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify({ projects }, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, file);
  } catch (error) {
    return new ConfigError(file, "", `cannot record the trust: ${describeError(error)}`);
  }
}

interface TrustRecord {
  readonly sha256: string;
  readonly trustedAt: string;
}

/** The store as a map from real project path to its record; a file that is not a store is a ConfigError at `file:line:column`. */
function readStore(file: string): ReadonlyMap<string, TrustRecord> | ConfigError {
  return readProjectStore(file, "cannot read the trusted projects", (_dir, record) => {
    const sha256 = record.kind === "object" ? record.members.get("sha256")?.value : undefined;
    const trustedAt = record.kind === "object" ? record.members.get("trustedAt")?.value : undefined;
    // An entry that is not a whole record is no trust: that project is asked about again.
    return sha256?.kind === "string" && trustedAt?.kind === "string" ? { sha256: sha256.value, trustedAt: trustedAt.value } : undefined;
  });
}
