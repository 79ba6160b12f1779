// The scripted model: plays a fixed list of turns, one per request, whatever the request says — for
// tests and for `MCA_MOCK_SCRIPT=<file>`. A turn is either a text reply or a list of tool calls.
import { readFileSync } from "node:fs";
import { describeError, isRecord, type AssistantMessage, type Model, type ToolArgs } from "../kernel/index.js";

export interface ScriptedToolCall {
  readonly name: string;
  readonly input?: ToolArgs;
}

/** A JSON string is a text reply; a JSON array of `{ "name", "input"? }` is a list of tool calls. */
export type ScriptedTurn = string | readonly ScriptedToolCall[];

export const SCRIPT_EXHAUSTED_TEXT = "(the script has no more turns)";

/** `script` is the turns themselves or the path of a JSON file holding their array; a bad file throws. */
export function createScriptedModel(script: readonly ScriptedTurn[] | string): Model {
  const turns = typeof script === "string" ? loadScript(script) : script;
  let nextTurn = 0;
  let nextId = 1;
  return {
    name: "scripted",
    async complete(request) {
      request.signal.throwIfAborted();
      const turn = turns[nextTurn] ?? SCRIPT_EXHAUSTED_TEXT;
      nextTurn += 1;
      if (typeof turn === "string") {
        request.onText(turn);
        return { message: { role: "assistant", content: [{ type: "text", text: turn }] }, stopReason: "end_turn" };
      }
      const content: AssistantMessage["content"] = turn.map((call) => {
        const id = `scripted_${nextId}`;
        nextId += 1;
        return { type: "tool_use", id, name: call.name, input: call.input ?? {} };
      });
      return { message: { role: "assistant", content }, stopReason: "tool_use" };
    },
  };
}

function loadScript(path: string): ScriptedTurn[] {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`mock script ${path}: ${describeError(error)}`);
  }
  return parseScript(value, `mock script ${path}`);
}

/** Validates a script read from JSON; errors name the turn and the call. */
export function parseScript(value: unknown, origin: string): ScriptedTurn[] {
  if (!Array.isArray(value)) throw new Error(`${origin}: expected an array of turns`);
  return value.map((turn: unknown, index): ScriptedTurn => {
    if (typeof turn === "string") return turn;
    if (!Array.isArray(turn)) throw new Error(`${origin}: turn ${index} must be a string or an array of tool calls`);
    return turn.map((call: unknown, callIndex): ScriptedToolCall => {
      const place = `${origin}: turn ${index}, call ${callIndex}`;
      if (!isRecord(call) || typeof call["name"] !== "string") throw new Error(`${place} needs a string "name"`);
      const input = call["input"];
      if (input === undefined) return { name: call["name"] };
      if (!isRecord(input)) throw new Error(`${place}: "input" must be an object`);
      return { name: call["name"], input };
    });
  });
}

