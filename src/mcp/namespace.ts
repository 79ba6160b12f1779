// The flat tool names the model sees, `mcp__<alias>__<tool>`, and the table that maps them back: tools are
// `{ alias, tool }` inside and flat only at the edge, and the way back is a Map, never string splitting.
import { createHash } from "node:crypto";
import { sanitizeNamePart } from "../kernel/index.js";

/** The longest flat name; Anthropic's tool-name limit and the conformance suite's `tools-name-format`. */
export const MAX_FLAT_NAME_CHARS = 64;
/** A suffixed name keeps this much of the plain name, then `_` and the hash. */
const KEPT_PREFIX_CHARS = 57;
const HASH_HEX_CHARS = 6;
/** Needing even a second salted round takes two hashes that agree in 24 bits; the cap only guards against a bug. */
const MAX_RESOLVE_ROUNDS = 64;

export interface ToolRef {
  readonly alias: string;
  readonly tool: string;
}

export interface NamespaceEntry extends ToolRef {
  readonly flatName: string;
}

export interface Namespace {
  /** The flat name of a tool given to `buildNamespace`; asking for any other tool is a bug and throws. */
  flatName(alias: string, tool: string): string;
  /** The tool behind a flat name, or undefined when the name is not in the table. */
  lookup(flatName: string): ToolRef | undefined;
  /** Every tool with its flat name, sorted by alias, then tool. */
  entries(): readonly NamespaceEntry[];
  /**
   * The tools of one server whose names become the same once sanitised (`delete_all`, `delete all`),
   * group by group in entry order: each got a hash-suffixed name the user should hear about.
   */
  sanitisingCollisions(): readonly (readonly NamespaceEntry[])[];
}

/** Characters outside `[A-Za-z0-9_-]` become `_`, one per code point (as the gate reads them, see remote-names.ts). */
export function sanitizeAlias(alias: string): string {
  return sanitizeNamePart(alias);
}

/** What every flat name of a server starts with (when it is not suffixed beyond it). */
export function toolPrefix(alias: string): string {
  return `mcp__${sanitizeAlias(alias)}__`;
}

function plainName(ref: ToolRef): string {
  return `${toolPrefix(ref.alias)}${sanitizeNamePart(ref.tool)}`;
}

/**
 * Round 0 is the documented form: the plain name cut to 57 characters, `_`, and 6 hex characters of the
 * SHA-1 of `alias::tool` (original, unsanitised). Later rounds salt the hash; they only exist so that two
 * names whose hashes agree in 6 hex characters still never overwrite each other.
 */
function suffixedName(ref: ToolRef, round: number): string {
  const seed = round === 0 ? `${ref.alias}::${ref.tool}` : `${ref.alias}::${ref.tool}::${round}`;
  const hash = createHash("sha1").update(seed, "utf8").digest("hex").slice(0, HASH_HEX_CHARS);
  return `${plainName(ref).slice(0, KEPT_PREFIX_CHARS)}_${hash}`;
}

/** `round` -1 is the plain name; 0 and up are suffixed. */
interface Slot {
  readonly ref: ToolRef;
  round: number;
  name: string;
}

