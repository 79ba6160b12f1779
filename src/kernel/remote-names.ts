// The names a remote tool answers to in rules, and where a rule's alias ends. A flat name `mcp__<alias>__<tool>`
// cannot say where its alias stops (`mcp__notes___x` is tool `_x` of `notes` or tool `x` of `notes_`), so a rule
// that spells an alias out reaches only that server's tools, whatever else its glob would match.

/** Characters outside `[A-Za-z0-9_-]` become `_`, one per code point: how an alias and a tool name enter a flat name. */
export function sanitizeNamePart(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/gu, "_");
}

/** The second name a remote tool answers to in rules: its server's alias and its own name there, as written. */
export function serverSideName(alias: string, originalName: string): string {
  return `mcp__${alias}__${originalName}`;
}

const PREFIX = "mcp__";
const BOUNDARY = "__";

/**
 * Whether a rule whose tool part begins with the literal text `literal` (up to its first `*` or `?`) may reach a
 * tool of the server `alias` through a name of the form `mcp__<alias>__…`. A rule that spells an alias out, closed
 * by `__` before any glob character (`mcp__notes__*`), reaches only the server whose alias, as written or
 * sanitised, is that text: not `notes_`, whose flat names `mcp__notes___…` the glob alone would match. Where the
 * literal text closes more than one alias (`mcp__a__b__*`: `a`, or `a__b`), each of them is reached. A rule that
 * leaves the alias open (`mcp__*`, `mcp__no*`, `mcp__note?__*`) spans aliases on purpose and matches the whole name.
 */
export function reachesAlias(literal: string, alias: string): boolean {
  if (!spellsAnAlias(literal)) return true;
  return [alias, sanitizeNamePart(alias)].some((spelled) => literal.startsWith(`${PREFIX}${spelled}${BOUNDARY}`));
}

/** Whether the literal text closes an alias of at least one character: `mcp__x__`. */
function spellsAnAlias(literal: string): boolean {
  return literal.startsWith(PREFIX) && literal.indexOf(BOUNDARY, PREFIX.length + 1) !== -1;
}
