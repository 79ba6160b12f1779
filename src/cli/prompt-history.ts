// The chat's input history, kept across sessions of the same project: one file in the project's state
// folder (never in the project, where a cloned repository could plant lines), a JSON string per line,
// readable by the user only. A prompt of several lines (a paste, lines ended by a backslash) is one entry.
// What is read back is checked: an entry that is not a plain prompt (one with control or hidden characters
// other than its newlines) is dropped rather than shown when the user presses Up.
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureStateFolder, type ProjectState } from "../session/index.js";
import { untrustedText } from "./untrusted-text.js";

/** As many as the input line keeps; the file is cut back to this many, when it is loaded, once it has grown to twice that. */
export const PROMPT_HISTORY_SIZE = 500;

/** The history's file in the project's state folder; the folder is made (and checked) here, the file on the first prompt. */
export function promptHistoryFile(state: ProjectState): string {
  try {
    return join(ensureStateFolder(state), PROMPT_HISTORY_FILE);
  } catch {
    // A state folder that cannot be made (or is not the user's) keeps no history: appending then fails quietly.
    return join(state.dir, PROMPT_HISTORY_FILE);
  }
}

const PROMPT_HISTORY_FILE = "prompt-history.jsonl";

/** Newest first, as the input line wants them; none when there is no file or it cannot be read. */
export function loadPromptHistory(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const lines = text.split("\n").filter((line) => line !== "");
  // Appending never reads the file back: it is cut to size here, once per session.
  if (lines.length > 2 * PROMPT_HISTORY_SIZE) {
    try {
      writeFileSync(file, `${lines.slice(-PROMPT_HISTORY_SIZE).join("\n")}\n`, { mode: 0o600 });
    } catch {
      // Left long: it is cut again next time.
    }
  }
  const prompts: string[] = [];
  for (const line of lines) {
    const prompt = parsePrompt(line);
    if (prompt !== undefined && prompt !== prompts.at(-1)) prompts.push(prompt);
  }
  return prompts.slice(-PROMPT_HISTORY_SIZE).reverse();
}

/** Adds one prompt; a failure to write is not the user's problem and is ignored (history is a convenience). */
export function appendPromptHistory(file: string, prompt: string): void {
  if (parsePrompt(JSON.stringify(prompt)) === undefined) return;
  try {
    appendFileSync(file, `${JSON.stringify(prompt)}\n`, { mode: 0o600 });
  } catch {
    // Nothing to do: the session goes on without saving this line.
  }
}

/** A prompt, of one line or several, without anything untrustedText would have to make visible. */
function parsePrompt(line: string): string | undefined {
  if (line.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== "string" || value.trim() === "") return undefined;
  return untrustedText(value) === value ? value : undefined;
}
