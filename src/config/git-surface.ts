// The places whose content git reads and obeys later, found the way git finds them: for the sandbox to keep
// read-only and the gate to ask about. Git itself is asked (git-probe.ts: nothing it runs can run a program);
// without git, what its files' text shows is used instead (git-config-text.ts), and the surface says so.
import { existsSync, readdirSync, statSync, type Dirent } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { coreHooksPath, findRepository, pointedRepository, readText } from "./git-config-text.js";
import { findGitProbe, type GitProbe } from "./git-probe.js";

/**
 * - `git-dir`: a git folder (`.git`, one a `.git` file names, its common folder), or the place of `.git` in
 *   a project without one;
 * - `gitfile`: a `.git` file (`gitdir: <path>`), in a linked worktree or a checked-out submodule;
 * - `submodule-place`: where a submodule that is not checked out goes (`.gitmodules` or a gitlink of the
 *   index names it): git obeys a `.git` put there as the submodule's;
 * - `gitmodules`: the work tree's `.gitmodules`;
 * - `config`: a config file git read (system, global, the repository's), `config-include`: one a config includes;
 * - `hooks`: a folder `core.hooksPath` names, at any level, resolved as git resolves it.
 */
export type GitPlaceKind = "git-dir" | "gitfile" | "submodule-place" | "gitmodules" | "config" | "config-include" | "hooks";

/**
 * A file or folder that must stay read-only to sandboxed commands, and a write to which by the file tools
 * always asks. Read-only is not enough on its own: a command could rename a folder above it (`mv vendor
 * vendor2 && git init vendor/lib`), so no folder between the writable root and the place may be renamable
 * either (a mount point cannot be renamed; binding each of those folders onto itself, writable, does it).
 */
export interface GitPlace {
  /** Absolute, as git names it: symbolic links are not resolved (the place may be one). */
  readonly path: string;
  /** Whether something is there now. A missing place needs a placeholder: git would obey what is put there. */
  readonly present: boolean;
  readonly kind: GitPlaceKind;
  /** What the place is, as a noun phrase: `the git hooks folder (core.hooksPath = ".githooks" in /home/u/.gitconfig)`. */
  readonly reason: string;
}

export interface GitSurface {
  /** Each place once, the repository's own first; places outside the project included. */
  readonly places: readonly GitPlace[];
  /**
   * `git`: git was asked. `no-repository`: there is no `.git` at or above the project, so git was not asked
   * (the user's configs are read as text for `core.hooksPath`). `text`: git is missing or refused; includes,
   * submodule places and other levels' hooks paths are then not known.
   */
  readonly source: { readonly kind: "git" | "no-repository" } | { readonly kind: "text"; readonly why: string };
  /** Set when the search for `.git` in the project stopped at a limit (WALK_MAX_FOLDERS, WALK_MAX_DEPTH). */
  readonly walkLimited: boolean;
}

export interface GitSurfaceOptions {
  /** The environment the user's git reads: PATH (to find it), HOME, XDG_CONFIG_HOME, GIT_CONFIG_GLOBAL/SYSTEM/NOSYSTEM. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The git to ask; by default the first on PATH outside the project (findGitProbe). null: ask none. */
  readonly probe?: GitProbe | null;
}

/** The search for `.git` below the project: folders looked into, and how deep. node_modules is not looked into. */
const WALK_MAX_FOLDERS = 5_000;
const WALK_MAX_DEPTH = 8;
const WALK_SKIPPED = new Set(["node_modules", ".git"]);

/** The surface as it is now, asking git (a few processes); gitSurfaceReader keeps it between changes. */
export function readGitSurface(projectDir: string, options: GitSurfaceOptions): GitSurface {
  return probeSurface(projectDir, options).surface;
}

/**
 * A reader that asks again only when a file the surface came from changed (the repository's `.git`, HEAD,
 * index and configs, `.gitmodules`, the included files, the user's and the system's configs): a call costs
 * a few `lstat`s while nothing changed. The search for `.git` below the project is redone with them; a
 * repository made inside the project by a command outside the sandbox is seen once `invalidate` is called.
 */
