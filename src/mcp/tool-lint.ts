// `mca mcp doctor`'s lint of the servers' tool definitions: what the model API would refuse, and what makes a
// model choose worse (no description, names one letter apart across servers, no annotations). A table of
// checks over each definition as its server lists it, plus one pass across servers for near-duplicate names.
import { buildNamespace, MAX_FLAT_NAME_CHARS, sanitizeAlias, toolPrefix, type NamespaceEntry } from "./namespace.js";
import { outputSchemaProblem } from "./output-schema.js";
import { SERVER_SUBJECT_NAMES } from "./resources.js";
import type { RemoteToolInfo } from "./tool-list.js";

export type LintSeverity = "error" | "warning" | "info";

/** What a finding is about: stable, for scripts (`mca mcp doctor --json`). */
export type LintCheck =
  | "name-sanitised"
  | "name-suffixed"
  | "no-description"
  | "long-description"
  | "input-not-object"
  | "input-top-level-combinator"
  | "required-not-in-properties"
  | "near-duplicate-name"
  | "output-schema-invalid"
  | "output-schema-not-object"
  | "no-annotations";

export interface LintFinding {
  readonly severity: LintSeverity;
  readonly check: LintCheck;
  readonly server: string;
  /** The tool's own name on its server. */
  readonly tool: string;
  readonly message: string;
}

export interface LintedServer {
  readonly alias: string;
  readonly tools: readonly RemoteToolInfo[];
}

/** Past this, a description costs every request more than it helps choose. */
export const MAX_DESCRIPTION_CHARS = 2000;
/** "input_schema does not support oneOf, allOf, or anyOf at the top level" (the Messages API's refusal). */
const TOP_LEVEL_COMBINATORS = ["oneOf", "anyOf", "allOf"] as const;
/**
 * Names one edit apart are only compared from this length on: among short names one letter is most of the
 * meaning (`get` and `set`, `read` and `head`), so flagging them would be noise.
 */
const MIN_NEAR_DUPLICATE_CHARS = 5;
/** Other tools named in one near-duplicate finding; the rest are counted. */
const MAX_NAMED_NEIGHBOURS = 3;

interface CheckInput {
  readonly tool: RemoteToolInfo;
  readonly entry: NamespaceEntry;
}

interface DefinitionCheck {
  readonly check: LintCheck;
  readonly severity: LintSeverity;
  /** The finding's message, or undefined when the definition passes. */
  readonly find: (input: CheckInput) => string | undefined;
}

const count = (value: number): string => value.toLocaleString("en-US");

