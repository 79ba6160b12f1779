// The one tool shape of the agent: local tools and mounted MCP tools are both plain objects of this type,
// so truncation, the approval gate, loop detection and snapshots treat them alike. A call's arguments are
// checked once, before the gate: by the tool's own `parse`, or else against its inputSchema.

/** How a tool may affect the world; it picks the gate's default. "remote" tools always default to ask. */
export type ToolKind = "read" | "write" | "exec" | "remote";

/** A JSON Schema object describing a tool's arguments, kept verbatim (never rewritten or dereferenced). */
export type JsonSchema = { readonly [key: string]: unknown };

export type ToolArgs = Record<string, unknown>;

export interface ToolResult {
  /**
   * Everything the model will read. Cutting it to the model's budget happens in one place, the kernel's
   * `truncateResult` (tool-call.ts). A tool bounds only what it reads where its input has no end, and its
   * description says so: bash keeps the first 3,000 and last 4,000 bytes of a command's output while
   * reading it (a command may print gigabytes); read_file, search and list_dir read a window and stop.
   */
  readonly text: string;
  readonly isError: boolean;
  /**
   * Images for the model to see beside the text (an MCP server's screenshot, say), already checked: the
   * text keeps an `imageLine` where each stood. They are not part of the text's budget.
   */
  readonly images?: readonly ToolImage[];
}

/** The image formats the model takes. */
export type ImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";
export const IMAGE_MEDIA_TYPES: readonly ImageMediaType[] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/** What is told of an image where its pixels cannot go (the terminal, the JSON output, the transcript's index). */
export interface ImageInfo {
  readonly mediaType: ImageMediaType;
  /** Decoded size. */
  readonly bytes: number;
  readonly width: number;
  readonly height: number;
}

export interface ToolImage extends ImageInfo {
  /** Base64, checked to decode to an image of `mediaType` with these dimensions. */
  readonly data: string;
}

/** An image's metadata without its data. */
export function imageInfo({ mediaType, bytes, width, height }: ImageInfo): ImageInfo {
  return { mediaType, bytes, width, height };
}

/** `[image: image/png 1280×720, 84 kB]`: the line that stands for an image in a text. */
export function imageLine({ mediaType, bytes, width, height }: ImageInfo): string {
  return `[image: ${mediaType} ${width}×${height}, ${formatBytes(bytes)}]`;
}

/** A size for people: bytes, kB or MB (powers of 1,000). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

export interface ToolContext {
  /** Aborted when the user presses Ctrl-C once; a tool stops its work and settles promptly. */
  readonly signal: AbortSignal;
  /** Progress for the user's eyes (a spinner line); never reaches the model. */
  readonly onProgress?: (message: string) => void;
}

/**
 * Where a command will run. `inside`: in the operating-system sandbox (read-only system, the project
 * writable but its protected folders, no network unless allowed). `unavailable`: no sandbox in this run
 * (none on the platform, bubblewrap missing, or turned off by the user). `requested-outside`: the model
 * asked to run this one call outside the sandbox; `network-requested`: inside it, but with the network
 * the settings do not give. Only a person can allow either of those two.
 */
export type CommandSandbox = "inside" | "unavailable" | "requested-outside" | "network-requested";

/**
 * What a call's argument globs are matched against. `command`: a shell command (see shell-command.ts and gate.ts for
 * how each kind of rule reads it). `path`: the path the call touches, for the local file tools its real
 * path relative to the project; `outside` when it leads out of the project, which no allow rule covers.
 * `arguments`: the stable JSON of all the arguments. `server`: a call that reaches the MCP server it names.
 */
export type GateSubject =
  | { readonly kind: "command"; readonly text: string; readonly sandbox: CommandSandbox }
  | { readonly kind: "path"; readonly text: string; readonly outside: boolean }
  | { readonly kind: "arguments"; readonly text: string }
  /**
   * A request a tool sends to one MCP server on the model's behalf (`read_mcp_resource`): rules reach the
   * call as `mcp__<alias>__<name>` as well as by the tool's name, their argument globs match `text`.
   */
  | { readonly kind: "server"; readonly alias: string; readonly name: string; readonly text: string };

/**
 * A remote tool as its server defines it, the parts a person judges it by: what `definitionHash` covers, and
 * what an approval compares when the definition changed (`description` without mca's own prefix).
 */
export interface ToolDefinition {
  readonly name: string;
  /** The model reads it where a tool has no description. */
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema | boolean;
  readonly annotations?: Readonly<Record<string, unknown>>;
}

/** How a remote tool's definition compares with what the user saw before (docs/safety.md, "Pinned definitions"). */
export interface DefinitionStatus {
  /** null: its server is not pinned; "same": as pinned; "changed": not as pinned (a tool added since included). */
  readonly pinned: "same" | "changed" | null;
  /** Not the definition its server gave first in this session (a reconnect or a new listing changed it). */
  readonly changedThisSession: boolean;
}