export function gitSurfaceReader(projectDir: string, options: GitSurfaceOptions): { read(): GitSurface; invalidate(): void } {
  let cached: { readonly surface: GitSurface; readonly watched: readonly string[]; readonly signature: string } | undefined;
  return {
    read() {
      if (cached !== undefined && signatureOf(cached.watched) === cached.signature) return cached.surface;
      const probed = probeSurface(projectDir, options);
      cached = { ...probed, signature: signatureOf(probed.watched) };
      return probed.surface;
    },
    invalidate() {
      cached = undefined;
    },
  };
}

function signatureOf(files: readonly string[]): string {
  return files
    .map((file) => {
      const stat = statSync(file, { throwIfNoEntry: false });
      return stat === undefined ? "-" : `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
    })
    .join("|");
}

/** Collects places and the files they came from, each place once (the first reason wins). */
class Findings {
  readonly places: GitPlace[] = [];
  readonly watched = new Set<string>();
  /** Relative hooks paths of the user's or the system's config: each repository in the project has its hooks folder there. */
  readonly userLevelHooks: string[] = [];
  add(path: string, kind: GitPlaceKind, reason: string): void {
    if (!this.places.some((place) => place.path === path)) this.places.push({ path, present: existsSync(path), kind, reason });
  }
}

function probeSurface(projectDir: string, options: GitSurfaceOptions): { surface: GitSurface; watched: string[] } {
  const project = resolve(projectDir);
  const found = new Findings();
  const userConfigs = userConfigFiles(options.env);
  for (const file of userConfigs) found.watched.add(file);
  const walk = findDotGits(project);
  const finish = (source: GitSurface["source"]): { surface: GitSurface; watched: string[] } => {
    addNestedRepositories(found, walk.found);
    return { surface: { places: found.places, source, walkLimited: walk.limited }, watched: [...found.watched] };
  };
  // Git finds a repository only through a `.git` (or a bare repository) at or above the folder: without
  // one there is none, and no process is started (the common case of a start in a scratch folder).
  if (!mayBeInRepository(project, found)) {
    found.add(join(project, ".git"), "git-dir", "the place of the project's git folder (there is none yet: git would obey one made there)");
    addTextHooks(found, userConfigs, project, options.env);
    return finish({ kind: "no-repository" });
  }
  const probe = options.probe === undefined ? findGitProbe(options.env, project) : options.probe;
  if (probe === null || probe === undefined) return finish(textSurface(found, project, userConfigs, options.env, "git is not on PATH"));
  const located = probe.run(project, ["rev-parse", "--absolute-git-dir", "--git-common-dir", "--is-bare-repository", "--show-toplevel"], { noHooks: true });
  const lines = located.stdout.split("\n");
  const [gitDir = "", common = "", bare = ""] = lines;
  if (located.kind === "failed" && /not a git repository/iu.test(located.stderr)) {
    found.add(join(project, ".git"), "git-dir", "the place of the project's git folder (there is none yet: git would obey one made there)");
    addTextHooks(found, userConfigs, project, options.env);
    return finish({ kind: "git" });
  }
  // --show-toplevel fails in a bare repository, after the lines before it.
  if (!isAbsolute(gitDir) || common === "" || (located.kind === "failed" && bare !== "true")) {
    return finish(textSurface(found, project, userConfigs, options.env, `git refused: ${firstLine(located.kind === "failed" ? located.stderr : "no git folder")}`));
  }
  const workTree = bare === "true" ? undefined : lines[3] === undefined || lines[3] === "" ? undefined : resolve(lines[3]);
  addRepository(found, probe, { gitDir, commonDir: resolve(project, common), workTree });
  return finish({ kind: "git" });
}

interface Located {
  readonly gitDir: string;
  readonly commonDir: string;
  /** undefined for a bare repository. */
  readonly workTree: string | undefined;
}

function addRepository(found: Findings, probe: GitProbe, repo: Located): void {
  const { gitDir, commonDir, workTree } = repo;
  // git runs from the work tree's root, or from the git folder of a bare repository; config origins are relative to it.
  const base = workTree ?? gitDir;
  const dotGit = workTree === undefined ? undefined : join(workTree, ".git");
  if (dotGit !== undefined) found.add(dotGit, dotGitKind(dotGit), "the repository's .git");
  found.add(gitDir, "git-dir", "the repository's git folder");
  found.add(commonDir, "git-dir", "the repository's common git folder");
  for (const file of [dotGit, join(gitDir, "HEAD"), join(gitDir, "index"), join(gitDir, "config.worktree"), join(commonDir, "config")]) {
    if (file !== undefined) found.watched.add(file);
  }
  const entries = readConfigEntries(probe, base);
  for (const entry of entries) {
    if (entry.origin !== undefined) found.watched.add(entry.origin);
    if (entry.key === "core.hookspath" && entry.value !== "") {
      // The repository's own config goes unnamed; another file (the user's, an included one) is named.
      const own = entry.origin === join(commonDir, "config") || entry.origin === join(gitDir, "config.worktree");
      const where = `core.hooksPath = ${JSON.stringify(entry.value)}${own ? "" : ` in ${entry.origin ?? entry.scope}`}`;
      if (isAbsolute(entry.value)) {
        found.add(entry.value, "hooks", `the git hooks folder (${where})`);
        continue;
      }
      // Git runs a hook from the work tree's root (the git folder in a bare repository, and for the hooks
      // of a push it receives), and a relative hooks path is found from there:
      // https://git-scm.com/docs/git-config#Documentation/git-config.txt-corehooksPath and
      // https://git-scm.com/docs/githooks#_description
      for (const from of [base, commonDir]) found.add(resolve(from, entry.value), "hooks", `the git hooks folder (${where})`);
      if (entry.scope === "system" || entry.scope === "global") found.userLevelHooks.push(entry.value);
    } else if (entry.key === "include.path" || /^includeif\..+\.path$/u.test(entry.key)) {
      // "relative paths are relative to the file containing the include directive": https://git-scm.com/docs/git-config#_includes
      const target = isAbsolute(entry.value) ? entry.value : entry.origin === undefined ? undefined : resolve(dirname(entry.origin), entry.value);
      if (target === undefined) continue;
      found.watched.add(target);
      found.add(target, "config-include", `a file git's config includes (${entry.key} = ${JSON.stringify(entry.value)} in ${entry.origin ?? entry.scope})`);
    }
  }
  for (const entry of entries) if (entry.origin !== undefined) found.add(entry.origin, "config", `a config file git reads (${entry.scope})`);
  if (workTree === undefined) return;
  for (const place of submodulePlaces(found, probe, workTree)) {
    const placeGit = join(place, ".git");
    if (existsSync(placeGit)) found.add(placeGit, dotGitKind(placeGit), `the .git of the submodule at ${place}`);
    else found.add(place, "submodule-place", `the place of a submodule that is not checked out (git would obey a .git made there)`);
    addUserLevelHooks(found, place);
  }
}

