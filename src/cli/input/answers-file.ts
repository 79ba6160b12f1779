// `--input-responses <file>`: answers to form elicitations given in advance, for runs with no terminal to
// ask in. Validated once at start-up; errors name the file, line, column and place.
import { readFile } from "node:fs/promises";
import { ConfigError, fail, formatPath, optionalField, positionAt, readJson, readObject, readString, rejectUnknownFields, requiredField } from "../../config/index.js";
import type { JsonNode, JsonReadError, Path, ReadContext, SourcePosition } from "../../config/index.js";
import { describeError } from "../../kernel/index.js";
import { ELICIT_ACTIONS, type ElicitResult, type FieldValue } from "./form.js";

/**
 * The file is `{ "<server alias>": { "<tool, the server's own name>": { "<input request key>": <ElicitResult> } } }`,
 * e.g. `{"tickets": {"close_ticket": {"confirm": {"action": "accept", "content": {"confirm": true}}}}}`.
 */
export interface InputAnswers {
  /** The file as the user named it. */
  readonly file: string;
  /** alias → tool → input request key → the answer. */
  readonly servers: ReadonlyMap<string, ReadonlyMap<string, ReadonlyMap<string, ElicitResult>>>;
  /** Where each alias is written, so that an alias no server has is named with its line. */
  readonly aliasPositions: ReadonlyMap<string, SourcePosition>;
}

export interface FoundAnswer {
  readonly answer: ElicitResult;
  /** `tickets.close_ticket.confirm`, to tell the user which answer was used. */
  readonly place: string;
}

function readError(error: JsonReadError, context: ReadContext): ConfigError {
  const position = positionAt(context.text, error.offset);
  switch (error.kind) {
    case "syntax":
      return new ConfigError(context.file, "", `invalid JSON: ${error.message}`, position);
    case "duplicate-key":
      return new ConfigError(context.file, formatPath([...error.path, error.key]), `duplicate key "${error.key}": it is written more than once`, position);
    default: {
      const unknown: never = error;
      throw new Error(`unknown read error ${JSON.stringify(unknown)}`);
    }
  }
}

function readFieldValue(node: JsonNode, path: Path, context: ReadContext): FieldValue {
  switch (node.kind) {
    case "string":
    case "number":
    case "boolean":
      return node.value;
    case "array":
      return node.items.map((item, index) => readString(item, [...path, index], context));
    default:
      return fail(context, path, node.offset, "must be a string, a number, true or false, or a list of strings");
  }
}

function readAnswer(node: JsonNode, path: Path, context: ReadContext): ElicitResult {
  const object = readObject(node, path, context);
  rejectUnknownFields(object, path, ["action", "content"], context);
  const actionNode = requiredField(object, "action", path, context);
  const written = readString(actionNode, [...path, "action"], context);
  const action = ELICIT_ACTIONS.find((candidate) => candidate === written);
  if (action === undefined) return fail(context, [...path, "action"], actionNode.offset, 'must be "accept", "decline" or "cancel"');
  const contentNode = optionalField(object, "content");
  if (action !== "accept") {
    if (contentNode !== undefined) fail(context, [...path, "content"], contentNode.offset, `only an "accept" carries content`);
    return { action };
  }
  if (contentNode === undefined) return { action };
  const content = readObject(contentNode, [...path, "content"], context);
  const entries = [...content.members].map(([name, member]): [string, FieldValue] => [name, readFieldValue(member.value, [...path, "content", name], context)]);
  // fromEntries makes own properties, so a field named "__proto__" stays an ordinary field.
  return { action, content: Object.fromEntries(entries) };
}

function mapOf<T>(node: JsonNode, path: Path, context: ReadContext, read: (value: JsonNode, at: Path) => T): Map<string, T> {
  const object = readObject(node, path, context);
  return new Map([...object.members].map(([key, member]) => [key, read(member.value, [...path, key])]));
}

/** The answers in `text`, or the first ConfigError found. Pure: `file` is only used in messages. */
export function parseInputAnswers(text: string, file: string): InputAnswers | ConfigError {
  const context: ReadContext = { file, text, env: {} };
  const read = readJson(text);
  if (!read.ok) return readError(read.error, context);
  try {
    const root = readObject(read.value, [], context);
    const servers = mapOf(root, [], context, (tools, at) => mapOf(tools, at, context, (keys, toolAt) => mapOf(keys, toolAt, context, (answer, keyAt) => readAnswer(answer, keyAt, context))));
    const aliasPositions = new Map([...root.members].map(([alias, member]) => [alias, positionAt(text, member.keyOffset)]));
    return { file, servers, aliasPositions };
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
}

/** Reads and validates the file at `path`; `file` is how the user wrote it on the command line. */
export async function loadInputAnswers(path: string, file: string): Promise<InputAnswers | ConfigError> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    return new ConfigError(file, "", `cannot read the file: ${describeError(error)}`);
  }
  return parseInputAnswers(text, file);
}

/** An answer for a server the config does not have is a typo that would never be used: it is an error. */
export function unknownAliasError(answers: InputAnswers, aliases: readonly string[]): ConfigError | undefined {
  for (const [alias, position] of answers.aliasPositions) {
    if (aliases.includes(alias)) continue;
    const known = aliases.length === 0 ? "no MCP servers are configured" : `the configured servers are ${aliases.map((name) => JSON.stringify(name)).join(", ")}`;
    return new ConfigError(answers.file, formatPath([alias]), `no MCP server has this alias (${known})`, position);
  }
  return undefined;
}

export function findAnswer(answers: InputAnswers, server: string, tool: string, key: string): FoundAnswer | undefined {
  const answer = answers.servers.get(server)?.get(tool)?.get(key);
  return answer === undefined ? undefined : { answer, place: formatPath([server, tool, key]) };
}
