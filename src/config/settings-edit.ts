// Adding an allow rule to the user's own settings file, as the network question's "Always allow connections to
// …" does: the file is edited in place (jsonc-edit.ts: its layout kept, never through a link, replaced
// atomically), the result is checked as mca reads it at start (strict JSON) before it is written, and a rule
// is never written twice. Only the user's file is written here: a project's settings belong to its repository.
import { applyEdits, findNodeAtLocation, type Node } from "jsonc-parser";
import { parseRule } from "../kernel/index.js";
import { ConfigError, formatPath } from "./config-reader.js";
import { insertAt, parseEditable, readEditable, writeAtomically } from "./jsonc-edit.js";
import { parseSettings } from "./settings.js";

const ALLOW_PATH = ["permissions", "allow"] as const;

/** What became of the rule: written, or already allowed by a rule of the same text. */
export type AllowRuleAdded = "added" | "already there";

/**
 * Appends `rule` to `permissions.allow` in `file` (the user's settings file), creating the file (0600, in a
 * 0700 folder) or the section when absent; an existing file keeps its permission bits. A ConfigError names
 * why nothing was written: a link in the file's place, a file mca would refuse, a rule it cannot read.
 */
export async function addAllowRule(file: string, rule: string): Promise<AllowRuleAdded | ConfigError> {
  const wanted = parseRule(rule, "allow", file);
  if (wanted instanceof Error) return new ConfigError(file, formatPath(ALLOW_PATH), wanted.message);
  const read = readEditable(file);
  if (read instanceof ConfigError) return read;
  const { text } = read;
  if (text !== null) {
    const rules = parseSettings(text, file);
    if (rules instanceof ConfigError) return rules;
    if (rules.some((each) => each.verdict === "allow" && each.pattern.text === wanted.pattern.text)) return "already there";
  }
  const root = text === null ? undefined : parseEditable(file, text);
  if (root instanceof ConfigError) return root;
  const list = root === undefined ? undefined : findNodeAtLocation(root, [...ALLOW_PATH]);
  const edited = list === undefined || text === null ? insertAt(file, text, ALLOW_PATH, [rule]) : appendItem(file, text, list, rule);
  if (edited instanceof ConfigError) return edited;
  // What is written is read back as at start: a file mca would then refuse is never left behind.
  const checked = parseSettings(edited, file);
  if (checked instanceof ConfigError) return checked;
  const written = await writeAtomically(file, edited, { mode: read.mode ?? 0o600, dirMode: 0o700 });
  return written instanceof ConfigError ? written : "added";
}

/**
 * The text with `item` after the array's last element, laid out as that element is: on a line of its own in
 * its indentation, or on the same line.
 */
function appendItem(file: string, text: string, list: Node, item: string): string | ConfigError {
  if (list.type !== "array") return new ConfigError(file, formatPath(ALLOW_PATH), "must be an array of rules");
  const value = JSON.stringify(item);
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const last = list.children?.at(-1);
  if (last === undefined) {
    const inside = text.slice(list.offset + 1, list.offset + list.length - 1);
    if (!inside.includes("\n")) return applyEdits(text, [{ offset: list.offset + 1, length: 0, content: value }]);
    const indent = `${lineStart(text, list.offset).indent}${indentUnit(text)}`;
    return applyEdits(text, [{ offset: list.offset + 1, length: 0, content: `${eol}${indent}${value}` }]);
  }
  const { indent, first } = lineStart(text, last.offset);
  return applyEdits(text, [{ offset: last.offset + last.length, length: 0, content: first ? `,${eol}${indent}${value}` : `, ${value}` }]);
}

/** The whitespace that starts the line holding `offset`, and whether only whitespace stands before `offset` on it. */
function lineStart(text: string, offset: number): { readonly indent: string; readonly first: boolean } {
  const before = text.slice(text.lastIndexOf("\n", offset - 1) + 1, offset);
  const indent = /^[ \t]*/u.exec(before)?.[0] ?? "";
  return { indent, first: indent.length === before.length };
}

/** The file's indentation unit: the first indented line's. */
function indentUnit(text: string): string {
  return /^([ \t]+)\S/mu.exec(text)?.[1] ?? "  ";
}