interface ConfigEntry {
  readonly scope: string;
  /** The absolute path of the file it is in; undefined when it is none (the command line, a blob). */
  readonly origin: string | undefined;
  /** As git prints it: section and name in lower case, a subsection as written. */
  readonly key: string;
  readonly value: string;
}

/**
 * Every `core.hooksPath`, `include.path` and `includeIf.*.path` of every level, includes followed, `~/`
 * expanded by git itself (`--type=path`), each with its file. Reading config runs nothing; the overrides of
 * git-probe.ts are not used, as one could hide the hooks path being read.
 */
function readConfigEntries(probe: GitProbe, base: string): ConfigEntry[] {
  const answer = probe.run(base, ["config", "-z", "--show-origin", "--show-scope", "--type=path", "--get-regexp", "^(core\\.hookspath|include\\.path|includeif\\..+\\.path)$"]);
  // Status 1: none set.
  if (answer.kind === "failed") return [];
  const fields = answer.stdout.split("\0");
  const entries: ConfigEntry[] = [];
  for (let index = 0; index + 2 < fields.length; index += 3) {
    const [scope = "", origin = "", keyValue = ""] = fields.slice(index, index + 3);
    const newline = keyValue.indexOf("\n");
    const key = newline === -1 ? keyValue : keyValue.slice(0, newline);
    const value = newline === -1 ? "" : keyValue.slice(newline + 1);
    entries.push({ scope, origin: origin.startsWith("file:") ? resolve(base, origin.slice("file:".length)) : undefined, key, value });
  }
  return entries;
}

