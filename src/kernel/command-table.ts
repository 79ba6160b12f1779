// The table of common commands the gate reads (see command-options.ts): for each program its options with or
// without a value, the ones that write or run and why, and the checks for what options cannot say (sed's and
// awk's scripts, tar's first word, git's -C). A program not in the table is not known to only read.
import { posix } from "node:path";

export interface Refusal {
  readonly kind: "refused";
  readonly what: string;
  readonly why: string;
}

const WRITES = "it writes files";
const RUNS = "it runs other programs";
const PAGER = "it starts a pager, which can run commands";
const SHELL_ESCAPE = "it can run shell commands";
const CONFIG = "it sets git configuration, which can name programs to run";
const OTHER_REPOSITORY = "git would use the repository it finds there, which need not be the project's own (its config can name programs to run)";
const NAMED_REPOSITORY = "it names the repository or work tree git uses, which need not be the project's own (its config can name programs to run)";

export interface ParsedArguments {
  readonly options: readonly { readonly name: string; readonly value: string | undefined }[];
  readonly operands: readonly string[];
}

/**
 * One command of the table. Option lists are space-separated words as written (`-s --short`); `-NUM`
 * stands for `-5`, `-20`. An option in none of the lists is not known to be read-only, so it is refused.
 */
export interface CommandRow {
  /** Options without a value. */
  readonly flags?: string;
  /** Options with a value: the next word, or attached (`-n5`, `--max-count=5`). */
  readonly valued?: string;
  /** Options whose value, if any, is attached (`-uno`, `--color=never`). */
  readonly optional?: string;
  /** Options that write or run, with why; a long one also by its abbreviations (`--out` for `--output`). */
  readonly forbidden?: Readonly<Record<string, string>>;
  /** Every option only changes what is read or shown (cat, ls, head). */
  readonly anyOption?: true;
  /** Never read-only, whatever the options: why. */
  readonly never?: string;
  /** find's options are whole words (`-name`), never clusters of letters. */
  readonly wholeWords?: true;
  /** git: the first operand names a subcommand with its own row; a subcommand not listed is refused. */
  readonly subcommands?: Readonly<Record<string, CommandRow>>;
  /** A wrapper (env, nice): its operands are a command read on its own; `timeout`'s duration comes first. */
  readonly wraps?: "command" | "duration then command";
  /** What options cannot say: sed's and awk's scripts, tar's first word, the folder of git -C. */
  readonly check?: (parsed: ParsedArguments, words: readonly string[]) => Refusal | undefined;
}

export const refused = (what: string, why: string): Refusal => ({ kind: "refused", what, why });

/** GNU sed commands and `s` flags; a script is read only as one command with an optional address. */
const SED_ADDRESS = /^(?:[0-9]+|\$|\/[^/\\]*\/)(?:,(?:[0-9]+|\$|\/[^/\\]*\/))?!?/u;
const SED_QUIET_COMMANDS = /^(?:[pdnNPDhHgGxFz=]|[qQlL][0-9]*)$/u;

function sedScriptProblem(script: string): Refusal | undefined {
  const command = script.replace(SED_ADDRESS, "");
  const letter = command.charAt(0);
  if (letter === "e") return refused("the sed command e", "it runs its text as a shell command");
  if (letter === "w" || letter === "W") return refused(`the sed command ${letter}`, WRITES);
  if (SED_QUIET_COMMANDS.test(command)) return undefined;
  const parts = letter === "s" || letter === "y" ? command.slice(2).split(command.charAt(1)) : [];
  const [, , flags = "", ...extra] = parts;
  if (letter === "s" && /e/u.test(flags)) return refused("the sed flag e", "it runs the result as a shell command");
  if (letter === "s" && /w/u.test(flags)) return refused("the sed flag w", WRITES);
  const readable = parts.length === 3 && extra.length === 0 && !/[\\\n]/u.test(command) && /^[gpiImM0-9]*$/u.test(letter === "y" ? "" : flags);
  return readable && (letter !== "y" || flags === "") ? undefined : refused(`the sed script ${script}`, "it is not a script mca can read as read-only");
}

function checkSed({ options, operands }: ParsedArguments): Refusal | undefined {
  const scripts = options.filter(({ name }) => name === "-e" || name === "--expression").map(({ value }) => value ?? "");
  const [first] = operands;
  if (scripts.length === 0 && first !== undefined) scripts.push(first);
  return scripts.map(sedScriptProblem).find((problem) => problem !== undefined);
}

