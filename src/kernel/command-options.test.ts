import { describe, expect, it } from "vitest";
import { commandPrefix, readCommand, type CommandReading } from "./command-options.js";
import { MAX_WRAPPERS } from "./shell-command.js";

const read = (command: string): CommandReading => readCommand(command.split(" "));
const readEach = (commands: readonly string[]): Array<readonly [string, CommandReading]> => commands.map((command) => [command, read(command)]);
const READ_ONLY: CommandReading = { kind: "read-only" };
const OTHER_REPOSITORY = "git would use the repository it finds there, which need not be the project's own (its config can name programs to run)";
const NAMED_REPOSITORY = "it names the repository or work tree git uses, which need not be the project's own (its config can name programs to run)";

describe("readCommand", () => {
  it("reads ordinary uses of the listed commands as read-only", () => {
    const ordinary = [
      "git status --short",
      "git status -uno --porcelain=v2",
      "git log --oneline -20 origin/main..HEAD",
      "git log -n5 --format=%h -- src",
      "git diff --cached --stat",
      "git -C . show HEAD --name-only",
      "git --no-pager branch -a",
      "/usr/bin/git rev-parse --show-toplevel",
      "sed -n 1,20p src/a.ts",
      "sed -ne /import/p a.ts",
      "sed s/a/b/g a.txt",
      "find . -name x.ts -type f -maxdepth 3",
      "sort -rn -k 2 counts.txt",
      "tar -tvzf x.tar.gz",
      "rg -n --hidden -g src/ foo",
      "grep -rn foo src",
      "awk -F: NF /etc/passwd",
      "cat a b",
      "ls -la",
      "LC_ALL=C sort a",
      "nice -n 5 git log -p",
      "timeout 5 git diff",
      "env -i git status",
      "git log -U5 --unified=3 --format=%h -L 1,5:a.ts",
      "git diff -U0 --stat",
      "git shortlog -sn -w80 --since 1.week --group author",
      "git show-ref -s8 --heads",
      "git rev-list --max-count 5 HEAD",
      "rg -E latin1 -r x -T ts --color never foo",
    ];
    expect(readEach(ordinary)).toEqual(ordinary.map((command) => [command, READ_ONLY]));
  });

  it("refuses every option that writes a file or runs a program, naming it and why", () => {
    expect(
      readEach([
        "git log --output=/home/u/.config/mca/settings.json --format=%x41",
        "git diff --output /abs",
        "git log --outp=x",
        "git -c core.pager=sh log",
        "git --git-dir=/tmp/r status",
        "git -C .. status",
        "git -C /etc status",
        "git -p log",
        "git diff --ext-diff",
        "git grep -O foo",
        "sed -n 1etouch",
        "sed -n 1w/abs",
        "sed -n /x/W/abs",
        "sed s/a/id/e x",
        "sed -i s/a/b/ x",
        "sed -n 1p x -i",
        "tar -tvf x.tar --checkpoint-action=exec=sh",
        "tar -xf x.tar",
        "tar -I sh -tf x.tar",
        "tar -tf host:x.tar",
        "sort -o /abs a",
        "sort -ro /abs a",
        "sort --out=/abs a",
        "find . -name x -delete",
        "find . -exec rm",
        "find . -fprint /abs",
        "rg --pre=sh foo",
        "rg -z foo",
      ]),
    ).toEqual([
      ["git log --output=/home/u/.config/mca/settings.json --format=%x41", { kind: "refused", what: "--output", why: "it writes files" }],
      ["git diff --output /abs", { kind: "refused", what: "--output", why: "it writes files" }],
      ["git log --outp=x", { kind: "refused", what: "--output", why: "it writes files" }],
      ["git -c core.pager=sh log", { kind: "refused", what: "-c", why: "it sets git configuration, which can name programs to run" }],
      ["git --git-dir=/tmp/r status", { kind: "refused", what: "--git-dir", why: NAMED_REPOSITORY }],
      ["git -C .. status", { kind: "refused", what: "-C ..", why: OTHER_REPOSITORY }],
      ["git -C /etc status", { kind: "refused", what: "-C /etc", why: OTHER_REPOSITORY }],
      ["git -p log", { kind: "refused", what: "-p", why: "it starts a pager, which can run commands" }],
      ["git diff --ext-diff", { kind: "refused", what: "--ext-diff", why: "it runs other programs" }],
      ["git grep -O foo", { kind: "refused", what: "-O", why: "it starts a pager, which can run commands" }],
      ["sed -n 1etouch", { kind: "refused", what: "the sed command e", why: "it runs its text as a shell command" }],
      ["sed -n 1w/abs", { kind: "refused", what: "the sed command w", why: "it writes files" }],
      ["sed -n /x/W/abs", { kind: "refused", what: "the sed command W", why: "it writes files" }],
      ["sed s/a/id/e x", { kind: "refused", what: "the sed flag e", why: "it runs the result as a shell command" }],
      ["sed -i s/a/b/ x", { kind: "refused", what: "-i", why: "it writes files" }],
      ["sed -n 1p x -i", { kind: "refused", what: "-i", why: "it writes files" }],
      ["tar -tvf x.tar --checkpoint-action=exec=sh", { kind: "refused", what: "--checkpoint-action", why: "it runs other programs" }],
      ["tar -xf x.tar", { kind: "refused", what: "-x", why: "it writes files" }],
      ["tar -I sh -tf x.tar", { kind: "refused", what: "-I", why: "it runs other programs" }],
      ["tar -tf host:x.tar", { kind: "refused", what: "-f host:x.tar", why: "an archive name with a colon is opened through a remote shell" }],
      ["sort -o /abs a", { kind: "refused", what: "-o", why: "it writes files" }],
      ["sort -ro /abs a", { kind: "refused", what: "-o", why: "it writes files" }],
      ["sort --out=/abs a", { kind: "refused", what: "--output", why: "it writes files" }],
      ["find . -name x -delete", { kind: "refused", what: "-delete", why: "it deletes files" }],
      ["find . -exec rm", { kind: "refused", what: "-exec", why: "it runs other programs" }],
      ["find . -fprint /abs", { kind: "refused", what: "-fprint", why: "it writes files" }],
      ["rg --pre=sh foo", { kind: "refused", what: "--pre", why: "it runs other programs" }],
      ["rg -z foo", { kind: "refused", what: "-z", why: "it runs decompression programs" }],
    ]);
  });

  it("reads git as read-only only in the project's own folder: every -C must come to . without .., no other repository named", () => {
    const commands = [
      "git -C . show",
      "git -C ./ -C ./. log -1",
      "git -C vendor.git show",
      "git -C . -C vendor.git show",
      "git -C sub -C .. show",
      "git -C sub/.. show",
      "git -C /tmp/project show",
      "git -C / show",
      "git --git-dir=.git show",
      "git --git-dir .git show",
      "git --work-tree=. show",
      "git --exec-path=/tmp show",
      "git --config-env=core.pager=X log",
      "git -c diff.x.textconv=sh show",
      "git --bare show",
      "GIT_DIR=vendor.git git show",
      "GIT_WORK_TREE=. git show",
      "GIT_CONFIG_GLOBAL=x git show",
      "GIT_CONFIG_COUNT=1 git show",
      "env GIT_DIR=vendor.git git show",
      "env -C vendor.git git show",
      "nice git -C vendor.git show",
    ];
    expect(readEach(commands)).toEqual([
      ["git -C . show", READ_ONLY],
      ["git -C ./ -C ./. log -1", READ_ONLY],
      ["git -C vendor.git show", { kind: "refused", what: "-C vendor.git", why: OTHER_REPOSITORY }],
      ["git -C . -C vendor.git show", { kind: "refused", what: "-C vendor.git", why: OTHER_REPOSITORY }],
      ["git -C sub -C .. show", { kind: "refused", what: "-C sub", why: OTHER_REPOSITORY }],
      ["git -C sub/.. show", { kind: "refused", what: "-C sub/..", why: OTHER_REPOSITORY }],
      ["git -C /tmp/project show", { kind: "refused", what: "-C /tmp/project", why: OTHER_REPOSITORY }],
      ["git -C / show", { kind: "refused", what: "-C /", why: OTHER_REPOSITORY }],
      ["git --git-dir=.git show", { kind: "refused", what: "--git-dir", why: NAMED_REPOSITORY }],
      ["git --git-dir .git show", { kind: "refused", what: "--git-dir", why: NAMED_REPOSITORY }],
      ["git --work-tree=. show", { kind: "refused", what: "--work-tree", why: NAMED_REPOSITORY }],
      ["git --exec-path=/tmp show", { kind: "refused", what: "--exec-path", why: "it runs other programs" }],
      ["git --config-env=core.pager=X log", { kind: "refused", what: "--config-env", why: "it sets git configuration, which can name programs to run" }],
      ["git -c diff.x.textconv=sh show", { kind: "refused", what: "-c", why: "it sets git configuration, which can name programs to run" }],
      ["git --bare show", { kind: "refused", what: "--bare", why: "it is not an option mca knows to be read-only for git" }],
      ["GIT_DIR=vendor.git git show", { kind: "refused", what: "GIT_DIR=…", why: "it sets the environment of git, which can make it run other programs" }],
      ["GIT_WORK_TREE=. git show", { kind: "refused", what: "GIT_WORK_TREE=…", why: "it sets the environment of git, which can make it run other programs" }],
      ["GIT_CONFIG_GLOBAL=x git show", { kind: "refused", what: "GIT_CONFIG_GLOBAL=…", why: "it sets the environment of git, which can make it run other programs" }],
      ["GIT_CONFIG_COUNT=1 git show", { kind: "refused", what: "GIT_CONFIG_COUNT=…", why: "it sets the environment of git, which can make it run other programs" }],
      ["env GIT_DIR=vendor.git git show", { kind: "refused", what: "GIT_DIR=…", why: "it sets the environment of git, which can make it run other programs" }],
      ["env -C vendor.git git show", { kind: "refused", what: "-C", why: "it is not an option mca knows to be read-only for env" }],
      ["nice git -C vendor.git show", { kind: "refused", what: "-C vendor.git", why: OTHER_REPOSITORY }],
    ]);
  });

  it("reads an option's value only where the tool itself takes one, so no option hides behind another", () => {
    const writes = { kind: "refused", what: "--output", why: "it writes files" };
    expect(
      readEach([
        "git log -1 -U --output=/tmp/x -s --format=%x41",
        "git log --unified --output=/tmp/x",
        "git show -U --output=/tmp/x",
        "git diff -U --output=/tmp/x",
        "git rev-list --unified --output=/tmp/x HEAD",
        "git log --format --output=/tmp/x",
        "git show --format --output=/tmp/x",
        "git shortlog -n --output=/tmp/x",
        "git shortlog --committer --output=/tmp/x",
      ]),
    ).toEqual([
      ["git log -1 -U --output=/tmp/x -s --format=%x41", writes],
      ["git log --unified --output=/tmp/x", writes],
      ["git show -U --output=/tmp/x", writes],
      ["git diff -U --output=/tmp/x", writes],
      ["git rev-list --unified --output=/tmp/x HEAD", writes],
      ["git log --format --output=/tmp/x", writes],
      ["git show --format --output=/tmp/x", writes],
      ["git shortlog -n --output=/tmp/x", writes],
      ["git shortlog --committer --output=/tmp/x", writes],
    ]);
  });

  it("refuses an option a subcommand does not have, although a sibling has it", () => {
    expect(readEach(["git rev-list -L --output=/tmp/x HEAD", "git shortlog --format=%h"])).toEqual([
      ["git rev-list -L --output=/tmp/x HEAD", { kind: "refused", what: "-L", why: "it is not an option mca knows to be read-only for git rev-list" }],
      ["git shortlog --format=%h", { kind: "refused", what: "--format", why: "it is not an option mca knows to be read-only for git shortlog" }],
    ]);
  });

  it("refuses unknown options and subcommands, pagers and editors, and variables that steer the program", () => {
    expect(readEach(["git log --frobnicate", "git push", "git branch new-feature", "less a.txt", "xargs rm", "GIT_EXTERNAL_DIFF=x git diff", "tar tvf x.tar"])).toEqual([
      ["git log --frobnicate", { kind: "refused", what: "--frobnicate", why: "it is not an option mca knows to be read-only for git log" }],
      ["git push", { kind: "refused", what: "git push", why: "it is not on the read-only list" }],
      ["git branch new-feature", { kind: "refused", what: "new-feature", why: "it names a branch to create" }],
      ["less a.txt", { kind: "refused", what: "less", why: "it can run shell commands" }],
      ["xargs rm", { kind: "refused", what: "xargs", why: "it runs commands built from its input" }],
      ["GIT_EXTERNAL_DIFF=x git diff", { kind: "refused", what: "GIT_EXTERNAL_DIFF=…", why: "it sets the environment of git, which can make it run other programs" }],
      ["tar tvf x.tar", { kind: "refused", what: "tar tvf", why: "old-style options without a dash are not read" }],
    ]);
  });

  it("reads a wrapper by the command it runs", () => {
    expect(readEach(["env git log --output=x", "nice -n 5 sed -n 1etouch", "timeout 5 make", "nohup rm -rf x"])).toEqual([
      ["env git log --output=x", { kind: "refused", what: "--output", why: "it writes files" }],
      ["nice -n 5 sed -n 1etouch", { kind: "refused", what: "the sed command e", why: "it runs its text as a shell command" }],
      ["timeout 5 make", { kind: "unlisted", program: "make" }],
      ["nohup rm -rf x", { kind: "unlisted", program: "rm" }],
    ]);
  });

  it("reads a listed program by its path only in the system's folders; any other path is unlisted, wrapped or not", () => {
    expect(readEach(["/bin/cat x", "/usr/local/bin/git status", "/tmp/proj/cat x", "timeout 5 /tmp/proj/git status", "/usr/bin/../../tmp/cat x", "/usr/bin/x/cat a"])).toEqual([
      ["/bin/cat x", READ_ONLY],
      ["/usr/local/bin/git status", READ_ONLY],
      ["/tmp/proj/cat x", { kind: "unlisted", program: "/tmp/proj/cat" }],
      ["timeout 5 /tmp/proj/git status", { kind: "unlisted", program: "/tmp/proj/git" }],
      ["/usr/bin/../../tmp/cat x", { kind: "unlisted", program: "/usr/bin/../../tmp/cat" }],
      ["/usr/bin/x/cat a", { kind: "unlisted", program: "/usr/bin/x/cat" }],
    ]);
  });

  it("reads up to MAX_WRAPPERS wrappers, and refuses a command nested deeper, however deep", () => {
    const nested = (count: number): string => `${"timeout 1 ".repeat(count)}cat x`;
    const tooDeep: CommandReading = { kind: "refused", what: "timeout", why: `it nests more than ${MAX_WRAPPERS} wrappers (env, nice, timeout, …), too deep to read` };
    expect([read(nested(MAX_WRAPPERS)), read(nested(MAX_WRAPPERS + 1)), read(nested(20_000))]).toEqual([READ_ONLY, tooDeep, tooDeep]);
  });

  it("gives a program the table does not list, or one run by a relative path, as unlisted", () => {
    expect(readEach(["make test", "./git log", "constructor x"])).toEqual([
      ["make test", { kind: "unlisted", program: "make" }],
      ["./git log", { kind: "unlisted", program: "./git" }],
      ["constructor x", { kind: "unlisted", program: "constructor" }],
    ]);
  });
});

describe("commandPrefix", () => {
  it("is the program and, for a program with subcommands, its subcommand, past wrappers and options", () => {
    const commands = ["git status --short", "npm run build", "ls -la src", "git -C web log -5", "nice -n 5 git status", "docker -H x ps", "X=1 make test"];
    expect(commands.map((command) => commandPrefix(command.split(" "))?.join(" "))).toEqual([
      "git status",
      "npm run",
      "ls",
      "git -C web log",
      "nice -n 5 git status",
      "docker -H x ps",
      "X=1 make test",
    ]);
  });

  it("goes through up to MAX_WRAPPERS wrappers and is null past them, however deep", () => {
    const nested = (count: number): string[] => `${"timeout 1 ".repeat(count)}git status`.split(" ");
    expect([commandPrefix(nested(MAX_WRAPPERS))?.length, commandPrefix(nested(MAX_WRAPPERS + 1)), commandPrefix(nested(20_000))]).toEqual([2 * MAX_WRAPPERS + 2, null, null]);
  });
});
