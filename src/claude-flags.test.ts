// claude -p's command lines run with mca in their place, end to end: the real CLI as a child process in a
// temporary project, a scripted model (MCA_MOCK_SCRIPT) making the calls, real bubblewrap around bash, and
// what happened read back from the project's files, stdout and the sessions list.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempProject, README_TEXT, type TempProject } from "./cli/test-support/run-cli.js";
import { detectSandbox } from "./tools/index.js";

let project: TempProject;

beforeEach(async () => {
  project = await createTempProject();
});

afterEach(async () => {
  await project.remove();
});

/** The scripted model's turns, written where mca reads them. */
async function scripted(turns: unknown[]): Promise<Record<string, string>> {
  const file = join(project.home, "script.json");
  await writeFile(file, JSON.stringify(turns));
  return { MCA_MOCK_SCRIPT: file };
}

const call = (name: string, input: Record<string, unknown>) => ({ name, input });

function jsonLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function sessions(): Promise<Array<{ id: string; firstPrompt: string | null; messageCount: number }>> {
  const listed = await project.run(["sessions", "--json"], "");
  return JSON.parse(listed.stdout) as Array<{ id: string; firstPrompt: string | null; messageCount: number }>;
}

const bubblewrapWorks = (await detectSandbox(process.platform, process.env)).kind === "bubblewrap";

describe("--permission-mode", () => {
  it("plan: a write is refused naming plan mode, and the file is not made", async () => {
    const env = await scripted([[call("write_file", { path: "notes.txt", content: "x" })], "planned"]);
    const run = await project.run(["-p", "write the notes", "--permission-mode", "plan"], "", env);
    expect([run.code, run.stdout, existsSync(join(project.dir, "notes.txt"))]).toEqual([0, "planned\n", false]);
    expect(run.stderr).toContain('[approval] write_file: deny (rule "write_file" (deny) from --permission-mode plan (read-only tools only))');
  });

  it("acceptEdits: an edit in the project is made, a write to .git/config is refused without a terminal", async () => {
    execFileSync("git", ["init", "--quiet"], { cwd: project.dir });
    const gitConfig = await readFile(join(project.dir, ".git", "config"), "utf8");
    const env = await scripted([[call("edit_file", { path: "README.md", old_string: "hello", new_string: "goodbye" }), call("write_file", { path: ".git/config", content: "[core]\n\tfsmonitor = touch /tmp/x\n" })], "edited"]);
    const run = await project.run(["-p", "edit", "--permission-mode", "acceptEdits"], "", env);
    expect([run.code, await readFile(join(project.dir, "README.md"), "utf8"), await readFile(join(project.dir, ".git", "config"), "utf8")]).toEqual([
      0,
      README_TEXT.replace("hello", "goodbye"),
      gitConfig,
    ]);
    expect(run.stderr).toContain("not run: write_file needs approval and there is no terminal to ask on; writes under .git/ always ask, so only a person at a terminal can allow it");
  });

  it.runIf(bubblewrapWorks)("bypassPermissions: a command runs unasked in the sandbox, and --disallowedTools Bash still denies it", async () => {
    const turns = [[call("bash", { command: "touch made.txt" })], "ran"];
    const allowed = await project.run(["-p", "make it", "--permission-mode", "bypassPermissions"], "", await scripted(turns));
    expect([allowed.code, existsSync(join(project.dir, "made.txt"))]).toEqual([0, true]);
    await rm(join(project.dir, "made.txt"));
    const denied = await project.run(["-p", "make it", "--dangerously-skip-permissions", "--disallowedTools", "Bash"], "", await scripted(turns));
    expect([denied.code, existsSync(join(project.dir, "made.txt"))]).toEqual([0, false]);
    expect(denied.stderr).toContain('[approval] bash: deny (rule "bash" (deny) from --disallowedTools "Bash")');
  });

  it("bypassPermissions is refused (exit 2) without the sandbox", async () => {
    const run = await project.run(["-p", "anything", "--permission-mode", "bypassPermissions", "--no-sandbox"], "", await scripted(["never"]));
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr: "mca: --permission-mode bypassPermissions needs the sandbox around bash commands, and there is none: turned off with --no-sandbox; allow what the run needs with --allowedTools instead\n",
    });
  });
});