/**
 * The submodules' places: the paths `.gitmodules` names (read by git, never following an include) and the
 * gitlinks (mode 160000) of the index, which is what `git submodule` and `git status` go by.
 */
function submodulePlaces(found: Findings, probe: GitProbe, workTree: string): string[] {
  const paths = new Set<string>();
  const gitmodules = join(workTree, ".gitmodules");
  found.watched.add(gitmodules);
  const stat = statSync(gitmodules, { throwIfNoEntry: false });
  if (stat !== undefined) found.add(gitmodules, "gitmodules", "the work tree's .gitmodules");
  if (stat?.isFile() === true) {
    const answer = probe.run(workTree, ["config", "--file", ".gitmodules", "-z", "--get-regexp", "^submodule\\..+\\.path$"], { noHooks: true });
    if (answer.kind === "answered") {
      for (const record of answer.stdout.split("\0")) {
        const newline = record.indexOf("\n");
        if (newline !== -1) paths.add(record.slice(newline + 1));
      }
    }
  }
  const index = probe.run(workTree, ["ls-files", "--stage", "-z"], { noHooks: true });
  if (index.kind === "answered") {
    for (const record of index.stdout.split("\0")) {
      if (record.startsWith("160000 ")) paths.add(record.slice(record.indexOf("\t") + 1));
    }
  }
  // Git refuses a submodule path that leaves the work tree, or is empty.
  const places = [...paths].filter((path) => path !== "" && !isAbsolute(path) && !path.split("/").includes("..")).sort();
  return places.map((path) => resolve(workTree, path));
}

/** The `.git` entries below the project (not inside a `.git`, not through a symbolic link), within the limits. */
function findDotGits(project: string): { found: string[]; limited: boolean } {
  const found: string[] = [];
  let visited = 0;
  let limited = false;
  const visit = (dir: string, depth: number): void => {
    if (visited >= WALK_MAX_FOLDERS || depth > WALK_MAX_DEPTH) {
      limited = true;
      return;
    }
    visited += 1;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name === ".git" && dir !== project) found.push(join(dir, entry.name));
      else if (entry.isDirectory() && !WALK_SKIPPED.has(entry.name)) visit(join(dir, entry.name), depth + 1);
    }
  };
  visit(project, 0);
  return { found: found.sort(), limited };
}

/**
 * The nested repositories and checked-out submodules: each `.git`, the folders a `.git` file names, and
 * the hooks folder each one's own config names (read as text: git made those configs).
 */
function addNestedRepositories(found: Findings, dotGits: readonly string[]): void {
  for (const dotGit of dotGits) {
    const root = dirname(dotGit);
    found.add(dotGit, dotGitKind(dotGit), `the .git of the repository at ${root}`);
    const gitDirs = dotGitKind(dotGit) === "git-dir" ? [dotGit] : pointedRepository(root, dotGit).gitDirs;
    for (const gitDir of gitDirs) found.add(gitDir, "git-dir", `a git folder ${dotGit} points to`);
    addUserLevelHooks(found, root);
    const hooks = coreHooksPath(readText(join(gitDirs.at(-1) ?? dotGit, "config")) ?? "");
    if (hooks !== undefined && hooks !== "" && !hooks.startsWith("~")) {
      found.add(resolve(root, hooks), "hooks", `the git hooks folder of the repository at ${root} (core.hooksPath = ${JSON.stringify(hooks)})`);
    }
  }
}