/** Where an awk program writes or runs: `print > f`, `"cmd" | getline`, system(), gawk's @load. */
const AWK_DANGERS: ReadonlyArray<readonly [RegExp, string, string]> = [
  [/system/u, "system() in the awk program", RUNS],
  [/\|/u, "a pipe in the awk program", RUNS],
  [/>/u, "a redirection in the awk program", WRITES],
  [/@/u, "@load or @include in the awk program", "it loads code"],
];

function checkAwk({ options, operands }: ParsedArguments): Refusal | undefined {
  const sources = options.filter(({ name }) => name === "-e" || name === "--source").map(({ value }) => value ?? "");
  const [first] = operands;
  const programs = sources.length === 0 && first !== undefined ? [first] : sources;
  const danger = AWK_DANGERS.find(([pattern]) => programs.some((program) => pattern.test(program)));
  return danger === undefined ? undefined : refused(danger[1], danger[2]);
}

function checkTar({ options }: ParsedArguments, [firstWord]: readonly string[]): Refusal | undefined {
  if (firstWord !== undefined && !firstWord.startsWith("-")) return refused(`tar ${firstWord}`, "old-style options without a dash are not read");
  const local = options.some(({ name }) => name === "--force-local");
  const remote = options.find(({ name, value }) => (name === "-f" || name === "--file") && value?.includes(":") === true && !local);
  return remote === undefined ? undefined : refused(`-f ${remote.value ?? ""}`, "an archive name with a colon is opened through a remote shell");
}

/**
 * git -C: git uses the repository it finds in that folder, and a repository's config can name programs that
 * `show`, `diff` or `log` run (a diff textconv, an fsmonitor), so a folder other than the project's own is
 * refused: a bare repository shipped in the project (`-C vendor.git`), a subfolder holding one, a folder
 * outside. The gate sees only text and no file system, so only the folder mca runs git in (the project) is
 * read as its own: every `-C` together must come to `.` (`-C .`, `-C ./`), without `..` (a link may lead it
 * elsewhere). The project's absolute path is not known here, so it asks as any other absolute folder does.
 */
