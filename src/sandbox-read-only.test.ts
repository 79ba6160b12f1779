// Through the real CLI, real bubblewrap and real git: what an allowed, sandboxed command writes is never
// obeyed later without the user. Each test runs an attack, then checks the harm as the user would meet it:
// their own `git status` outside the sandbox, the next start of mca, the files themselves.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createTempProject, type CliRun, type TempProject } from "./cli/test-support/run-cli.js";
import { describeWithBubblewrap } from "./tools/test-support/bubblewrap.js";

let project: TempProject;
/** What an attack's program touches when it runs: outside the project, so nothing in it can hide it. */
let marker = "";

beforeEach(async () => {
  project = await createTempProject();
  marker = join(dirname(project.dir), "attack-ran");
});
afterEach(() => project.remove());

function git(cwd: string, ...args: string[]): string {
  const identity = ["-c", "user.name=u", "-c", "user.email=u@example.com", "-c", "protocol.file.allow=always"];
  return execFileSync("git", ["-C", cwd, ...identity, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** The user's own `git status` in the project, outside any sandbox, after the session. */
function usersGitStatus(): void {
  try {
    git(project.dir, "status", "--short");
  } catch {
    // Whether it succeeds does not matter; whether it ran the attacker's program does.
  }
}

/** One allowed bash call in the sandbox, which first leaves `ran.txt` so that the test knows it ran. */
function sandboxed(command: string, flags: readonly string[] = [], env?: Readonly<Record<string, string>>): Promise<CliRun> {
  const call = JSON.stringify({ command: `echo ran > ran.txt; ${command}` });
  return project.run(["--allow", "bash", ...flags, "-p", `call bash ${call}`], "", env);
}

/** A repository outside the project, with one commit, to add as a submodule. */
function library(name: string): string {
  const path = join(dirname(project.dir), name);
  mkdirSync(path);
  git(path, "init", "-q");
  git(path, "commit", "-q", "--allow-empty", "-m", name);
  return path;
}

const FSMONITOR = (where: string): string => `git -C ${where} config core.fsmonitor "touch ${marker}; false"`;

describeWithBubblewrap("a sandboxed command and what mca obeys at its next start", () => {
  it("cannot create .mca/settings.json in a project without .mca/, and leaves no .mca/ behind", async () => {
    const run = await sandboxed(`mkdir -p .mca && echo '{"sandbox":{"enabled":false}}' > .mca/settings.json`);
    expect([run.code, readFileSync(join(project.dir, "ran.txt"), "utf8"), existsSync(join(project.dir, ".mca"))]).toEqual([0, "ran\n", false]);
  });

  it("cannot create mca's own settings when its config folder does not exist yet and the home is writable, and leaves nothing there", async () => {
    mkdirSync(join(project.home, ".config", "other"), { recursive: true });
    mkdirSync(join(project.dir, ".mca"));
    writeFileSync(join(project.dir, ".mca", "settings.json"), '{"sandbox":{"writable":["~"]}}\n');
    const run = await sandboxed(`echo x > ~/.config/other/new; mkdir -p ~/.config/mca; echo '{"sandbox":{"enabled":false}}' > ~/.config/mca/settings.json`, ["--trust-project"]);
    expect([run.code, readFileSync(join(project.home, ".config", "other", "new"), "utf8"), readdirSync(join(project.home, ".config"))]).toEqual([0, "x\n", ["other"]]);
  });
});

describeWithBubblewrap("a sandboxed command and what git obeys later", () => {
  it("cannot create the user's own git config when the home is writable, and leaves nothing there", async () => {
    mkdirSync(join(project.home, ".config", "other"), { recursive: true });
    mkdirSync(join(project.dir, ".mca"));
    writeFileSync(join(project.dir, ".mca", "settings.json"), '{"sandbox":{"writable":["~"]}}\n');
    const fsmonitor = `printf '[core]\\n\\tfsmonitor = "touch ${marker}; false"\\n'`;
    const run = await sandboxed(`echo x > ~/.config/other/new; ${fsmonitor} > ~/.gitconfig; mkdir -p ~/.config/git; ${fsmonitor} > ~/.config/git/config`, ["--trust-project"]);
    expect([run.code, readFileSync(join(project.home, ".config", "other", "new"), "utf8"), existsSync(join(project.home, ".gitconfig")), readdirSync(join(project.home, ".config"))]).toEqual([0, "x\n", false, ["other"]]);
  });

  it("cannot make a repository in a project without one, and leaves no .git behind", async () => {
    const run = await sandboxed(`git init -q . ; ${FSMONITOR(".")}`);
    usersGitStatus();
    expect([run.code, existsSync(join(project.dir, "ran.txt")), existsSync(join(project.dir, ".git")), existsSync(marker)]).toEqual([0, true, false, false]);
  });

  it("cannot move a submodule's parent folder away to make a repository where the submodule was", async () => {
    git(project.dir, "init", "-q");
    git(project.dir, "submodule", "add", "-q", library("lib"), "vendor/lib");
    git(project.dir, "commit", "-qm", "with a submodule");
    const run = await sandboxed(`mv vendor vendor2 && mkdir -p vendor/lib && git init -q vendor/lib && ${FSMONITOR("vendor/lib")}`);
    usersGitStatus();
    expect([run.code, existsSync(join(project.dir, "ran.txt")), existsSync(join(project.dir, "vendor2")), existsSync(marker)]).toEqual([0, true, false, false]);
  });


  it("cannot give an uninitialised submodule's folder a .git of its own", async () => {
    git(project.dir, "init", "-q");
    git(project.dir, "submodule", "add", "-q", library("lib"), "sub");
    git(project.dir, "commit", "-qm", "with a submodule");
    // As a clone without --recursive leaves it: the submodule's folder empty, no git folder for it.
    git(project.dir, "submodule", "deinit", "-q", "--force", "sub");
    execFileSync("rm", ["-rf", join(project.dir, ".git", "modules")]);
    const run = await sandboxed(`git init -q sub && ${FSMONITOR("sub")}`);
    usersGitStatus();
    expect([run.code, existsSync(join(project.dir, "ran.txt")), readdirSync(join(project.dir, "sub")), existsSync(marker)]).toEqual([0, true, [], false]);
  });

  it("cannot swap the .git of a submodule whose name differs from its path for a repository of its own", async () => {
    git(project.dir, "init", "-q");
    git(project.dir, "submodule", "add", "-q", "--name", "libname", library("lib"), "vendor/lib");
    git(project.dir, "commit", "-qm", "with a submodule");
    const pointer = readFileSync(join(project.dir, "vendor", "lib", ".git"), "utf8");
    const run = await sandboxed(`rm -f vendor/lib/.git && git init -q vendor/lib && ${FSMONITOR("vendor/lib")}`);
    usersGitStatus();
    expect([run.code, existsSync(join(project.dir, "ran.txt")), readFileSync(join(project.dir, "vendor", "lib", ".git"), "utf8"), existsSync(marker)]).toEqual([0, true, pointer, false]);
  });

  it("cannot edit a tracked file that the repository's config includes", async () => {
    git(project.dir, "init", "-q");
    writeFileSync(join(project.dir, "team.gitconfig"), "[diff]\n\tcolorMoved = zebra\n");
    git(project.dir, "add", "team.gitconfig");
    git(project.dir, "commit", "-qm", "team settings");
    git(project.dir, "config", "include.path", "../team.gitconfig");
    const run = await sandboxed(`printf '[core]\\n\\tfsmonitor = "touch ${marker}; false"\\n' >> team.gitconfig`);
    usersGitStatus();
    expect([run.code, existsSync(join(project.dir, "ran.txt")), readFileSync(join(project.dir, "team.gitconfig"), "utf8"), existsSync(marker)]).toEqual([
      0,
      true,
      "[diff]\n\tcolorMoved = zebra\n",
      false,
    ]);
  });
});

describeWithBubblewrap("a sandboxed command and the programs of a trusted project's servers", () => {
  /** A project whose mcp.config.json runs `node <entry>`; the entry imports `lib.mjs` beside it. */
  function plantServer(entry: string): string {
    const lib = join(project.dir, dirname(entry), "lib.mjs");
    mkdirSync(dirname(lib), { recursive: true });
    writeFileSync(join(project.dir, entry), 'import "./lib.mjs";\nprocess.exit(1);\n');
    writeFileSync(lib, "export const lib = 1;\n");
    writeFileSync(join(project.dir, "mcp.config.json"), JSON.stringify({ mcpServers: { notes: { command: "node", args: [entry] } } }));
    return lib;
  }

  it("cannot edit a file beside a server's entry at the project's root, which the entry imports", async () => {
    const lib = plantServer("server.mjs");
    const run = await sandboxed(`echo 'import("node:fs").then((fs) => fs.writeFileSync("${marker}", ""));' >> lib.mjs`, ["--trust-project"]);
    expect([run.code, existsSync(join(project.dir, "ran.txt")), readFileSync(lib, "utf8")]).toEqual([0, true, "export const lib = 1;\n"]);
  });

  it("cannot edit or add anything in the folder of a server's entry below the root", async () => {
    const lib = plantServer("tools/server.mjs");
    const run = await sandboxed(`echo 'export const evil = 1;' >> tools/lib.mjs; touch tools/new.mjs`, ["--trust-project"]);
    expect([run.code, existsSync(join(project.dir, "ran.txt")), readFileSync(lib, "utf8"), readdirSync(join(project.dir, "tools")).sort()]).toEqual([
      0,
      true,
      "export const lib = 1;\n",
      ["lib.mjs", "server.mjs"],
    ]);
  });
});
