// What an approval shows of a call, as the person judging it needs to see it: for write_file and edit_file a
// unified diff against the file as it is now (a new file as its length and its lines), for bash the command
// itself after what it asks beyond the sandbox in the model's words, for anything else its arguments; and for a
// remote tool whose server changed its definition since the user allowed it, what changed. Every line is
// untrusted text (the model wrote the change, the file or the server may hold anything) and is made safe
// before it is coloured.
import type { ChalkInstance } from "chalk";
import { structuredPatch } from "diff";
import { parseToolArgs, stableJson, type Tool, type ToolArgs, type ToolDefinition } from "../kernel/index.js";
import { NOT_A_REGULAR_FILE, openRegularFile } from "../tools/index.js";
import { untrustedText } from "./untrusted-text.js";

/** Lines of context around each change, as `git diff` shows. */
const CONTEXT_LINES = 3;

/** The lines that show what the call will do, coloured; the caller decides how many fit on the screen. */
export async function previewCall(tool: Tool, args: ToolArgs, chalk: ChalkInstance): Promise<string[]> {
  if (tool.source === "local" && tool.kind === "exec" && typeof args.command === "string") {
    const command = untrustedText(args.command)
      .split("\n")
      .map((line, index) => `  ${index === 0 ? chalk.bold("$") : " "} ${line}`);
    return [...beyondTheSandbox(args, chalk), ...command];
  }
  if (tool.source === "local" && (tool.name === "write_file" || tool.name === "edit_file")) {
    const diff = await previewFileChange(tool, args, chalk);
    if (diff !== undefined) return diff;
  }
  return untrustedText(JSON.stringify(args, null, 2))
    .split("\n")
    .map((line) => `  ${line}`);
}

/**
 * What a bash call asks beyond the sandbox (its `"sandbox": false` or `"network": true`) with the reason the
 * model gives, which is the model's claim for the person to weigh; outside the sandbox, the network is moot.
 */
function beyondTheSandbox(args: ToolArgs, chalk: ChalkInstance): string[] {
  const asks = args.sandbox === false ? "runs OUTSIDE the sandbox" : args.network === true ? "asks for the network" : undefined;
  if (asks === undefined) return [];
  const reason = typeof args.reason === "string" && args.reason.trim() !== "" ? `the model says: ${untrustedText(args.reason)}` : "the model gives no reason";
  const [first = "", ...rest] = reason.split("\n");
  return [`  ${chalk.bold.red(asks)} — ${first}`, ...rest.map((line) => `    ${line}`)];
}

/** undefined when the arguments do not parse (the call will fail and say why; the arguments are shown). */
async function previewFileChange(tool: Tool, args: ToolArgs, chalk: ChalkInstance): Promise<string[] | undefined> {
  const parsed = parseToolArgs(tool, args);
  if (parsed instanceof Error) return undefined;
  const file = tool.changes?.(parsed)[0];
  if (file === undefined) return undefined;
  const before = await currentText(file);
  const shownPath = untrustedText(String(args.path));
  if (before === NOT_REGULAR) return [chalk.red(`  ${shownPath} is ${NOT_A_REGULAR_FILE}: the call will fail`)];
  if (tool.name === "write_file") {
    const content = typeof args.content === "string" ? args.content : "";
    if (before === null) return newFilePreview(shownPath, content, chalk);
    return unifiedDiff(shownPath, before, content, chalk);
  }
  if (before === null) return [chalk.red(`  ${shownPath} does not exist: the edit will fail`)];
  const oldText = typeof args.old_string === "string" ? args.old_string : "";
  const newText = typeof args.new_string === "string" ? args.new_string : "";
  const at = before.indexOf(oldText);
  if (oldText === "" || at === -1) return [chalk.red(`  the text to replace is not in ${shownPath}: the edit will fail`)];
  return unifiedDiff(shownPath, before, `${before.slice(0, at)}${newText}${before.slice(at + oldText.length)}`, chalk);
}

const NOT_REGULAR = Symbol("not a regular file");

/**
 * The file's text now; null when it cannot be read (it does not exist, say). Opened as the file tools open
 * it, so a named pipe put where the file was named is reported instead of waiting for a writer for ever.
 */
async function currentText(path: string): Promise<string | null | typeof NOT_REGULAR> {
  try {
    const file = await openRegularFile(path, "read");
    try {
      return await file.readFile("utf8");
    } finally {
      await file.close();
    }
  } catch (error) {
    return error instanceof Error && error.message === NOT_A_REGULAR_FILE ? NOT_REGULAR : null;
  }
}

