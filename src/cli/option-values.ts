// A flag's value as commander hands it over: checked as it is parsed (a session id, a count, an amount in
// dollars, Claude Code's tool lists) or read back out of commander's untyped option record.
import { InvalidArgumentError } from "commander";

/**
 * `--resume` takes a session id, as Claude Code's does: `-p --resume "fix the bug"` is a prompt taken for an
 * id, so a value with a space (which no id has) is refused here, naming what was meant; an id that is no
 * session of the project is refused when the session starts.
 */
export function sessionIdArgument(text: string): string {
  if (!/\s/u.test(text) && text !== "") return text;
  throw new InvalidArgumentError(
    `${JSON.stringify(text)} is not a session id (\`mca sessions\` lists them). The prompt goes after the id: mca -p --resume <id> "<prompt>"; -c goes on with the newest session`,
  );
}

export function positiveInteger(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value <= 0) throw new InvalidArgumentError("must be a positive integer");
  return value;
}

export function positiveAmount(text: string): number {
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value) || value <= 0) throw new InvalidArgumentError("must be a positive number of US dollars");
  return value;
}

/**
 * `Bash(git log:*) Read,Edit` → `Bash(git log:*)`, `Read`, `Edit`: Claude Code takes a flag's values comma- or
 * space-separated, and a space or comma inside parentheses belongs to the rule.
 */
export function splitToolList(value: string): string[] {
  const words: string[] = [];
  let current = "";
  let depth = 0;
  for (const char of value) {
    if (char === "(") depth += 1;
    if (char === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (char === "," || /\s/u.test(char))) {
      if (current !== "") words.push(current);
      current = "";
      continue;
    }
    current += char;
  }
  if (current !== "") words.push(current);
  return words;
}

export function collect(value: string, previous: readonly string[]): string[] {
  return [...previous, value];
}

export function stringOption(values: Record<string, unknown>, key: string): string | undefined {
  const value = values[key];
  return typeof value === "string" ? value : undefined;
}

export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}