/** An icon as an MCP server gives it (2025-11-25 `Icon`): a URL or data URI a host may load, with its type and sizes. */
export interface ToolIcon {
  readonly src: string;
  readonly mimeType?: string;
  readonly sizes?: readonly string[];
  readonly theme?: "light" | "dark";
}

/** `A`: the typed arguments a local tool's `parse` makes; remote tools take the model's object as it is. */
export interface Tool<A = ToolArgs> {
  /** The name the model sees (for remote tools, the flat `mcp__alias__tool`). */
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly kind: ToolKind;
  /** "local", or the alias of the MCP server the tool comes from. */
  readonly source: string;
  /** The name the tool has at its source (the server's own name for a remote tool). */
  readonly originalName: string;
  /**
   * A remote tool's name under its server's prefix, which rules reach it by besides its flat name
   * (`mcp__<alias>__<it>`, see remote-names.ts): its name on the server, given by whoever mounts it. Absent, rules
   * reach it by its flat name only: so for a server's tool whose name is one a call naming its server answers to
   * (a GateSubject of kind "server"), as a rule given for those calls must not reach a tool the server can add.
   */
  readonly serverRuleName?: string;
  /** A remote tool's self-declared annotations: shown to the user, never trusted by the gate. */
  readonly annotations?: Readonly<Record<string, unknown>>;
  /** A remote tool's icons, already checked safe to pass on: for scripts (`mca tools --json`), never drawn in the terminal. */
  readonly icons?: readonly ToolIcon[];
  /**
   * A remote tool's identity as defined: sha-256 (hex) of the stable JSON of `definition`. An "allow for this
   * session" holds for this hash only, so a server that redefines the tool is asked about again.
   */
  readonly definitionHash?: string;
  /** A remote tool's definition as its server gave it, for the diff an approval shows when it changed. */
  readonly definition?: ToolDefinition;
  readonly definitionStatus?: DefinitionStatus;
  /**
   * The tool's own check of the model's arguments, run once per call: typed arguments for `changes` and
   * `run`, or an Error the model reads. Without it the arguments are checked against `inputSchema`.
   */
  parse?(args: ToolArgs): A | Error;
  /**
   * What the approval gate's argument globs match for this call, when the arguments as written would
   * mislead it: the local file tools give the real path relative to the project. Without it the gate
   * reads the arguments themselves (see `callSubject`).
   */
  gateSubject?(args: A): GateSubject;
  /** Files (absolute paths) this call would change; the kernel snapshots them before `run`. */
  changes?(args: A): readonly string[];
  /** Errors the model can fix come back as `isError: true`; a throw is caught by the kernel and becomes one. */
  run(args: A, context: ToolContext): Promise<ToolResult>;
}

/** A call's arguments checked once: by the tool's `parse`, or else by the shallow schema check below. */
export function parseToolArgs(tool: Tool, args: ToolArgs): ToolArgs | Error {
  if (tool.parse !== undefined) return tool.parse(args);
  const problem = checkArgs(tool.inputSchema, args);
  return problem === null ? args : new Error(problem);
}

// The schema check of tools without a `parse` (remote tools): a malformed call comes back to the model
// as an error it can fix. Deliberately shallow: the argument must be an object, the `required` keys must
// be present, and each top-level property with a primitive `type` (or a list of them) must have that
// type. Nested schemas, `$ref`, composition keywords, formats, enums and `additionalProperties` are left
// to the tool itself.

/** null when the arguments pass; otherwise every problem found, in one sentence the model can act on. */
export function checkArgs(schema: JsonSchema, args: unknown): string | null {
  if (!isRecord(args)) return `arguments must be a JSON object, got ${typeName(args)}`;
  const problems: string[] = [];
  const required = schema.required;
  if (Array.isArray(required)) {
    for (const key of required) {
      if (typeof key === "string" && args[key] === undefined) problems.push(`missing required argument "${key}"`);
    }
  }
  const properties = schema.properties;
  if (isRecord(properties)) {
    for (const [key, property] of Object.entries(properties)) {
      const value = args[key];
      if (value === undefined || !isRecord(property)) continue;
      const expected = expectedTypes(property.type);
      if (expected.length > 0 && !expected.some((type) => hasType(value, type))) {
        problems.push(`"${key}" must be ${expected.join(" or ")}, got ${typeName(value)}`);
      }
    }
  }
  return problems.length === 0 ? null : problems.join("; ");
}

const KNOWN_TYPES = ["string", "number", "integer", "boolean", "object", "array", "null"];

function expectedTypes(type: unknown): string[] {
  const listed = Array.isArray(type) ? type : [type];
  const known = listed.filter((entry): entry is string => typeof entry === "string" && KNOWN_TYPES.includes(entry));
  // An unknown type name anywhere in the list means we cannot judge: accept rather than reject wrongly.
  return known.length === listed.length ? known : [];
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "object":
      return isRecord(value);
    case "array":
      return Array.isArray(value);
    case "null":
      return value === null;
    default:
      return true;
  }
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isInteger(value)) return "integer";
  return typeof value;
}

/** A JSON object (not an array, not null): what arguments, schemas and records read from files must be. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
