// What a plain command's program and options can do, read from the table of common commands (command-table.ts):
// whether it is known to only read (no file written, no other program run beyond what its words name), refused
// for an option that writes or runs, or not in the table at all. An allow rule covers no more than this reading.
import { posix } from "node:path";
import { isPlainCommand, MAX_WRAPPERS } from "./shell-command.js";
import { own, refused, rowFor, type CommandRow, type ParsedArguments, type Refusal } from "./command-table.js";

export type CommandReading = { readonly kind: "read-only" } | Refusal | { readonly kind: "unlisted"; readonly program: string };

const READ_ONLY: CommandReading = { kind: "read-only" };
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/u;
/** Variables a command may be given without changing what it runs or writes. */
const HARMLESS_VARIABLES = new Set("LANG LANGUAGE LC_ALL LC_COLLATE LC_CTYPE LC_MESSAGES LC_NUMERIC LC_TIME TZ NO_COLOR COLUMNS".split(" "));

/**
 * Reads the words of a plain command (see shell-command.ts): leading assignments, the program, its options.
 * A listed program counts only as the system's own (see rowFor in command-table.ts); any other path to it is unlisted.
 */
export function readCommand(words: readonly string[]): CommandReading {
  return readWords(words, 0);
}

/**
 * Whether a command is plain (see shell-command.ts) and known, by the table, to only read: such a command
 * reaches no network either (the table lists no program that fetches), so the sandbox's proxy can stay away.
 */
export function isKnownToOnlyRead(command: string): boolean {
  return isPlainCommand(command) && readCommand(command.split(" ")).kind === "read-only";
}

/** `wrappers`: how many wrappers (env, nice, timeout, …) run these words; past MAX_WRAPPERS nothing is read. */
function readWords(words: readonly string[], wrappers: number): CommandReading {
  const start = words.findIndex((word) => !ASSIGNMENT.test(word));
  if (start === -1) return READ_ONLY;
  const program = words[start] ?? "";
  const row = rowFor(program);
  if (row === undefined) return { kind: "unlisted", program };
  const variable = words.slice(0, start).find((word) => !HARMLESS_VARIABLES.has(word.slice(0, word.indexOf("="))));
  if (variable !== undefined) {
    return refused(`${variable.slice(0, variable.indexOf("=") + 1)}…`, `it sets the environment of ${program}, which can make it run other programs`);
  }
  return readArguments(row, posix.basename(program), words.slice(start + 1), wrappers);
}

function readArguments(row: CommandRow, label: string, args: readonly string[], wrappers: number): CommandReading {
  if (row.never !== undefined) return refused(label, row.never);
  if (row.anyOption === true) return READ_ONLY;
  if (row.wraps !== undefined && wrappers >= MAX_WRAPPERS) return refused(label, TOO_DEEP);
  const parsed = parseArguments(row, label, args);
  if ("kind" in parsed) return parsed;
  const problem = row.check?.(parsed, args);
  if (problem !== undefined) return problem;
  const [first, ...rest] = parsed.operands;
  if (row.subcommands !== undefined) {
    if (first === undefined) return READ_ONLY;
    const subcommand = own(row.subcommands, first);
    return subcommand === undefined ? refused(`${label} ${first}`, "it is not on the read-only list") : readArguments(subcommand, `${label} ${first}`, rest, wrappers);
  }
  if (row.wraps === undefined) return READ_ONLY;
  const inner = row.wraps === "command" ? parsed.operands : rest;
  return inner.length === 0 ? READ_ONLY : readWords(inner, wrappers + 1);
}

const TOO_DEEP = `it nests more than ${MAX_WRAPPERS} wrappers (env, nice, timeout, …), too deep to read`;

/** Programs whose first word after their options says what they do (`git status`, `npm run`). */
const SUBCOMMAND_PROGRAMS = new Set(
  "git npm pnpm yarn npx bun deno cargo go docker podman kubectl helm gh make uv pip poetry rustup dotnet terraform brew apt systemctl".split(" "),
);

/**
 * The words an "allow for this session" of this plain command covers: its assignments and wrappers, the
 * program, and for a program with subcommands, that subcommand (`git -C web status`). When the table cannot
 * tell where the subcommand is (an unlisted program's options come first), the whole command. null: more
 * than MAX_WRAPPERS wrappers, so no prefix is offered.
 */