function nameFor(ref: ToolRef, round: number): string {
  return round < 0 ? plainName(ref) : suffixedName(ref, round);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sorted by alias then tool (code-unit order, no locale), identical pairs kept once. */
function uniqueSorted(refs: readonly ToolRef[]): ToolRef[] {
  const byKey = new Map<string, ToolRef>();
  for (const { alias, tool } of refs) byKey.set(JSON.stringify([alias, tool]), { alias, tool });
  return [...byKey.values()].sort((a, b) => compareText(a.alias, b.alias) || compareText(a.tool, b.tool));
}

function collidingGroups(slots: readonly Slot[]): Slot[][] {
  const byName = new Map<string, Slot[]>();
  for (const slot of slots) {
    const group = byName.get(slot.name);
    if (group === undefined) byName.set(slot.name, [slot]);
    else group.push(slot);
  }
  return [...byName.values()].filter((group) => group.length > 1);
}

/**
 * Every name that collides moves on to its next form — but within a group only the members on the
 * lowest round move, so a suffixed name is not disturbed by a plain name that happens to equal it.
 * Each group's outcome depends only on its members, so the result does not depend on input order.
 */
function resolve(refs: readonly ToolRef[], reserved: ReadonlySet<string>): Slot[] {
  const slots = refs.map((ref): Slot => {
    const plain = plainName(ref);
    const round = plain.length > MAX_FLAT_NAME_CHARS || reserved.has(plain) ? 0 : -1;
    return { ref, round, name: nameFor(ref, round) };
  });
  for (let attempt = 0; attempt < MAX_RESOLVE_ROUNDS; attempt++) {
    const groups = collidingGroups(slots);
    if (groups.length === 0) return slots;
    for (const group of groups) {
      // A loop, not Math.min(...rounds): spreading a group of 200,000 overflows the stack.
      const lowest = group.reduce((least, slot) => Math.min(least, slot.round), Number.POSITIVE_INFINITY);
      for (const slot of group.filter((member) => member.round === lowest)) {
        slot.round += 1;
        slot.name = nameFor(slot.ref, slot.round);
      }
    }
  }
  throw new Error(`tool names still collide after ${MAX_RESOLVE_ROUNDS} rounds of suffixing`);
}

/**
 * `reservedNames`: names under each server's prefix that no tool may have as its flat name (the names rules
 * use for calls that reach a server, such as reading its resources): a tool named so is hash-suffixed.
 */
export function buildNamespace(refs: readonly ToolRef[], reservedNames: readonly string[] = []): Namespace {
  const aliases = new Set(refs.map((ref) => ref.alias));
  const reserved = new Set([...aliases].flatMap((alias) => reservedNames.map((name) => plainName({ alias, tool: name }))));
  const slots = resolve(uniqueSorted(refs), reserved);
  const entries: readonly NamespaceEntry[] = slots.map(({ ref, name }) => ({ ...ref, flatName: name }));
  const byFlatName = new Map<string, ToolRef>();
  const byAlias = new Map<string, Map<string, string>>();
  for (const { alias, tool, flatName } of entries) {
    byFlatName.set(flatName, { alias, tool });
    const tools = byAlias.get(alias) ?? new Map<string, string>();
    tools.set(tool, flatName);
    byAlias.set(alias, tools);
  }
  return {
    flatName(alias, tool) {
      const flatName = byAlias.get(alias)?.get(tool);
      if (flatName === undefined) throw new Error(`tool "${tool}" of "${alias}" is not in the namespace`);
      return flatName;
    },
    lookup(flatName) {
      return byFlatName.get(flatName);
    },
    entries() {
      return entries;
    },
    sanitisingCollisions() {
      const byPlainName = new Map<string, NamespaceEntry[]>();
      for (const entry of entries) {
        // Keyed by alias too: different servers whose names join to the same string are not one server's problem.
        const key = JSON.stringify([entry.alias, plainName(entry)]);
        const group = byPlainName.get(key);
        if (group === undefined) byPlainName.set(key, [entry]);
        else group.push(entry);
      }
      return [...byPlainName.values()].filter((group) => group.length > 1);
    },
  };
}

/**
 * One line per pair of servers whose tool prefixes run into each other: the same sanitised alias (`a.b`, `a_b`),
 * or one prefix beginning the other (`mcp__notes__` begins every `mcp__notes___…` of `notes_`), so their flat
 * names look alike and a glob that leaves the alias open reaches both. Aliases as written, not made safe for a
 * terminal: the caller prints the lines as the untrusted text they are. Sorted, so the same config says the same.
 */
export function aliasOverlapWarnings(aliases: readonly string[]): readonly string[] {
  const servers = [...new Set(aliases)]
    .map((alias) => ({ alias, prefix: toolPrefix(alias) }))
    .sort((a, b) => compareText(a.prefix, b.prefix) || compareText(a.alias, b.alias));
  const lines: string[] = [];
  // Sorted, the prefixes that begin with one follow it without a gap: each server is compared with that run only.
  servers.forEach((first, index) => {
    for (let next = index + 1; next < servers.length; next += 1) {
      const second = servers[next];
      if (second === undefined || !second.prefix.startsWith(first.prefix)) break;
      lines.push(overlapLine(first, second));
    }
  });
  return lines;
}

interface PrefixedAlias {
  readonly alias: string;
  readonly prefix: string;
}

function overlapLine(first: PrefixedAlias, second: PrefixedAlias): string {
  if (first.prefix === second.prefix) {
    return `servers "${first.alias}" and "${second.alias}" share the tool prefix ${first.prefix}: their tools look alike, and a rule that begins ${first.prefix} reaches both (rename one)`;
  }
  const open = `${first.prefix.slice(0, -1)}*`;
  return (
    `the tool prefix of server "${second.alias}" (${second.prefix}) begins with that of server "${first.alias}" (${first.prefix}): ` +
    `their tools look alike; a rule ${first.prefix}* reaches only "${first.alias}", but ${open} reaches both (rename one)`
  );
}
