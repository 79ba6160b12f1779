// `--output-schema <file.json>`, as `codex exec` has it: the run's final message must be a JSON value valid
// against the schema. The model is told so with each prompt and asked once more when its answer is not; the
// result then carries the parsed value as `structured_output`.
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { checkStructuredContent, outputSchemaProblem } from "../mcp/index.js";
import { describeError, isRecord, type JsonSchema } from "../kernel/index.js";
import type { StructuredOutcome } from "./headless-output.js";

/** A schema file of the user's, read and known to compile. */
export interface OutputSchema {
  readonly file: string;
  readonly schema: JsonSchema | boolean;
}

/** A schema bigger than this is not a shape for one answer, and would crowd the prompt it is sent in. */
const MAX_SCHEMA_BYTES = 256 * 1024;

/** The file read (relative to the working directory), parsed and compiled; an Error names the file and what is wrong with it. */
export async function loadOutputSchema(path: string): Promise<OutputSchema | Error> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    return new Error(`--output-schema ${path}: ${describeError(error)}`);
  }
  if (Buffer.byteLength(text) > MAX_SCHEMA_BYTES) return new Error(`--output-schema ${path}: over ${MAX_SCHEMA_BYTES / 1024} kB`);
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    return new Error(`--output-schema ${path}: not JSON (${describeError(error)})`);
  }
  if (typeof schema !== "boolean" && !isRecord(schema)) return new Error(`--output-schema ${path}: a JSON Schema is an object (or true, or false)`);
  const problem = await outputSchemaProblem(schema);
  if (problem !== undefined) return new Error(`--output-schema ${path}: not a usable JSON Schema (${problem})`);
  return { file, schema };
}

/** Said after each prompt: what the final message must be. */
export function schemaInstruction(schema: OutputSchema): string {
  return [
    "",
    "",
    "Your final message must be a single JSON value that is valid against the JSON Schema below, and nothing else:",
    "no words before or after it, no code fence. Messages before the final one (with tool calls) are not bound by it.",
    JSON.stringify(schema.schema),
  ].join("\n");
}

/** The one retry: what was wrong, and the same demand. */
export function retryPrompt(schema: OutputSchema, reason: string): string {
  return `Your final message is not valid for the output schema: ${reason}.${schemaInstruction(schema)}`;
}

/** The final message's text parsed and checked; a code fence around the whole value is tolerated. */
export async function checkFinalMessage(schema: OutputSchema, text: string): Promise<StructuredOutcome> {
  const bare = unfenced(text.trim());
  let value: unknown;
  try {
    value = JSON.parse(bare);
  } catch {
    return { kind: "invalid", reason: bare === "" ? "the final message has no text" : "the final message is not JSON" };
  }
  const check = await checkStructuredContent({ outputSchema: schema.schema }, value);
  switch (check.kind) {
    case "valid":
      return { kind: "valid", value };
    case "invalid":
      return { kind: "invalid", reason: `the final message does not match the schema: ${check.errors.join("; ")}` };
    case "unchecked":
      return { kind: "invalid", reason: `the final message could not be checked against the schema: ${check.reason}` };
    default: {
      const unknown: never = check;
      throw new Error(`unknown check ${JSON.stringify(unknown)}`);
    }
  }
}

const FENCED = /^```[a-z]*\n([\s\S]*)\n```$/u;

function unfenced(text: string): string {
  return FENCED.exec(text)?.[1] ?? text;
}
