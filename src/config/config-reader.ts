// Reading a config file into typed values, once, at the boundary: the one error a config file produces
// (ConfigError: which file, where in it, what is wrong), typed readers over positioned JSON nodes that
// throw it naming the exact path, line and column, and `${VAR}` expansion from a given environment.
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { readRegularFile } from "./regular-file.js";
import { positionAt, readJson, type JsonNode, type JsonReadError, type PathSegment, type SourcePosition } from "./json-reader.js";

/** Keys made of these print after a dot; any other key prints in brackets, quoted. */
const PLAIN_KEY = /^[A-Za-z0-9_-]+$/;

/** `mcpServers.tickets.headers.Authorization`, `mcpServers["my.server"].args[0]`; the root is "". */
export function formatPath(segments: readonly PathSegment[]): string {
  let path = "";
  for (const segment of segments) {
    if (typeof segment === "number") path += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) path += path === "" ? segment : `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}

function formatMessage(file: string, path: string, detail: string, position: SourcePosition | undefined): string {
  const where = position === undefined ? file : `${file}:${position.line}:${position.column}`;
  return path === "" ? `${where}: ${detail}` : `${where}: ${path}: ${detail}`;
}

export class ConfigError extends Error {
  /**
   * @param file the config file as the user named it
   * @param path the place inside it (`mcpServers.tickets.url`), "" for the file as a whole
   * @param detail what is wrong, without the file or path
   * @param position where in the text, when the error belongs to one place in it
   */
  constructor(
    readonly file: string,
    readonly path: string,
    readonly detail: string,
    readonly position?: SourcePosition,
  ) {
    super(formatMessage(file, path, detail, position));
    this.name = "ConfigError";
  }
}

/** Runs readers that throw ConfigError and hands it back as a value: the edge of one config file. */
export function readingConfig<T>(read: () => T): T | ConfigError {
  try {
    return read();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
}

type DuplicateKey = Extract<JsonReadError, { kind: "duplicate-key" }>;

/**
 * A whole file's JSON as a node, or its syntax error or first duplicate key as a ConfigError;
 * `duplicateDetail` words a duplicate key for the file at hand (an alias written twice, say).
 */
export function readConfigJson(
  text: string,
  file: string,
  duplicateDetail: (duplicate: DuplicateKey) => string = (duplicate) => `duplicate key "${duplicate.key}": it is written more than once`,
): JsonNode | ConfigError {
  const read = readJson(text);
  if (read.ok) return read.value;
  const { error } = read;
  const position = positionAt(text, error.offset);
  switch (error.kind) {
    case "syntax":
      return new ConfigError(file, "", `invalid JSON: ${error.message}`, position);
    case "duplicate-key":
      return new ConfigError(file, formatPath([...error.path, error.key]), duplicateDetail(error), position);
    default: {
      const unknown: never = error;
      throw new Error(`unhandled JSON read error ${JSON.stringify(unknown)}`);
    }
  }
}

export type JsonObjectNode = Extract<JsonNode, { kind: "object" }>;
export type Path = readonly PathSegment[];

export interface ReadContext {
  readonly file: string;
  readonly text: string;
  readonly env: Env;
  /**
   * Strings come back as written, `${VAR}` kept, once their expansion from `env` has passed every check:
   * what the trust question shows, so no value of the user's environment is printed.
   */
  readonly asWritten?: boolean;
  /** What `${name}` means beside the environment (an editor's predefined variables, VS Code's inputs); absent: only the environment. */
  readonly named?: NamedVariables;
}

export function fail(context: ReadContext, path: Path, offset: number, detail: string): never {
  throw new ConfigError(context.file, formatPath(path), detail, positionAt(context.text, offset));
}

const KIND_NAMES: Readonly<Record<JsonNode["kind"], string>> = {
  object: "an object",
  array: "an array",
  string: "a string",
  number: "a number",
  boolean: "a boolean",
  null: "null",
};

function mismatch(node: JsonNode, path: Path, context: ReadContext, wanted: string): never {
  return fail(context, path, node.offset, `must be ${wanted}, not ${KIND_NAMES[node.kind]}`);
}

export function readObject(node: JsonNode, path: Path, context: ReadContext): JsonObjectNode {
  return node.kind === "object" ? node : mismatch(node, path, context, "an object");
}

/** Catches typos: the first key (in the text's order) that is not in `allowed` is an error. */
export function rejectUnknownFields(
  object: JsonObjectNode,
  path: Path,
  allowed: readonly string[],
  context: ReadContext,
): void {
  for (const [key, member] of object.members) {
    if (allowed.includes(key)) continue;
    fail(context, [...path, key], member.keyOffset, `unknown field (expected one of: ${allowed.join(", ")})`);
  }
}

export function optionalField(object: JsonObjectNode, key: string): JsonNode | undefined {
  return object.members.get(key)?.value;
}

export function requiredField(object: JsonObjectNode, key: string, path: Path, context: ReadContext): JsonNode {
  return optionalField(object, key) ?? fail(context, [...path, key], object.offset, "is required");
}

export function readString(node: JsonNode, path: Path, context: ReadContext): string {
  return node.kind === "string" ? node.value : mismatch(node, path, context, "a string");
}

/** A problem with an expanded value, or undefined when it passes. */
export type ValueCheck = (value: string) => string | undefined;

/** A config string as written and as expanded from the context's environment. */
function expandedString(node: JsonNode, path: Path, context: ReadContext): { readonly written: string; readonly value: string } {
  const written = readString(node, path, context);
  const expansion = expandVariables(written, context.env, context.named);
  return expansion.ok ? { written, value: expansion.value } : fail(context, path, node.offset, expansion.reason);
}

function chosen(context: ReadContext, string: { readonly written: string; readonly value: string }): string {
  return context.asWritten === true ? string.written : string.value;
}

/**
 * A string with `${VAR}` and `${VAR:-default}` expanded from the context's environment; `check` judges the
 * expanded value (a URL with a `${PORT}` in it is a URL once expanded), whichever form comes back.
 */
export function readExpandedString(node: JsonNode, path: Path, context: ReadContext, check: ValueCheck = () => undefined): string {
  const string = expandedString(node, path, context);
  const problem = check(string.value);
  return problem === undefined ? chosen(context, string) : fail(context, path, node.offset, problem);
}

export function readNonEmptyExpandedString(node: JsonNode, path: Path, context: ReadContext): string {
  return readExpandedString(node, path, context, (value) => (value === "" ? "must not be empty" : undefined));
}

export function readExpandedStringArray(node: JsonNode, path: Path, context: ReadContext): string[] {
  if (node.kind !== "array") return mismatch(node, path, context, "an array of strings");
  return node.items.map((item, index) => readExpandedString(item, [...path, index], context));
}

/** An object of strings with the values expanded; `check` may reject a key or an expanded value with a reason. */
export function readExpandedStringMap(
  node: JsonNode,
  path: Path,
  context: ReadContext,
  check: (key: string, value: string) => string | undefined = () => undefined,
): Record<string, string> {
  const object = node.kind === "object" ? node : mismatch(node, path, context, "an object of strings");
  const entries = [...object.members].map(([key, member]): [string, string] => {
    const string = expandedString(member.value, [...path, key], context);
    const problem = check(key, string.value);
    return problem === undefined ? [key, chosen(context, string)] : fail(context, [...path, key], member.keyOffset, problem);
  });
  // fromEntries defines own properties, so a key such as "__proto__" stays an ordinary key.
  return Object.fromEntries(entries);
}

export function readPositiveInteger(node: JsonNode, path: Path, context: ReadContext, unit: string): number {
  if (node.kind === "number" && Number.isSafeInteger(node.value) && node.value > 0) return node.value;
  return fail(context, path, node.offset, `must be a positive integer (${unit})`);
}

export function readBoolean(node: JsonNode, path: Path, context: ReadContext): boolean {
  return node.kind === "boolean" ? node.value : mismatch(node, path, context, "true or false");
}

// `${VAR}` and `${VAR:-default}` in config strings, expanded from an environment passed in as an
// argument (this folder never reads process.env); `${env:VAR}` as VS Code, Cursor and Windsurf write it; and
// the names a caller gives meaning to (`${workspaceFolder}`, `${input:token}`).

export type Env = Readonly<Record<string, string | undefined>>;

export type Expansion = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly reason: string };

/** What `${name}` means, for the names it knows (`workspaceFolder`, `input:token`); undefined for any other name. */
export type NamedVariables = (name: string) => Expansion | undefined;

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DEFAULT_SEPARATOR = ":-";
/** `${env:HOME}`: the editors' spelling of `${HOME}`. */
const ENV_PREFIX = "env:";

/** Own properties only, so `${constructor}` is not found on a plain object's prototype. */
function lookup(env: Env, name: string): string | undefined {
  if (!Object.hasOwn(env, name)) return undefined;
  const value = env[name];
  return typeof value === "string" ? value : undefined;
}

/** One `${…}` body: a named variable, `env:NAME`, `NAME` or `NAME:-default`. */
function expandOne(body: string, env: Env, named: NamedVariables | undefined): Expansion {
  const known = named?.(body);
  if (known !== undefined) return known;
  const separator = body.indexOf(DEFAULT_SEPARATOR);
  const spelled = separator < 0 ? body : body.slice(0, separator);
  const name = spelled.startsWith(ENV_PREFIX) ? spelled.slice(ENV_PREFIX.length) : spelled;
  if (!VARIABLE_NAME.test(name)) {
    return { ok: false, reason: `"\${${body}}" is not a variable reference (write \${NAME}, \${NAME:-default} or \${env:NAME})` };
  }
  const value = lookup(env, name);
  const fallback = separator < 0 ? undefined : body.slice(separator + DEFAULT_SEPARATOR.length);
  const replacement = fallback !== undefined && (value === undefined || value === "") ? fallback : value;
  return replacement === undefined ? { ok: false, reason: `variable ${name} is not set` } : { ok: true, value: replacement };
}

/**
 * `${NAME}` (or `${env:NAME}`) is the variable's value (an empty value counts as set); `${NAME:-default}` falls
 * back to the default text when the variable is unset or empty, as in the shell. The default is taken
 * literally up to the first `}`. A name `named` knows means what it says first. A `$` not followed by `{` is
 * kept as it is.
 */
export function expandVariables(text: string, env: Env, named?: NamedVariables): Expansion {
  let expanded = "";
  let index = 0;
  for (;;) {
    const start = text.indexOf("${", index);
    if (start < 0) return { ok: true, value: expanded + text.slice(index) };
    const end = text.indexOf("}", start + 2);
    if (end < 0) return { ok: false, reason: `"\${" at character ${start + 1} is never closed with "}"` };
    const one = expandOne(text.slice(start + 2, end), env, named);
    if (!one.ok) return one;
    expanded += text.slice(index, start) + one.value;
    index = end + 1;
  }
}

const VARIABLE_REFERENCE = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}/g;

/** Every environment variable a config string refers to (`${NAME}`, `${env:NAME}`, `${NAME:-default}`), in order of appearance. */
export function referencedVariables(text: string): string[] {
  return [...text.matchAll(VARIABLE_REFERENCE)].map((match) => match[1] ?? "");
}

/** More than any config file needs; the cap keeps a repository's huge file from being read whole at start-up. */
export const MAX_CONFIG_FILE_BYTES = 4 * 1024 * 1024;

/** A config file's text (read by readRegularFile); null when it does not exist; a ConfigError starting with `cannotRead` otherwise. */
export function readConfigText(file: string, cannotRead: string): string | null | ConfigError {
  const read = readRegularFile(file, MAX_CONFIG_FILE_BYTES);
  switch (read.kind) {
    case "absent":
      return null;
    case "read":
      return read.bytes.toString("utf8");
    case "too-large":
      return new ConfigError(file, "", `${cannotRead}: larger than ${MAX_CONFIG_FILE_BYTES / (1024 * 1024)} MiB`);
    case "unreadable":
      return new ConfigError(file, "", `${cannotRead}: ${read.reason}`);
    default: {
      const unknown: never = read;
      throw new Error(`unknown read ${JSON.stringify(unknown)}`);
    }
  }
}

/** A project folder as the stores kept by project folder name it: its real path (resolved, when it has none). */
export function projectKey(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}

/**
 * A store the user's config folder keeps by project folder (`{ "projects": { "<real path>": … } }`): each
 * project's entry as `readEntry` reads it (it may throw ConfigError; undefined leaves the entry out). No file is
 * an empty store; a file that is not a store is a ConfigError at `file:line:column`.
 */
export function readProjectStore<T>(file: string, cannotRead: string, readEntry: (dir: string, entry: JsonNode, context: ReadContext) => T | undefined): ReadonlyMap<string, T> | ConfigError {
  const text = readConfigText(file, cannotRead);
  if (text === null) return new Map();
  if (text instanceof ConfigError) return text;
  const root = readConfigJson(text, file);
  if (root instanceof ConfigError) return root;
  const context: ReadContext = { file, text, env: {} };
  return readingConfig(() => {
    const entries = new Map<string, T>();
    const projects = optionalField(readObject(root, [], context), "projects");
    if (projects === undefined) return entries;
    for (const [dir, { value }] of readObject(projects, ["projects"], context).members) {
      const entry = readEntry(dir, value, context);
      if (entry !== undefined) entries.set(dir, entry);
    }
    return entries;
  });
}
