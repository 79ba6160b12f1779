// How the gate reads a bash command, without running a shell: whether it is a plain command (the only
// kind an allow rule's argument glob may cover), and every spelling of its simple commands that a deny
// or ask rule is matched against. Both lean to the safe side: a plain command is a narrow thing, and a
// command is cut into more pieces than bash would cut it.
import { posix } from "node:path";

/**
 * The characters a plain command's words are made of, listed for the README. None of them is special to
 * bash in any position: no expansion, substitution, quoting, escaping, globbing, redirection, chaining or
 * comment can be written with them.
 */
export const PLAIN_COMMAND_CHARACTERS = "A-Z a-z 0-9 _ - . / , : = @ + %";

/** Words of those characters separated by single spaces, nothing before the first or after the last. */
const PLAIN_COMMAND = /^[A-Za-z0-9_\-./,:=@+%]+(?: [A-Za-z0-9_\-./,:=@+%]+)*$/u;

export function isPlainCommand(command: string): boolean {
  return PLAIN_COMMAND.test(command);
}

/**
 * Where bash may start another command (`;`, `&`, `|`, newlines), open a subshell or a group, or
 * substitute one (`$(`, backticks, `<(`): cutting at each of them leaves every simple command of the
 * line in some piece, along with harmless pieces a rule will not match.
 */
const COMMAND_BOUNDARY = /[;&|\n\r\v\f`()]+/u;

/** Quoting, escaping and line continuations that do not change which program runs: `r''m`, `"rm"`, `\rm`. */
const QUOTES_AND_ESCAPES = /\\\n|["'\\]/gu;

/** A word that runs the rest of the line as a command. */
interface Wrapper {
  /** Its options that take a value in their next word. */
  readonly valued: ReadonlySet<string>;
  /** How many words after its options come before the command: `timeout`'s duration. */
  readonly before: number;
}

/**
 * The wrappers with their options, so that `sudo -u root rm`, `nice -n 5 rm` and `timeout -s KILL 5 rm` are
 * also read as `rm`. Shell keywords that can precede a command after a cut (`then rm x`) are here too,
 * without options.
 */
const WRAPPERS: ReadonlyMap<string, Wrapper> = new Map(
  Object.entries({
    command: [],
    builtin: [],
    exec: ["-a"],
    env: ["-u", "--unset", "-C", "--chdir"],
    nice: ["-n", "--adjustment"],
    nohup: [],
    time: [],
    timeout: ["-s", "--signal", "-k", "--kill-after"],
    xargs: ["-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-L", "-n", "--max-args", "-P", "--max-procs", "-s", "--max-chars", "--process-slot-var"],
    sudo: ["-u", "--user", "-g", "--group", "-h", "--host", "-p", "--prompt", "-C", "--close-from", "-D", "--chdir", "-r", "--role", "-t", "--type", "-U", "--other-user", "-T", "--command-timeout"],
    "!": [],
    "{": [],
    if: [],
    then: [],
    else: [],
    elif: [],
    while: [],
    until: [],
    do: [],
  }).map(([word, options]) => [word, { valued: new Set(options), before: word === "timeout" ? 1 : 0 }]),
);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/u;
/** `>x`, `2>>x`, `&>x`, `<x`, `>&2`: a redirection, with its target in the same word or in the next. */
const REDIRECTION = /^[0-9]*(?:&>>?|>>?|<<?<?|>&|<&|<>|>\|)/u;

/**
 * Every form of the command a deny or ask rule's glob is tried on: the command as written, then for each
 * simple command (cut as above, also after removing quotes and backslashes) its text with whitespace runs
 * made single spaces, and again from each wrapper and from the program on, once the leading assignments
 * and redirections before it are taken off, and with the program's base name (`/bin/rm -rf x` is also
 * `rm -rf x`). `tooDeep`: a simple command nests more than MAX_WRAPPERS wrappers, and is not judged.
 */
export interface CommandForms {
  readonly forms: ReadonlySet<string>;
  readonly tooDeep: boolean;
}

/**
 * How many wrappers (`sudo`, `env`, `nice`, …) one simple command may nest: each makes a copy of the rest
 * for the rules to be matched against, and no command a person writes nests more.
 */
export const MAX_WRAPPERS = 32;

export function commandForms(command: string): CommandForms {
  const forms = new Set<string>([command]);
  let tooDeep = false;
  for (const text of [command, command.replace(QUOTES_AND_ESCAPES, "")]) {
    for (const piece of text.split(COMMAND_BOUNDARY)) {
      const words = piece.split(/\s+/u).filter((word) => word !== "");
      if (words.length > 0 && !addSimpleCommandForms(words, forms)) tooDeep = true;
    }
  }
  return { forms, tooDeep };
}

/** Adds the forms of one simple command; false when it nests more than MAX_WRAPPERS wrappers. */
function addSimpleCommandForms(words: readonly string[], forms: Set<string>): boolean {
  forms.add(words.join(" "));
  let wrappers = 0;
  for (let start = 0; start < words.length; ) {
    const first = words[start] ?? "";
    const program = posix.basename(first);
    const next = nextStart(words, start, first, program);
    const isWrapper = next !== -1 && !ASSIGNMENT.test(first) && !REDIRECTION.test(first);
    if (next === -1 || isWrapper) {
      if (isWrapper && (wrappers += 1) > MAX_WRAPPERS) return false;
      forms.add(words.slice(start).join(" "));
      if (program !== first && program !== "") forms.add([program, ...words.slice(start + 1)].join(" "));
    }
    if (next === -1) return true;
    start = next;
  }
  return true;
}

/** Where the rest of the command starts once the leading assignment, redirection or wrapper `first` is taken off; -1 when `first` is the program. */
function nextStart(words: readonly string[], start: number, first: string, program: string): number {
  if (ASSIGNMENT.test(first)) return start + 1;
  if (REDIRECTION.test(first)) return first.replace(REDIRECTION, "") === "" ? start + 2 : start + 1;
  const wrapper = WRAPPERS.get(program);
  return wrapper === undefined ? -1 : afterOptions(words, start + 1, wrapper.valued) + wrapper.before;
}

/** Where a wrapper's arguments start after its options (`-n 5`, `-E`, `--adjustment=5`, `-5`, env's `-`, and `--`). */
function afterOptions(words: readonly string[], from: number, takesValue: ReadonlySet<string>): number {
  let index = from;
  while (index < words.length) {
    const word = words[index] ?? "";
    if (word === "--") return index + 1;
    if (!word.startsWith("-")) return index;
    index += takesValue.has(word) ? 2 : 1;
  }
  return words.length;
}
