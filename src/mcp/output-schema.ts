// A tool's structured result checked against its outputSchema
// (https://modelcontextprotocol.io/specification/2025-11-25/server/tools#output-schema): "Servers MUST provide
// structured results that conform to this schema. Clients SHOULD validate structured results against this
// schema." Each tool's schema is compiled once, on its first call; ajv is imported then, so start-up pays nothing for it.
import type { ErrorObject, Options } from "ajv";
import { describeError as describeThrown, withinTimeLimit, type JsonSchema } from "../kernel/index.js";

/** What a check found: nothing wrong, what is wrong (each error a path and a message), or why it could not check. */
export type OutputCheck =
  | { readonly kind: "valid" }
  | { readonly kind: "invalid"; readonly errors: readonly string[] }
  | { readonly kind: "unchecked"; readonly reason: string };

type Schema = JsonSchema | boolean;

/** A tool as the check reads it (a RemoteToolInfo, as its server lists it): its outputSchema, if it declares one. */
export interface DeclaredOutput {
  readonly outputSchema?: Schema;
}
type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** What a validator is made with: its own instance for each schema, so that one tool's `$id` never shadows another's. */
type MakeValidator = (schema: Schema) => Validate;

/**
 * `format` is not checked: in 2020-12 it is an annotation unless a validator opts in, and an unknown format
 * must not fail a result. Not strict: servers write keywords of their own.
 */
const AJV_OPTIONS: Options = { strict: false, allErrors: true, validateFormats: false, logger: false };

interface Draft {
  /** The `$schema` values that name it, without a trailing `#`. */
  readonly names: readonly string[];
  readonly load: () => Promise<MakeValidator>;
}

/** A schema without `$schema` is 2020-12, MCP's default. */
const DRAFT_2020_12: Draft = {
  names: ["https://json-schema.org/draft/2020-12/schema"],
  load: async () => {
    const { Ajv2020 } = await import("ajv/dist/2020.js");
    return (schema) => new Ajv2020(AJV_OPTIONS).compile(schema);
  },
};

/** The drafts mca checks, by the `$schema` that names them. */
const DRAFTS: readonly Draft[] = [
  DRAFT_2020_12,
  {
    names: ["https://json-schema.org/draft/2019-09/schema"],
    load: async () => {
      const { Ajv2019 } = await import("ajv/dist/2019.js");
      return (schema) => new Ajv2019(AJV_OPTIONS).compile(schema);
    },
  },
  {
    // What zod-to-JSON-Schema writes for the SDK v1's tools.
    names: ["http://json-schema.org/draft-07/schema"],
    load: async () => {
      const { Ajv } = await import("ajv");
      return (schema) => new Ajv(AJV_OPTIONS).compile(schema);
    },
  },
];

function draftOf(schema: Schema): Draft | Error {
  const named = typeof schema === "object" ? schema.$schema : undefined;
  if (named === undefined) return DRAFT_2020_12;
  const name = typeof named === "string" ? named.replace(/#$/, "") : "";
  const draft = DRAFTS.find((candidate) => candidate.names.includes(name));
  const known = DRAFTS.flatMap((candidate) => candidate.names).join(", ");
  return draft ?? new Error(`its $schema ${JSON.stringify(named).slice(0, 100)} is none that mca checks (${known})`);
}

async function compile(schema: Schema): Promise<Validate | Error> {
  const draft = draftOf(schema);
  if (draft instanceof Error) return draft;
  try {
    return (await draft.load())(schema);
  } catch (error) {
    return new Error(clip(describeThrown(error)));
  }
}

/** Why a tool's outputSchema cannot be used to check its results (`mca mcp doctor`), or undefined when it compiles. */
export async function outputSchemaProblem(schema: Schema): Promise<string | undefined> {
  const validate = await compile(schema);
  return validate instanceof Error ? validate.message : undefined;
}

/**
 * A check may run the server's own regular expressions (`pattern`, `patternProperties`), and a backtracking
 * engine can take minutes on one (`^(a+)+$`) while nothing else of mca runs. So a check runs under a time
 * limit, which V8 enforces inside a regular expression too: past it the result is left unchecked.
 */
export const CHECK_TIME_LIMIT_MS = 1000;

/** By tool: a listing made anew (a reconnect, a changed list) brings new objects, compiled anew. */
const compiled = new WeakMap<DeclaredOutput, Promise<Validate | Error>>();

/** Errors named one by one in a failed result; the rest are counted. */
const MAX_LISTED_ERRORS = 3;
const MAX_ERROR_CHARS = 200;

function clip(text: string): string {
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}…` : text;
}

/** `/count must be integer`; the whole value is `/`; the property a schema forbids is named. */
function describeError(error: ErrorObject): string {
  const extra = error.params.additionalProperty;
  const named = typeof extra === "string" ? ` (${JSON.stringify(extra)})` : "";
  return clip(`${error.instancePath === "" ? "/" : error.instancePath} ${error.message ?? `fails ${error.keyword}`}${named}`);
}

/** Checks `value` against the tool's outputSchema (a tool without one passes). */
export async function checkStructuredContent(tool: DeclaredOutput, value: unknown): Promise<OutputCheck> {
  const schema = tool.outputSchema;
  if (schema === undefined) return { kind: "valid" };
  let validate = compiled.get(tool);
  if (validate === undefined) {
    validate = compile(schema);
    compiled.set(tool, validate);
  }
  const ready = await validate;
  if (ready instanceof Error) return { kind: "unchecked", reason: ready.message };
  const verdict = withinTimeLimit(() => ready(value), CHECK_TIME_LIMIT_MS);
  if (verdict instanceof Error) return { kind: "unchecked", reason: `the check took longer than ${CHECK_TIME_LIMIT_MS} ms (a pattern of the schema may be too costly)` };
  if (verdict) return { kind: "valid" };
  const errors = (ready.errors ?? []).map(describeError);
  const more = errors.length - MAX_LISTED_ERRORS;
  return { kind: "invalid", errors: more > 0 ? [...errors.slice(0, MAX_LISTED_ERRORS), `and ${more} more`] : errors };
}
