// Editing a JSON (or JSON-with-comments) config file as its owner wrote it: jsonc-parser finds where a value
// sits, and an edit changes only that value's text, so comments, indentation and the other entries stay as
// they were. The file is read and replaced without ever following a symbolic link put in its place, and
// replaced atomically (a temporary file renamed over it), so a crash never leaves half a file.
import { randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { applyEdits, findNodeAtLocation, getNodeValue, modify, parseTree, printParseErrorCode, type Node, type ParseError } from "jsonc-parser";
import { describeError } from "../kernel/index.js";
import { ConfigError, formatPath, MAX_CONFIG_FILE_BYTES } from "./config-reader.js";
import { positionAt } from "./json-reader.js";

export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** A file as read for editing: its text (null when there is none yet) and its permission bits. */
export interface EditableText {
  readonly file: string;
  readonly text: string | null;
  readonly mode: number | undefined;
}

/**
 * The file's text, read without following a symbolic link (O_NOFOLLOW: a link planted where the file should be
 * is refused, not read through) and only if it is a regular file no larger than config files get.
 */
export function readEditable(file: string): EditableText | ConfigError {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = error instanceof Error && "code" in error ? error.code : undefined;
    if (code === "ENOENT") return { file, text: null, mode: undefined };
    if (code === "ELOOP") return new ConfigError(file, "", "is a symbolic link: mca edits only a file itself, never through a link");
    return new ConfigError(file, "", `cannot read the file: ${describeError(error)}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return new ConfigError(file, "", "is not a regular file");
    if (stat.size > MAX_CONFIG_FILE_BYTES) return new ConfigError(file, "", `is larger than ${MAX_CONFIG_FILE_BYTES / (1024 * 1024)} MiB`);
    const bytes = Buffer.alloc(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const count = readSync(fd, bytes, read, bytes.length - read, null);
      if (count === 0) break;
      read += count;
    }
    return { file, text: bytes.subarray(0, read).toString("utf8"), mode: stat.mode & 0o777 };
  } catch (error) {
    return new ConfigError(file, "", `cannot read the file: ${describeError(error)}`);
  } finally {
    closeSync(fd);
  }
}

/** The text's tree, or where it stops being JSON with comments; the root must be an object. */
export function parseEditable(file: string, text: string): Node | undefined | ConfigError {
  if (text.trim() === "") return undefined;
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const [first] = errors;
  if (first !== undefined) return new ConfigError(file, "", `not valid JSON: ${printParseErrorCode(first.error)}`, positionAt(text, first.offset));
  if (root?.type !== "object") return new ConfigError(file, "", "must be a JSON object");
  return root;
}

/** The keys of the object at `path`, in the file's order (a key written twice appears twice); none when it is absent. */
export function keysAt(root: Node | undefined, path: readonly string[]): string[] {
  const node = root === undefined ? undefined : findNodeAtLocation(root, [...path]);
  if (node?.type !== "object") return [];
  return (node.children ?? []).flatMap((property) => {
    const key = property.children?.[0]?.value;
    return typeof key === "string" ? [key] : [];
  });
}

/** The value at `path` as plain JSON, or undefined when there is none. */
export function valueAt(root: Node | undefined, path: readonly string[]): JsonValue | undefined {
  const node = root === undefined ? undefined : findNodeAtLocation(root, [...path]);
  return node === undefined ? undefined : toJsonValue(getNodeValue(node));
}

/** What jsonc-parser hands back, typed: every value it builds is JSON. */
export function toJsonValue(value: unknown): JsonValue | undefined {
  if (value === null || typeof value === "boolean" || typeof value === "number" || typeof value === "string") return value;
  if (Array.isArray(value)) {
    const items = value.map(toJsonValue);
    return items.every((item): item is JsonValue => item !== undefined) ? items : undefined;
  }
  if (typeof value === "object") {
    const entries = Object.entries(value).map(([key, item]): [string, JsonValue | undefined] => [key, toJsonValue(item)]);
    return entries.every((entry): entry is [string, JsonValue] => entry[1] !== undefined) ? Object.fromEntries(entries) : undefined;
  }
  return undefined;
}

/** The file's own style, for the text an edit adds: its indentation unit (the first indented line's) and its line end. */
interface Style {
  readonly unit: string;
  readonly eol: string;
}

function styleOf(text: string): Style {
  const indented = /^([ \t]+)\S/m.exec(text);
  return { unit: indented?.[1] ?? "  ", eol: text.includes("\r\n") ? "\r\n" : "\n" };
}

/** The whitespace that starts the line holding `offset`, and whether only whitespace stands before `offset` on it. */
function lineIndent(text: string, offset: number): { readonly indent: string; readonly first: boolean } {
  const start = Math.max(text.lastIndexOf("\n", offset - 1) + 1, 0);
  const before = text.slice(start, offset);
  const indent = /^[ \t]*/.exec(before)?.[0] ?? "";
  return { indent, first: indent.length === before.length };
}

/** `value` pretty-printed in the file's unit, each line after the first starting at `indent`. */
function printed(value: JsonValue, indent: string, style: Style): string {
  return JSON.stringify(value, null, style.unit).replaceAll("\n", `${style.eol}${indent}`);
}

/**
 * The text with `value` written at `path`, a key that must not exist yet. The deepest object on the way that
 * exists gets one new member (the rest of the path as nested objects), written after its last member in the
 * indentation that member has; nothing else in the text moves.
 */
export function insertAt(file: string, text: string | null, path: readonly string[], value: JsonValue): string | ConfigError {
  const nested = (from: number): JsonValue => path.slice(from + 1).reduceRight<JsonValue>((inner, key) => ({ [key]: inner }), value);
  if (text === null || text.trim() === "") return `${JSON.stringify(nested(-1), null, 2)}\n`;
  const root = parseEditable(file, text);
  if (root === undefined || root instanceof ConfigError) return root ?? new ConfigError(file, "", "is empty");
  let parent = root;
  let depth = 0;
  for (; depth < path.length - 1; depth++) {
    const next = findNodeAtLocation(root, [...path.slice(0, depth + 1)]);
    if (next === undefined) break;
    if (next.type !== "object") return new ConfigError(file, formatPath(path.slice(0, depth + 1)), "must be an object");
    parent = next;
  }
  const key = path[depth] ?? "";
  if (findNodeAtLocation(root, [...path.slice(0, depth + 1)]) !== undefined) return new ConfigError(file, formatPath(path), "is already there");
  const style = styleOf(text);
  const member = (indent: string): string => `${JSON.stringify(key)}: ${printed(nested(depth), indent, style)}`;
  const last = parent.children?.at(-1);
  if (last !== undefined) {
    const { indent, first } = lineIndent(text, last.offset);
    // An object written on one line gets its new member on that line too.
    const content = first ? `,${style.eol}${indent}${member(indent)}` : `, ${JSON.stringify(key)}: ${JSON.stringify(nested(depth))}`;
    return applyEdits(text, [{ offset: last.offset + last.length, length: 0, content }]);
  }
  const outer = lineIndent(text, parent.offset).indent;
  const inner = `${outer}${style.unit}`;
  const between = text.slice(parent.offset + 1, parent.offset + parent.length - 1);
  const closing = between.includes("\n") ? "" : `${style.eol}${outer}`;
  return applyEdits(text, [{ offset: parent.offset + 1, length: 0, content: `${style.eol}${inner}${member(inner)}${closing}` }]);
}

/**
 * The text without the member at `path` (and the comma that joined it to its neighbour); the rest as it was.
 * A first member written on lines of its own goes with its lines, so the next one keeps its indentation.
 */
export function removeAt(text: string, path: readonly string[]): string {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  const member = root === undefined ? undefined : findNodeAtLocation(root, [...path])?.parent;
  const siblings = member?.parent?.children ?? [];
  const next = siblings[1];
  if (member !== undefined && siblings[0] === member && next !== undefined && lineIndent(text, member.offset).first && lineIndent(text, next.offset).first) {
    const start = text.lastIndexOf("\n", member.offset - 1) + 1;
    const end = text.lastIndexOf("\n", next.offset - 1) + 1;
    return applyEdits(text, [{ offset: start, length: end - start, content: "" }]);
  }
  return applyEdits(text, modify(text, [...path], undefined, {}));
}

export interface WriteOptions {
  /** The file's permission bits. */
  readonly mode: number;
  /** Created (with its parents) when missing, with these bits: the user's config folder is 0700. */
  readonly dirMode?: number;
}

/**
 * Replaces the file with `text`: written to a new temporary file beside it (created exclusively, so a link
 * planted under that name is not followed) and renamed over it; rename replaces a link put in the file's
 * place instead of writing through it.
 */
export async function writeAtomically(file: string, text: string, options: WriteOptions): Promise<void | ConfigError> {
  const dir = dirname(file);
  const temporary = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    if (options.dirMode !== undefined) await mkdir(dir, { recursive: true, mode: options.dirMode });
    const handle = await open(temporary, "wx", options.mode);
    try {
      await handle.writeFile(text, "utf8");
      // The umask may have taken bits from the mode `open` was given; an edit keeps the file's own.
      await handle.chmod(options.mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    return new ConfigError(file, "", `cannot write the file: ${describeError(error)}`);
  }
}