/** Each definition's own checks, in the order findings are listed. */
const DEFINITION_CHECKS: readonly DefinitionCheck[] = [
  // The model API takes a tool name matching ^[a-zA-Z0-9_-]{1,64}$. The flat names mca sends always do
  // (namespace.ts); these two say where it had to change the server's name to get there.
  {
    check: "name-sanitised",
    severity: "warning",
    find: ({ tool, entry }) =>
      sanitizeAlias(tool.name) === tool.name
        ? undefined
        : `its name has characters outside [a-zA-Z0-9_-], which the model API refuses in a tool name: mca offers it as ${entry.flatName}`,
  },
  {
    check: "name-suffixed",
    severity: "warning",
    find: ({ tool, entry }) => {
      const plain = `${toolPrefix(entry.alias)}${sanitizeAlias(tool.name)}`;
      if (entry.flatName === plain) return undefined;
      if (plain.length > MAX_FLAT_NAME_CHARS) {
        return `${plain} is ${plain.length} characters, more than the ${MAX_FLAT_NAME_CHARS} the model API accepts: mca offers it as ${entry.flatName}`;
      }
      return `another tool of this server has the same name once sanitised: mca offers it as ${entry.flatName}`;
    },
  },
  {
    check: "no-description",
    severity: "warning",
    find: ({ tool }) => ((tool.description ?? "").trim() === "" ? "no description: the model has only the name to choose it by" : undefined),
  },
  {
    check: "long-description",
    severity: "warning",
    find: ({ tool }) => {
      const chars = tool.description?.length ?? 0;
      return chars > MAX_DESCRIPTION_CHARS
        ? `its description is ${count(chars)} characters (more than ${count(MAX_DESCRIPTION_CHARS)}): every request carries all of it`
        : undefined;
    },
  },
  {
    check: "input-not-object",
    severity: "error",
    find: ({ tool }) => {
      const type = tool.inputSchema.type;
      if (type === "object") return undefined;
      return `its inputSchema is not an object schema (${type === undefined ? "no type" : `type ${JSON.stringify(type)}`}): the model API takes only "type": "object"`;
    },
  },
  {
    check: "input-top-level-combinator",
    severity: "error",
    find: ({ tool }) => {
      const used = TOP_LEVEL_COMBINATORS.filter((keyword) => keyword in tool.inputSchema);
      return used.length === 0 ? undefined : `its inputSchema has ${used.join(", ")} at the top level, which the model API refuses`;
    },
  },
  {
    check: "required-not-in-properties",
    severity: "error",
    find: ({ tool }) => {
      const { required, properties } = tool.inputSchema;
      if (required === undefined) return undefined;
      if (!Array.isArray(required) || !required.every((name): name is string => typeof name === "string")) {
        return "its inputSchema's required is not a list of property names";
      }
      const defined = typeof properties === "object" && properties !== null ? Object.keys(properties) : [];
      const missing = required.filter((name) => !defined.includes(name));
      return missing.length === 0 ? undefined : `its inputSchema requires ${missing.map((name) => JSON.stringify(name)).join(", ")}, not among its properties`;
    },
  },
  {
    check: "no-annotations",
    severity: "info",
    find: ({ tool }) => (tool.annotations === undefined ? "no annotations: every call asks anyway, but the model cannot tell read from write" : undefined),
  },
];

/** An outputSchema that ajv cannot compile (as results are checked) is an error; one that is not an object schema, a warning. */
async function outputSchemaFindings(server: string, tool: RemoteToolInfo): Promise<LintFinding[]> {
  const schema = tool.outputSchema;
  if (schema === undefined) return [];
  const problem = await outputSchemaProblem(schema);
  const finding = (severity: LintSeverity, check: LintCheck, message: string): LintFinding[] => [{ severity, check, server, tool: tool.name, message }];
  if (problem !== undefined) return finding("error", "output-schema-invalid", `its outputSchema cannot be compiled, so its results go unchecked: ${problem}`);
  const type = typeof schema === "boolean" ? undefined : schema.type;
  if (type === "object") return [];
  const what = typeof schema === "boolean" ? `the schema ${String(schema)}` : type === undefined ? "no type" : `type ${JSON.stringify(type)}`;
  return finding("warning", "output-schema-not-object", `its outputSchema is not an object schema (${what}): structured results are JSON objects`);
}

/** Case, `_` and `-` ignored: `get_note`, `getNote` and `get-note` are one name to a reader. */
function normalised(name: string): string {
  return name.toLowerCase().replace(/[_-]/gu, "");
}

/** Whether `a` becomes `b` by at most one insertion, deletion or substitution; linear in their length. */
export function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i += 1;
  if (short.length === long.length) return short.slice(i + 1) === long.slice(i + 1);
  return short.slice(i) === long.slice(i + 1);
}

interface Named {
  /** The server's place in the given order. */
  readonly order: number;
  readonly server: string;
  readonly tool: string;
  readonly key: string;
}

/** The strings one deletion away: two names within one edit share one of these (or one is the other's). */
function neighbourhoodKeys(key: string): string[] {
  const keys = [key];
  if (key.length < MIN_NEAR_DUPLICATE_CHARS) return keys;
  for (let index = 0; index < key.length; index += 1) keys.push(key.slice(0, index) + key.slice(index + 1));
  return keys;
}