function checkGitFolder({ options }: ParsedArguments): Refusal | undefined {
  // Without `..` no later -C can come back from a folder an earlier one entered, so each must be `.` on its own.
  const elsewhere = options.find(({ name, value = "" }) => name === "-C" && (value.split("/").includes("..") || !/^\.\/*$/u.test(posix.normalize(value))));
  return elsewhere === undefined ? undefined : refused(`-C ${elsewhere.value ?? ""}`, OTHER_REPOSITORY);
}

const DIFF_FLAGS =
  "-p --patch -s --no-patch --raw --numstat --shortstat --summary --name-only --name-status --check --full-index --binary " +
  "--minimal --patience --histogram -R -a --text -w --ignore-all-space -b --ignore-space-change --ignore-blank-lines " +
  "-z --no-ext-diff --no-textconv --no-color --no-prefix --no-renames --exit-code --quiet --compact-summary -W --function-context";
const DIFF_VALUED = "--diff-filter -S -G --src-prefix --dst-prefix --word-diff-regex";
/** git's context width is attached or absent (`-U5`, `--unified=5`): a word after a bare `-U` is an option of its own. */
const DIFF_OPTIONAL = "-U --unified --stat --dirstat --color --word-diff --color-words -M --find-renames -C --find-copies -B --abbrev --relative --submodule --color-moved";
const LOG_FLAGS =
  "-NUM --oneline --graph --all --reverse --no-merges --merges --first-parent --follow --abbrev-commit --topo-order --date-order " +
  "--left-right --cherry-pick --boundary -i --regexp-ignore-case -E -F --all-match --invert-grep --source --full-history " +
  "--simplify-by-decoration --no-walk --use-mailmap --parents --children --relative-date -c --cc -m --tags --remotes --branches --no-notes";
const LOG_VALUED = "-n --max-count --skip --since --after --until --before --author --committer --grep --date --exclude";
/** `--format` and `--pretty` take their format only after `=`. */
const LOG_OPTIONAL = "--decorate --pretty --format";
/** Options of every git subcommand here that write or run, whatever the subcommand. */
const GIT_FORBIDDEN = { "--output": WRITES, "--ext-diff": RUNS, "--textconv": RUNS, "--upload-pack": RUNS, "--exec": RUNS, "--filters": RUNS };
const BRANCH_CHANGES = "it changes the repository's branches";

/**
 * The table, built on first use: most runs never read a command, and building its hundred rows is a
 * measurable part of start-up.
 */
function buildCommandTable(): Readonly<Record<string, CommandRow>> {
  const gitRow = (row: CommandRow): CommandRow => ({ ...row, forbidden: { ...GIT_FORBIDDEN, ...row.forbidden } });
  const revListRow = gitRow({ flags: `${LOG_FLAGS} ${DIFF_FLAGS}`, valued: `${LOG_VALUED} ${DIFF_VALUED}`, optional: `${LOG_OPTIONAL} ${DIFF_OPTIONAL}` });
  /** log and show also follow a line range (`-L 1,5:a.ts`); rev-list does not know -L. */
  const logRow: CommandRow = { ...revListRow, valued: `${revListRow.valued ?? ""} -L` };
  const noOperands =
    (why: string) =>
    ({ operands }: ParsedArguments): Refusal | undefined =>
      operands[0] === undefined ? undefined : refused(operands[0], why);

  const GIT_SUBCOMMANDS: Readonly<Record<string, CommandRow>> = {
    status: gitRow({
      flags: "-s --short -b --branch --long -v --verbose -z --ignored --renames --no-renames --show-stash --ahead-behind --no-ahead-behind",
      optional: "--porcelain -u --untracked-files --ignore-submodules --find-renames --column",
    }),
    log: logRow,
    show: logRow,
    "rev-list": revListRow,
    diff: gitRow({ flags: `${DIFF_FLAGS} --cached --staged --no-index --merge-base`, valued: DIFF_VALUED, optional: DIFF_OPTIONAL }),
    // shortlog's own -n is --numbered and its -c, --committer take no value; the revision options it passes on keep theirs.
    shortlog: gitRow({
      flags:
        "-NUM --oneline --graph --all --reverse --no-merges --merges --first-parent --follow --abbrev-commit --topo-order --date-order --left-right " +
        "--cherry-pick --boundary -i --regexp-ignore-case -E -F --all-match --invert-grep --full-history --simplify-by-decoration --no-walk --parents " +
        "--children --relative-date --cc -m --tags --remotes --branches --no-notes -s --summary -e --email -n --numbered -c --committer",
      valued: "--max-count --skip --since --after --until --before --author --grep --date --group",
      optional: "-w",
    }),
    blame: gitRow({ flags: "-l -t -s -e -p --porcelain --line-porcelain -w -f --show-name -n --show-number -c --root --show-stats", valued: "-L --since --date", optional: "-M -C --abbrev" }),
    "ls-files": gitRow({
      flags: "-c --cached -d --deleted -m --modified -o --others -i --ignored -s --stage -u --unmerged -z -t -v --full-name --directory --exclude-standard --error-unmatch",
      valued: "-x --exclude -X --exclude-from --format",
      optional: "--abbrev",
    }),
    "ls-tree": gitRow({ flags: "-d -r -t -l --long -z --name-only --name-status --object-only --full-name --full-tree", valued: "--format", optional: "--abbrev" }),
    "rev-parse": gitRow({
      flags: "--verify -q --quiet --show-toplevel --show-prefix --show-cdup --git-dir --absolute-git-dir --is-inside-work-tree --is-bare-repository --symbolic-full-name --all --branches --tags",
      optional: "--short --abbrev-ref",
    }),
    branch: gitRow({
      flags: "-a --all -r --remotes -v -vv --verbose --show-current --list -l --no-color -i --ignore-case",
      valued: "--contains --no-contains --merged --no-merged --points-at --sort --format",
      optional: "--color --abbrev",
      forbidden: { "-d": BRANCH_CHANGES, "-D": BRANCH_CHANGES, "--delete": BRANCH_CHANGES, "-m": BRANCH_CHANGES, "-M": BRANCH_CHANGES, "--move": BRANCH_CHANGES },
      check: noOperands("it names a branch to create"),
    }),
    grep: gitRow({
      flags: "-i --ignore-case -w -v -n --line-number -l -L -c --count -h -H -E -F -G -P -I --cached --untracked --no-index -o -q -z --heading --break --column -p -W -r",
      valued: "-e -f -A -B -C --max-depth -m --max-count",
      optional: "--color",
      forbidden: { "-O": PAGER, "--open-files-in-pager": PAGER },
    }),
    describe: gitRow({ flags: "--all --tags --long --always --exact-match --first-parent --contains", valued: "--match --exclude --candidates", optional: "--abbrev --dirty" }),
    "merge-base": gitRow({ flags: "--all --octopus --is-ancestor --independent" }),
    "cat-file": gitRow({ flags: "-t -s -e -p" }),
    "show-ref": gitRow({ flags: "--heads --tags --head -d --dereference --verify -q --quiet", optional: "-s --hash --abbrev" }),
    remote: gitRow({ flags: "-v --verbose", check: noOperands("it changes or contacts a remote") }),
  };

  const SORT_FLAGS = "-b -d -f -g -i -M -h -n -R -r -V -c -C -m -s -u -z --reverse --numeric-sort --unique --ignore-case --human-numeric-sort --version-sort --stable --zero-terminated --check --merge";
  const GREP_FLAGS =
    "-i -y --ignore-case -w --word-regexp -x --line-regexp -v --invert-match -n --line-number -l --files-with-matches -L --files-without-match " +
    "-c --count -h --no-filename -H --with-filename -E -F -G -P -o --only-matching -q --quiet -s --no-messages -r -R --recursive -I -a --text -z -Z --null -b -T";
  const SHOWS_ONLY: CommandRow = { anyOption: true };
  const AWK: CommandRow = {
    valued: "-F --field-separator -v --assign -e --source",
    flags: "--posix",
    forbidden: { "-f": "it reads its program from a file mca does not read", "--file": "it reads its program from a file mca does not read", "-E": RUNS, "--exec": RUNS, "-i": "it loads code", "--include": "it loads code", "-l": "it loads code", "--load": "it loads code" },
    check: checkAwk,
  };

  /** The table itself: a row per command. A program not here is `unlisted`. */
  return {
    ...Object.fromEntries(
      ("cat ls head tail wc pwd echo printf true false which basename dirname realpath readlink stat du df nl cut paste tr " +
        "cmp comm diff uname whoami id cd seq column fold rev tac od jq md5sum sha1sum sha256sum sha512sum")
        .split(" ")
        .map((name) => [name, SHOWS_ONLY]),
    ),
    git: {
      flags: "--no-pager -P --no-optional-locks --literal-pathspecs --version",
      valued: "-C",
      forbidden: { "-c": CONFIG, "--config-env": CONFIG, "--exec-path": RUNS, "--git-dir": NAMED_REPOSITORY, "--work-tree": NAMED_REPOSITORY, "-p": PAGER, "--paginate": PAGER, "--upload-pack": RUNS },
      subcommands: GIT_SUBCOMMANDS,
      check: checkGitFolder,
    },
    sed: {
      flags: "-n --quiet --silent -E -r --regexp-extended -s --separate -u --unbuffered -z --null-data --posix --sandbox --debug",
      valued: "-e --expression -l --line-length",
      forbidden: { "-i": WRITES, "--in-place": WRITES, "-f": "it reads its script from a file mca does not read", "--file": "it reads its script from a file mca does not read" },
      check: checkSed,
    },
    ...Object.fromEntries("awk gawk mawk nawk".split(" ").map((name) => [name, AWK])),
    find: {
      wholeWords: true,
      flags: "-P -L -H -print -print0 -prune -o -or -a -and -not -empty -xdev -mount -depth -readable -writable -executable -quit -true -false -daystart -nouser -nogroup -ls",
      valued: "-name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname -type -xtype -maxdepth -mindepth -newer -mtime -mmin -atime -amin -ctime -cmin -size -perm -user -group -uid -gid -links -inum -samefile -printf",
      forbidden: { "-exec": RUNS, "-execdir": RUNS, "-ok": RUNS, "-okdir": RUNS, "-delete": "it deletes files", "-fprint": WRITES, "-fprint0": WRITES, "-fprintf": WRITES, "-fls": WRITES },
    },
    sort: {
      flags: SORT_FLAGS,
      valued: "-k --key -t --field-separator -S --buffer-size --parallel",
      forbidden: { "-o": WRITES, "--output": WRITES, "--compress-program": RUNS, "-T": WRITES, "--temporary-directory": WRITES },
    },
    tar: {
      flags: "-t --list -v --verbose -z --gzip -j --bzip2 -J --xz --zstd --wildcards --no-wildcards --totals --numeric-owner --full-time --utc --force-local",
      valued: "-f --file --exclude",
      forbidden: {
        ...Object.fromEntries("-x --extract --get -c --create -r --append -u --update -A --catenate --concatenate --delete".split(" ").map((name) => [name, WRITES])),
        ...Object.fromEntries("--checkpoint-action --to-command --use-compress-program -I --rsh-command --info-script -F --new-volume-script".split(" ").map((name) => [name, RUNS])),
        "--index-file": WRITES,
        "-g": WRITES,
        "--listed-incremental": WRITES,
      },
      check: checkTar,
    },
    rg: {
      // Not grep's letters: rg's -E, -r and -T take a value, its -I is --no-filename and its -L --follow.
      flags:
        "-i --ignore-case -w --word-regexp -x --line-regexp -v --invert-match -n --line-number -N --no-line-number -l --files-with-matches " +
        "--files-without-match -c --count --count-matches -H --with-filename -I --no-filename -o --only-matching -q --quiet --no-messages -a --text " +
        "-b --byte-offset -0 --null -p --pretty -S --smart-case -s --case-sensitive -F --fixed-strings -P --pcre2 -U --multiline --hidden " +
        "--no-ignore -u -uu -uuu --files -L --follow --no-heading --heading --column --vimgrep --json --trim --stats --passthru",
      valued: "-e --regexp -f --file -g --glob --iglob -t --type -T --type-not -A --after-context -B --before-context -C --context -m --max-count -d --max-depth -j --threads -M --max-columns -r --replace --sort --sortr --max-filesize -E --encoding --color",
      forbidden: { "--pre": RUNS, "--pre-glob": RUNS, "--hostname-bin": RUNS, "-z": "it runs decompression programs", "--search-zip": "it runs decompression programs" },
    },
    grep: { flags: `${GREP_FLAGS} -U --binary`, valued: "-e --regexp -f --file -A --after-context -B --before-context -C --context -m --max-count --include --exclude --exclude-dir --label -d --directories -D --devices", optional: "--color --colour" },
    uniq: { flags: "-c --count -d --repeated -u --unique -i --ignore-case -z --zero-terminated", valued: "-f --skip-fields -s --skip-chars -w --check-chars", check: ({ operands }) => (operands.length > 1 ? refused(operands[1] ?? "", WRITES) : undefined) },
    base64: { flags: "-d --decode -D -i --ignore-garbage", valued: "-w --wrap", forbidden: { "-o": WRITES, "--output": WRITES } },
    env: { flags: "-i --ignore-environment -0 --null", valued: "-u --unset", forbidden: { "-S": RUNS, "--split-string": RUNS }, wraps: "command" },
    nice: { flags: "-NUM", valued: "-n --adjustment", wraps: "command" },
    timeout: { flags: "--preserve-status --foreground -v --verbose", valued: "-s --signal -k --kill-after", wraps: "duration then command" },
    nohup: { wraps: "command" },
    command: { flags: "-p -v -V", wraps: "command" },
    time: { flags: "-p", wraps: "command" },
    ...Object.fromEntries("less more most man vi vim view nvim nano emacs ed ex".split(" ").map((name) => [name, { never: SHELL_ESCAPE }])),
    xargs: { never: "it runs commands built from its input" },
    watch: { never: "it runs its arguments through a shell" },
    ...Object.fromEntries("sudo doas su".split(" ").map((name) => [name, { never: "it runs commands as another user" }])),
  };
}

let commandTable: Readonly<Record<string, CommandRow>> | undefined;

/**
 * Where a listed program counts as itself when named by its path: the system's own folders. Anywhere else
 * (`./git`, `/tmp/proj/cat`) it may be a program the repository ships, so it is not the one the table describes.
 */
const SYSTEM_PROGRAM_FOLDERS = new Set(["/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin"]);

/** The row of a program written bare (found on PATH) or by its path in one of SYSTEM_PROGRAM_FOLDERS. */
export function rowFor(program: string): CommandRow | undefined {
  if (program.includes("/") && !SYSTEM_PROGRAM_FOLDERS.has(posix.dirname(program))) return undefined;
  return own((commandTable ??= buildCommandTable()), posix.basename(program));
}

export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
