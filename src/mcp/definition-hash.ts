// A remote tool's identity as its server defines it, and how a server's definitions compare with the ones the
// user pinned. The hash covers what a person judges a tool by — its name, title, description, input and output
// schemas and annotations — as stable JSON (sorted keys), so the same definition gives the same hash whatever
// the order of its keys, and any change to what the model or the user reads gives another.
import { createHash } from "node:crypto";
import { stableJson, type ToolDefinition } from "../kernel/index.js";
import type { RemoteToolInfo } from "./tool-list.js";

/** A server's tools, each by its own name, with its definition's hash. */
export type DefinitionHashes = ReadonlyMap<string, string>;

/** The parts of a listed tool the hash covers; `_meta` is left out (it never reaches the model; `title` may). */
export function toolDefinition(info: RemoteToolInfo): ToolDefinition {
  // The listed tool as tool-list.ts read it, but what never reaches the model or the user: icons are only
  // passed on to scripts, so a server that adds one does not unsettle the user's pins.
  const { _meta, taskSupport, icons, ...definition } = info;
  return definition;
}

/** sha-256 (hex) of the definition's stable JSON. */
export function definitionHash(definition: ToolDefinition): string {
  return createHash("sha256").update(stableJson(definition), "utf8").digest("hex");
}

/** What differs between the definitions pinned and the server's now, each list in name order. */
export interface DefinitionChanges {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
}

export function definitionChanges(pinned: DefinitionHashes, now: DefinitionHashes): DefinitionChanges {
  const sorted = (names: Iterable<string>): string[] => [...names].sort();
  return {
    added: sorted([...now.keys()].filter((name) => !pinned.has(name))),
    removed: sorted([...pinned.keys()].filter((name) => !now.has(name))),
    changed: sorted([...now].filter(([name, hash]) => pinned.has(name) && pinned.get(name) !== hash).map(([name]) => name)),
  };
}

/** Names past this many are counted, not listed: a server may redefine a thousand tools at once. */
const NAMED_CHANGES = 10;

/** A server's tool name on one line: a plain name as it is, any other quoted (a newline in it cannot start a line of its own). */
function shownName(name: string): string {
  return /^[\w.-]+$/u.test(name) ? name : JSON.stringify(name);
}

/**
 * `notes: tool definitions changed since pinned: ~search, +add_tag; …`, or undefined when none did. Tools
 * gone since are not named: they cannot be called, and a server may list fewer tools in a run without a
 * terminal (it offers some only to a client that declares sampling or URL forms, as the chat does). The
 * names are the server's: the caller shows the line as untrusted text.
 */
export function pinnedChangesLine(alias: string, changes: DefinitionChanges): string | undefined {
  const names = [...changes.changed.map((name) => `~${shownName(name)}`), ...changes.added.map((name) => `+${shownName(name)}`)];
  if (names.length === 0) return undefined;
  const more = names.length > NAMED_CHANGES ? ` and ${names.length - NAMED_CHANGES} more` : "";
  return (
    `${alias}: tool definitions changed since pinned: ${names.slice(0, NAMED_CHANGES).join(", ")}${more}; ` +
    `the changed and added tools ask on every call until \`mca mcp pin ${alias}\` accepts them`
  );
}