function newFilePreview(path: string, content: string, chalk: ChalkInstance): string[] {
  const lines = content.split("\n");
  if (lines.at(-1) === "") lines.pop();
  // All of it: the approval shows as many of these lines as fit on the screen, and the rest on request.
  const added = lines.map((line) => chalk.green(`  +${untrustedText(line)}`));
  return [chalk.bold(`  new file ${path}: ${lines.length} lines, ${Buffer.byteLength(content)} bytes`), ...added];
}

function unifiedDiff(path: string, before: string, after: string, chalk: ChalkInstance): string[] {
  if (before === after) return [chalk.dim(`  ${path}: no change`)];
  const patch = structuredPatch(path, path, before, after, "", "", { context: CONTEXT_LINES });
  const lines = [chalk.bold(`  --- ${path}`), chalk.bold(`  +++ ${path}`)];
  for (const hunk of patch.hunks) {
    lines.push(chalk.cyan(`  @@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`));
    for (const line of hunk.lines) {
      const shown = `  ${untrustedText(line)}`;
      lines.push(line.startsWith("+") ? chalk.green(shown) : line.startsWith("-") ? chalk.red(shown) : shown);
    }
  }
  return lines;
}

/** The parts of a remote tool's definition a person judges it by, as an approval names them. */
const DEFINITION_PARTS: ReadonlyArray<readonly [label: string, read: (definition: ToolDefinition) => unknown]> = [
  ["title", (definition) => definition.title],
  ["description", (definition) => definition.description],
  ["input schema", (definition) => definition.inputSchema],
  ["output schema", (definition) => definition.outputSchema],
  ["annotations", (definition) => definition.annotations],
];

/** Each side of a changed part is cut to this many characters and lines: a server's description may be a megabyte. */
export const MAX_DEFINITION_PART_CHARS = 600;
export const MAX_DEFINITION_PART_LINES = 8;

/**
 * What changed in a remote tool's definition, part by part, old (`-`) then new (`+`); only the new side when
 * the old definition is not known (a pinned one is kept as a hash only). Schemas and annotations are shown as
 * stable JSON, so a mere reordering of keys shows no change.
 */
export function definitionChangeLines(before: ToolDefinition | undefined, after: ToolDefinition, chalk: ChalkInstance): string[] {
  return DEFINITION_PARTS.flatMap(([label, read]) => {
    const now = partText(read(after));
    const then = before === undefined ? undefined : partText(read(before));
    if (then === now || (then === undefined && read(after) === undefined)) return [];
    // Both sides are shown from a little before where they first differ: a sentence added deep in a long
    // description must not hide behind two cuts that look the same.
    const from = then === undefined ? 0 : Math.max(0, commonPrefixLength(then, now) - CHARS_BEFORE_FIRST_DIFFERENCE);
    const side = (mark: "-" | "+", text: string): string[] => boundedLines(text, from).map((line) => (mark === "-" ? chalk.red : chalk.green)(`    ${mark} ${line}`));
    return [chalk.bold(`  ${label}:`), ...(then === undefined ? [] : side("-", then)), ...side("+", now)];
  });
}

function partText(value: unknown): string {
  if (value === undefined) return "(none)";
  return typeof value === "string" ? value : stableJson(value);
}

/** How much of the text both sides share before they first differ is still shown, for context. */
const CHARS_BEFORE_FIRST_DIFFERENCE = 80;

function commonPrefixLength(a: string, b: string): number {
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at += 1;
  return at;
}

/**
 * The text from `from` made safe, cut to MAX_DEFINITION_PART_CHARS characters and MAX_DEFINITION_PART_LINES
 * lines, saying how much was left out before and after.
 */
function boundedLines(text: string, from = 0): string[] {
  const rest = text.slice(from);
  const cut = rest.length > MAX_DEFINITION_PART_CHARS ? rest.slice(0, MAX_DEFINITION_PART_CHARS) : rest;
  const lines = untrustedText(cut).split("\n");
  const shown = lines.slice(0, MAX_DEFINITION_PART_LINES);
  const before = from > 0 ? [`… (${from} characters the same on both sides not shown)`] : [];
  const moreChars = rest.length - cut.length;
  const moreLines = lines.length - shown.length;
  if (moreChars === 0 && moreLines === 0) return [...before, ...shown];
  const left = [moreLines > 0 ? `${moreLines} more lines` : "", moreChars > 0 ? `${moreChars} more characters` : ""].filter((part) => part !== "").join(", ");
  return [...before, ...shown, `… (${left} not shown)`];
}