export function commandPrefix(words: readonly string[], wrappers = 0): readonly string[] | null {
  const start = words.findIndex((word) => !ASSIGNMENT.test(word));
  if (start === -1) return words;
  const program = words[start] ?? "";
  const row = rowFor(program);
  const args = words.slice(start + 1);
  if (row?.wraps !== undefined) {
    if (wrappers >= MAX_WRAPPERS) return null;
    const at = operandStart(row, args) + (row.wraps === "command" ? 0 : 1);
    const inner = at >= args.length ? [] : commandPrefix(args.slice(at), wrappers + 1);
    return inner === null ? null : [...words.slice(0, start + 1 + at), ...inner];
  }
  if (!SUBCOMMAND_PROGRAMS.has(posix.basename(program))) return words.slice(0, start + 1);
  const at = row === undefined ? (args[0]?.startsWith("-") === true ? args.length : 0) : operandStart(row, args);
  return words.slice(0, start + 2 + at);
}

function operandStart(row: CommandRow, args: readonly string[]): number {
  const parsed = parseArguments(row, "", args);
  return "kind" in parsed ? args.length : parsed.operandsAt;
}

type OptionKind = "flag" | "valued" | "optional";

/** Each row's lists as one lookup, made when the row is first read: a command may give thousands of options. */
const OPTION_KINDS = new WeakMap<CommandRow, ReadonlyMap<string, OptionKind>>();

function listedKind(row: CommandRow, name: string): OptionKind | undefined {
  let kinds = OPTION_KINDS.get(row);
  if (kinds === undefined) {
    const lists: ReadonlyArray<readonly [string | undefined, OptionKind]> = [[row.optional, "optional"], [row.valued, "valued"], [row.flags, "flag"]];
    // Later lists win where a name is in two, as flags did when they were looked up first.
    kinds = new Map(lists.flatMap(([list, kind]) => (list ?? "").split(" ").filter((word) => word !== "").map((word): [string, OptionKind] => [word, kind])));
    OPTION_KINDS.set(row, kinds);
  }
  return kinds.get(name);
}

/** The option's kind, or why it is refused: named as forbidden (a long one also when abbreviated), or unknown. */
function optionKind(row: CommandRow, label: string, name: string): OptionKind | Refusal {
  const forbidden = row.forbidden ?? {};
  const why = own(forbidden, name);
  if (why !== undefined) return refused(name, why);
  const kind = listedKind(row, /^-[0-9]+$/u.test(name) ? "-NUM" : name);
  if (kind !== undefined) return kind;
  const abbreviated = name.startsWith("--") && name.length > 3 ? Object.keys(forbidden).find((option) => option.startsWith(name)) : undefined;
  if (abbreviated !== undefined) return refused(abbreviated, forbidden[abbreviated] ?? "");
  return refused(name, `it is not an option mca knows to be read-only for ${label}`);
}

/**
 * Options and operands as getopt reads them: clusters of letters (`-rn`), a letter's value attached or in
 * the next word, `--name=value`, `--` ending the options. A row with subcommands or a wrapped command stops
 * at its first operand; others take options after operands too, as GNU tools do.
 */
function parseArguments(row: CommandRow, label: string, args: readonly string[]): (ParsedArguments & { readonly operandsAt: number }) | Refusal {
  const options: { name: string; value: string | undefined }[] = [];
  const operands: string[] = [];
  const stopsAtOperand = row.subcommands !== undefined || row.wraps !== undefined;
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index] ?? "";
    if (word === "--" || ((word === "-" || !word.startsWith("-")) && stopsAtOperand)) {
      const at = word === "--" ? index + 1 : index;
      return { options, operands: [...operands, ...args.slice(at)], operandsAt: at };
    }
    if (word === "-" || !word.startsWith("-")) {
      operands.push(word);
      continue;
    }
    const whole = word.startsWith("--") || row.wholeWords === true || /^-[0-9]+$/u.test(word);
    const letters = whole ? [word] : [...word.slice(1)].map((letter) => `-${letter}`);
    for (const [position, option] of letters.entries()) {
      const equals = word.startsWith("--") ? option.indexOf("=") : -1;
      const name = equals === -1 ? option : option.slice(0, equals);
      const kind = optionKind(row, label, name);
      if (typeof kind !== "string") return kind;
      const attached = equals !== -1 ? option.slice(equals + 1) : whole ? undefined : word.slice(position + 2) || undefined;
      if (kind === "flag" && equals !== -1) return refused(word, `it is not an option mca knows to be read-only for ${label}`);
      if (kind === "flag") {
        options.push({ name, value: undefined });
        continue;
      }
      const value = attached ?? (kind === "valued" ? args[(index += 1)] : undefined);
      options.push({ name, value });
      break;
    }
  }
  return { options, operands, operandsAt: args.length };
}