/** Whether `a` is a near-duplicate of `b`, a tool of a server listed before its own. */
function isNearDuplicate(a: Named, b: Named): boolean {
  if (b.order >= a.order) return false;
  if (a.key === b.key) return true;
  return Math.min(a.key.length, b.key.length) >= MIN_NEAR_DUPLICATE_CHARS && withinOneEdit(a.key, b.key);
}

/**
 * Across servers only (one server's `get_note` and `get_notes` are its own design): for each tool, the tools
 * of servers listed before its own whose names are the same or one edit apart once normalised — the finding
 * goes to the later server's tool, so a clean server listed first stays clean. Buckets keyed by deletions
 * keep this near-linear for thousands of tools.
 */
function nearDuplicateFindings(servers: readonly LintedServer[]): Map<string, LintFinding> {
  const named: Named[] = servers.flatMap((server, order) => server.tools.map((tool) => ({ order, server: server.alias, tool: tool.name, key: normalised(tool.name) })));
  const buckets = new Map<string, Named[]>();
  for (const item of named) {
    for (const key of new Set(neighbourhoodKeys(item.key))) {
      const bucket = buckets.get(key);
      if (bucket === undefined) buckets.set(key, [item]);
      else bucket.push(item);
    }
  }
  const neighbours = new Map<Named, Set<Named>>();
  for (const bucket of buckets.values()) {
    for (const a of bucket) {
      for (const b of bucket) {
        if (a === b || !isNearDuplicate(a, b)) continue;
        const own = neighbours.get(a) ?? new Set<Named>();
        own.add(b);
        neighbours.set(a, own);
      }
    }
  }
  const findings = new Map<string, LintFinding>();
  for (const [item, others] of neighbours) {
    const list = [...others];
    const shown = list.slice(0, MAX_NAMED_NEIGHBOURS).map((other) => `${JSON.stringify(other.tool)} of ${JSON.stringify(other.server)}`);
    const more = list.length > MAX_NAMED_NEIGHBOURS ? ` and ${list.length - MAX_NAMED_NEIGHBOURS} more` : "";
    const message = `its name is the same as, or one letter from, ${shown.join(", ")}${more} (case, "_" and "-" ignored): the model may take one for the other`;
    findings.set(toolKey(item.server, item.tool), { severity: "warning", check: "near-duplicate-name", server: item.server, tool: item.tool, message });
  }
  return findings;
}

function toolKey(server: string, tool: string): string {
  return JSON.stringify([server, tool]);
}

const SEVERITY_ORDER: Readonly<Record<LintSeverity, number>> = { error: 0, warning: 1, info: 2 };

/** Every finding, server by server and tool by tool in the given order; a tool's errors first, then warnings, then notes. */
export async function lintTools(servers: readonly LintedServer[]): Promise<LintFinding[]> {
  const namespace = buildNamespace(servers.flatMap((server) => server.tools.map((tool) => ({ alias: server.alias, tool: tool.name }))), SERVER_SUBJECT_NAMES);
  const entries = new Map(namespace.entries().map((entry) => [toolKey(entry.alias, entry.tool), entry]));
  const nearDuplicates = nearDuplicateFindings(servers);
  const findings: LintFinding[] = [];
  for (const server of servers) {
    for (const tool of server.tools) {
      const key = toolKey(server.alias, tool.name);
      const entry = entries.get(key);
      if (entry === undefined) throw new Error(`tool ${key} is missing from its own namespace`);
      const own: LintFinding[] = [];
      for (const { check, severity, find } of DEFINITION_CHECKS) {
        const message = find({ tool, entry });
        if (message !== undefined) own.push({ severity, check, server: server.alias, tool: tool.name, message });
      }
      const nearDuplicate = nearDuplicates.get(key);
      if (nearDuplicate !== undefined) own.push(nearDuplicate);
      own.push(...(await outputSchemaFindings(server.alias, tool)));
      findings.push(...own.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]));
    }
  }
  return findings;
}
