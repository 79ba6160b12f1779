// What `${…}` means in an MCP config beside the environment, as the editors define it: VS Code's and Cursor's
// predefined variables (`${workspaceFolder}`, `${userHome}`, `${pathSeparator}`), and VS Code's `inputs`, whose
// `${input:id}` is a value the user types when the server starts — asked once, with hidden input where the
// file says `password: true`, and never written anywhere. This module reads the declarations and resolves
// the names; asking is the CLI's.
// https://code.visualstudio.com/docs/copilot/reference/mcp-configuration (inputs, predefined variables)
import { basename, sep } from "node:path";
import { fail, optionalField, readObject, readString, requiredField, type Env, type Expansion, type JsonObjectNode, type NamedVariables, type ReadContext } from "./config-reader.js";
import type { JsonNode } from "./json-reader.js";

/** One `inputs` entry: what the user is asked for, and whether the answer is typed hidden. */
export interface McpInput {
  readonly id: string;
  readonly description: string;
  readonly password: boolean;
}

/** The answers to a file's inputs, by id: kept in memory for the run, and handed to the redactor. */
export type InputAnswers = ReadonlyMap<string, string>;

const INPUT_REFERENCE = /\$\{input:([^}]*)\}/g;
/** VS Code's input types; mca asks only for a string (`promptString`), the common one. */
const PROMPT_STRING = "promptString";

/** `"inputs": [{ "type": "promptString", "id", "description", "password" }]`, read at its place; absent: none. */
export function readInputs(root: JsonObjectNode, context: ReadContext): McpInput[] {
  const node = optionalField(root, "inputs");
  if (node === undefined) return [];
  if (node.kind !== "array") return fail(context, ["inputs"], node.offset, "must be a list of inputs");
  const seen = new Set<string>();
  return node.items.map((item, index) => {
    const path = ["inputs", index];
    const input = readObject(item, path, context);
    const id = readString(requiredField(input, "id", path, context), [...path, "id"], context);
    if (seen.has(id)) fail(context, [...path, "id"], item.offset, `input "${id}" is declared twice`);
    seen.add(id);
    const type = optionalField(input, "type");
    if (type !== undefined && readString(type, [...path, "type"], context) !== PROMPT_STRING) {
      fail(context, [...path, "type"], type.offset, `mca asks only for "${PROMPT_STRING}" inputs`);
    }
    const description = optionalField(input, "description");
    const password = optionalField(input, "password");
    return {
      id,
      description: description === undefined ? id : readString(description, [...path, "description"], context),
      password: password?.kind === "boolean" ? password.value : false,
    };
  });
}

/** The ids a node's strings name with `${input:id}`, each once, in the order written. */
export function referencedInputs(node: JsonNode): string[] {
  const ids = new Set<string>();
  const visit = (value: JsonNode): void => {
    if (value.kind === "string") for (const match of value.value.matchAll(INPUT_REFERENCE)) ids.add(match[1] ?? "");
    if (value.kind === "array") value.items.forEach(visit);
    if (value.kind === "object") for (const member of value.members.values()) visit(member.value);
  };
  visit(node);
  return [...ids];
}

/** Where a config is read: the project folder the editors call the workspace, and the environment (for HOME). */
export interface VariablePlace {
  readonly projectDir: string;
  readonly env: Env;
  /** The file's declared inputs; a `${input:id}` not among them fails. */
  readonly inputs: readonly McpInput[];
  /** What the user typed for them; an input without an answer fails the entry that uses it. */
  readonly answers?: InputAnswers;
}

const ok = (value: string): Expansion => ({ ok: true, value });

/**
 * `${workspaceFolder}` (the project folder), `${workspaceFolderBasename}`, `${userHome}`, `${pathSeparator}`
 * and `${/}`, and `${input:id}`; any other name is left to the environment.
 */
export function hostVariables(place: VariablePlace): NamedVariables {
  const predefined = new Map<string, () => Expansion>([
    ["workspaceFolder", () => ok(place.projectDir)],
    ["workspaceFolderBasename", () => ok(basename(place.projectDir))],
    ["userHome", () => (place.env.HOME === undefined || place.env.HOME === "" ? { ok: false, reason: "${userHome}: HOME is not set" } : ok(place.env.HOME))],
    ["pathSeparator", () => ok(sep)],
    ["/", () => ok(sep)],
  ]);
  return (name) => {
    if (name.startsWith("input:")) return inputValue(name.slice("input:".length), place);
    return predefined.get(name)?.();
  };
}

function inputValue(id: string, place: VariablePlace): Expansion {
  const input = place.inputs.find((declared) => declared.id === id);
  if (input === undefined) return { ok: false, reason: `\${input:${id}}: no input "${id}" is declared in this file's "inputs"` };
  const answer = place.answers?.get(id);
  if (answer !== undefined) return ok(answer);
  return { ok: false, reason: `\${input:${id}} (${JSON.stringify(input.description)}) is asked in a terminal when the server starts, and this run has none to ask in` };
}