describe("--input-format stream-json", () => {
  it("answers three user messages in turn, one result line each, in one session that keeps the conversation", async () => {
    const env = await scripted(["one", "two", "three"]);
    const user = (content: unknown) => JSON.stringify({ type: "user", message: { role: "user", content } });
    const stdin = [user("first"), user([{ type: "text", text: "second" }]), user("third")].join("\n") + "\n";
    const run = await project.run(["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"], stdin, env);
    const results = jsonLines(run.stdout).filter((line) => line.type === "result");
    expect([run.code, results.map((line) => [line.subtype, line.result])]).toEqual([0, [["success", "one"], ["success", "two"], ["success", "three"]]]);
    expect(new Set(jsonLines(run.stdout).map((line) => line.session_id)).size).toBe(1);
    expect((await sessions()).map(({ firstPrompt, messageCount }) => ({ firstPrompt, messageCount }))).toEqual([{ firstPrompt: "first", messageCount: 6 }]);
  });

  it("answers a line that is no user message with an error result, goes on, and exits 1", async () => {
    const env = await scripted(["answered"]);
    const run = await project.run(["-p", "--input-format", "stream-json", "--output-format", "stream-json"], `{"type":"control_request"}\n${JSON.stringify({ type: "user", message: { role: "user", content: "hi" } })}\n`, env);
    const results = jsonLines(run.stdout).filter((line) => line.type === "result");
    expect([run.code, results.map((line) => [line.is_error, line.result])]).toEqual([1, [[true, ""], [false, "answered"]]]);
    expect(run.stderr).toContain('mca: stdin line 1: expected a user message: {"type":"user","message":{"role":"user","content":…}} (control requests are not supported)');
  });
});

describe("claude -p's command lines with mca in its place", () => {
  it('claude -p "…" --output-format stream-json --verbose: the init line first, the result last', async () => {
    const run = await project.run(["-p", "say hi", "--output-format", "stream-json", "--verbose"], "", await scripted(["hi"]));
    const lines = jsonLines(run.stdout);
    expect([run.code, lines[0]?.type, lines[0]?.subtype, lines.at(-1)?.type, lines.at(-1)?.result]).toEqual([0, "system", "init", "result", "hi"]);
  });

  it('claude -p --resume <id> "…" and claude -c -p "…" go on with the conversation', async () => {
    await project.run(["-p", "first"], "", await scripted(["one"]));
    const [first] = await sessions();
    const resumed = await project.run(["-p", "--resume", first?.id ?? "", "second"], "", await scripted(["two"]));
    const continued = await project.run(["-c", "-p", "third"], "", await scripted(["three"]));
    expect([resumed.code, resumed.stdout, continued.code, continued.stdout]).toEqual([0, "two\n", 0, "three\n"]);
    expect((await sessions()).map(({ firstPrompt, messageCount }) => ({ firstPrompt, messageCount }))).toEqual([
      { firstPrompt: "third", messageCount: 6 },
      { firstPrompt: "second", messageCount: 4 },
      { firstPrompt: "first", messageCount: 2 },
    ]);
  });

  it("claude -p --resume with a word that is no session: exit 2 naming -c", async () => {
    const run = await project.run(["-p", "--resume", "fix", "it"], "", await scripted([]));
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr: 'mca: no session "fix" in this project; `mca sessions` lists them; a prompt goes after the id (mca -p --resume <id> "<prompt>"), and -c goes on with the newest session\n',
    });
  });

  it('claude -p "…" --allowedTools "Bash(git diff:*)" "Read": the diff runs unasked, another command does not', async () => {
    execFileSync("git", ["init", "--quiet"], { cwd: project.dir });
    const env = await scripted([[call("bash", { command: "git diff --stat" }), call("read_file", { path: "README.md" }), call("bash", { command: "touch made.txt" })], "reviewed"]);
    const run = await project.run(["--no-sandbox", "-p", "review the diff", "--allowedTools", "Bash(git diff:*)", "Read"], "", env);
    expect([run.code, run.stdout, existsSync(join(project.dir, "made.txt"))]).toEqual([0, "reviewed\n", false]);
    expect(run.stderr.split("\n").filter((line) => line.startsWith("not run"))).toEqual([
      'not run: bash needs approval and there is no terminal to ask on; run mca with --allow "bash" to allow it',
    ]);
  });

  it("claude -p with a tool mca has not: said once on stderr, the run goes on", async () => {
    const run = await project.run(["-p", "hi", "--allowedTools", "WebFetch,Read", "--disallowedTools", "WebSearch"], "", await scripted(["hello"]));
    expect([run.code, run.stdout]).toEqual([0, "hello\n"]);
    expect(run.stderr.split("\n").filter((line) => line.includes("left out"))).toEqual([
      'mca: --allowedTools "WebFetch" is left out: mca has no WebFetch tool',
      'mca: --disallowedTools "WebSearch" is left out: mca has no WebSearch tool (so there is nothing to deny)',
    ]);
  });
});

describe("--system-prompt and --append-system-prompt", () => {
  it("refuses a prompt file that cannot be read, naming the flag (exit 2)", async () => {
    const run = await project.run(["-p", "hi", "--system-prompt-file", "missing.txt"], "", await scripted(["never"]));
    expect([run.code, run.stderr]).toEqual([2, "mca: --system-prompt-file missing.txt: ENOENT: no such file or directory, stat '" + join(project.dir, "missing.txt") + "'\n"]);
  });
});
