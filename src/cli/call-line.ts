// What a person types to call one tool — `/call <tool> <json>` in any mode, `mca call <tool> [json]` — read
// into a tool name and an arguments object, with errors that say what is wrong, and the person's sentence
// for a tool that does not exist (with the closest names there are).
import { describeError, isRecord, type Agent, type ToolArgs } from "../kernel/index.js";
import { untrustedText } from "./untrusted-text.js";

export interface CallLine {
  readonly tool: string;
  readonly args: ToolArgs;
}

/** `read_file {"path": "a b.txt"}`: the tool name, then everything after it is JSON (spaces allowed). */
export function parseCallLine(text: string): CallLine | Error {
  const trimmed = text.trim();
  if (trimmed === "") return new Error("usage: /call <tool> <json>");
  const match = /^(\S+)\s*([\s\S]*)$/.exec(trimmed);
  const tool = match?.[1];
  if (tool === undefined) return new Error("usage: /call <tool> <json>");
  const args = parseCallArgs(tool, match?.[2]);
  return args instanceof Error ? args : { tool, args };
}

/**
 * A person who calls a tool that does not exist gets a person's sentence (the model gets its own, from the
 * kernel): the name, the closest names there are, and where the list is. undefined when the tool exists
 * (a stand-in for a server that did not come up counts: its call names the reason).
 */
export function unknownToolProblem(agent: Pick<Agent, "tools" | "hasTool">, name: string): string | undefined {
  if (agent.hasTool(name)) return undefined;
  const closest = closestNames(name, agent.tools.map((tool) => tool.name));
  const hint = closest.length === 0 ? "" : `; did you mean ${closest.join(", ")}?`;
  return `there is no tool named ${untrustedText(JSON.stringify(name))}${hint} (\`mca tools\` lists them all)`;
}

/** Up to three names within a small edit distance, or containing the name typed, nearest first. */
function closestNames(name: string, names: readonly string[]): string[] {
  const typed = name.toLowerCase();
  const limit = Math.max(2, Math.floor(typed.length / 3));
  return names
    .map((candidate) => ({ candidate, distance: editDistance(typed, candidate.toLowerCase()) }))
    .filter(({ candidate, distance }) => distance <= limit || (typed.length >= 3 && candidate.toLowerCase().includes(typed)))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, 3)
    .map(({ candidate }) => candidate);
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** No text means `{}`; anything else must be a JSON object. */
export function parseCallArgs(tool: string, json: string | undefined): ToolArgs | Error {
  if (json === undefined || json.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return new Error(`invalid JSON arguments for ${tool}: ${describeError(error)}`);
  }
  if (!isRecord(value)) {
    return new Error(`arguments for ${tool} must be a JSON object, got ${describeJson(value)}`);
  }
  return value;
}

function describeJson(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