function addUserLevelHooks(found: Findings, root: string): void {
  for (const hooks of found.userLevelHooks) {
    found.add(resolve(root, hooks), "hooks", `the git hooks folder of the repository at ${root} (core.hooksPath = ${JSON.stringify(hooks)} of the user's or the system's config)`);
  }
}

/** Without git: the repository found upward as git would, and the hooks path of its config's and the user's config's text. */
function textSurface(found: Findings, project: string, userConfigs: readonly string[], env: GitSurfaceOptions["env"], why: string): GitSurface["source"] {
  const repository = findRepository(project);
  if (repository === undefined) {
    found.add(join(project, ".git"), "git-dir", "the place of the project's git folder (there is none yet: git would obey one made there)");
    addTextHooks(found, userConfigs, project, env);
    return { kind: "text", why };
  }
  const dotGit = join(repository.workTree, ".git");
  found.add(dotGit, dotGitKind(dotGit), "the repository's .git");
  for (const gitDir of repository.gitDirs) found.add(gitDir, "git-dir", `a git folder ${dotGit} points to`);
  for (const file of [dotGit, ...repository.configs]) found.watched.add(file);
  const gitmodules = join(repository.workTree, ".gitmodules");
  if (existsSync(gitmodules)) found.add(gitmodules, "gitmodules", "the work tree's .gitmodules");
  addTextHooks(found, [...userConfigs, ...repository.configs], repository.workTree, env);
  return { kind: "text", why };
}

/** The hooks folder the last of these configs' texts names (no include followed), from `workTree`. */
function addTextHooks(found: Findings, configs: readonly string[], workTree: string, env: GitSurfaceOptions["env"]): void {
  let hooks: { readonly value: string; readonly file: string } | undefined;
  for (const file of configs) {
    const value = coreHooksPath(readText(file) ?? "");
    if (value !== undefined) hooks = { value, file };
  }
  if (hooks === undefined || hooks.value === "") return;
  const home = env.HOME;
  const path = hooks.value.startsWith("~/") ? (home === undefined ? undefined : join(home, hooks.value.slice(2))) : hooks.value.startsWith("~") ? undefined : resolve(workTree, hooks.value);
  if (path !== undefined) found.add(path, "hooks", `the git hooks folder (core.hooksPath = ${JSON.stringify(hooks.value)} in ${hooks.file})`);
}

/**
 * The user's and the system's config files as git looks for them, in git's order (a later value wins):
 * https://git-scm.com/docs/git-config#FILES. /etc/gitconfig stands for the system file of a git built for /usr.
 */
export function userConfigFiles(env: GitSurfaceOptions["env"]): string[] {
  const system = env.GIT_CONFIG_NOSYSTEM !== undefined && env.GIT_CONFIG_NOSYSTEM !== "" && env.GIT_CONFIG_NOSYSTEM !== "0" ? [] : [env.GIT_CONFIG_SYSTEM ?? "/etc/gitconfig"];
  const home = env.HOME;
  const xdg = env.XDG_CONFIG_HOME ?? (home === undefined ? undefined : join(home, ".config"));
  const global = env.GIT_CONFIG_GLOBAL !== undefined ? [env.GIT_CONFIG_GLOBAL] : [...(xdg === undefined ? [] : [join(xdg, "git", "config")]), ...(home === undefined ? [] : [join(home, ".gitconfig")])];
  return [...system, ...global].filter((file) => isAbsolute(file));
}

/** Whether git could find a repository from `project`: a `.git` at or above it, or a folder above it that is a bare repository. */
function mayBeInRepository(project: string, found: Findings): boolean {
  for (let dir = project; ; dir = dirname(dir)) {
    found.watched.add(join(dir, ".git"));
    if (existsSync(join(dir, ".git")) || (existsSync(join(dir, "HEAD")) && existsSync(join(dir, "objects")) && existsSync(join(dir, "refs")))) return true;
    if (dirname(dir) === dir) return false;
  }
}

function dotGitKind(path: string): "git-dir" | "gitfile" {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true ? "git-dir" : "gitfile";
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0] ?? "";
}
