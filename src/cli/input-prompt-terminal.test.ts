// A VS Code input (`${input:id}`) on a pseudo-terminal made by script(1): asked once at start with nothing
// echoed, handed to the server, and never shown; without a terminal the entry fails naming the input.
import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUILT_NOTES_SERVER, cliNodeArgs, createTempProject, type TempProject } from "./test-support/run-cli.js";

const SECRET = "typed-s3cret-value";

/** A user mcp.json in VS Code's shape: the notes server takes the typed token as its last argument (it ignores it). */
const VSCODE_FILE = {
  inputs: [{ type: "promptString", id: "notes-token", description: "Notes token", password: true }],
  servers: { notes: { type: "stdio", command: process.execPath, args: [BUILT_NOTES_SERVER, "${input:notes-token}"] } },
};

let project: TempProject;

beforeEach(async () => {
  project = await createTempProject();
  await mkdir(join(project.home, ".config", "mca"), { recursive: true });
  await writeFile(join(project.home, ".config", "mca", "mcp.json"), JSON.stringify(VSCODE_FILE, null, 2));
});

afterEach(async () => {
  await project.remove();
});

/** `mca mcp list` on a pseudo-terminal: what it showed, once `done` matches, and its exit status. */
function onTerminal(args: readonly string[], answer: (screen: string) => string | undefined): Promise<{ screen: string; code: number | null }> {
  const quote = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;
  const line = [process.execPath, ...cliNodeArgs("bundle", args)].map(quote).join(" ");
  const env = { PATH: process.env.PATH ?? "", HOME: project.home, XDG_CONFIG_HOME: join(project.home, ".config"), XDG_STATE_HOME: join(project.home, ".local", "state"), TERM: "xterm", MOCK: "1" };
  const child = spawn("script", ["-qfec", line, "/dev/null"], { cwd: project.dir, env, stdio: ["pipe", "pipe", "pipe"] });
  let screen = "";
  let answered = false;
  child.stdout.on("data", (chunk: Buffer) => {
    screen += chunk.toString("utf8");
    const keys = answered ? undefined : answer(screen);
    if (keys === undefined) return;
    answered = true;
    child.stdin.write(keys);
  });
  child.stderr.resume();
  return new Promise((resolve) => child.on("close", (code) => resolve({ screen, code })));
}

describe("a VS Code input in the user's mcp.json", () => {
  it("is asked once on the terminal with nothing echoed, reaches the server, and is never shown", async () => {
    const run = await onTerminal(["mcp", "list"], (screen) => (/Notes token \(input "notes-token" of .*mcp\.json\)/.test(screen) ? `${SECRET}\r` : undefined));
    expect(run.code).toBe(0);
    // Asked once: a second question would wait for keys that never come, and the run would not end.
    expect(run.screen).toMatch(/notes {2}stdio {2}connected/);
    // The server was given the answer: its command line shows it redacted.
    expect(run.screen).toMatch(/command: .*notes\.js" "\[redacted\]"/);
    expect(run.screen).not.toContain(SECRET);
  });

  it("fails the entry naming the input when there is no terminal to ask in", async () => {
    const run = await project.run(["mcp", "list", "--json"], "");
    expect(JSON.parse(run.stdout)).toEqual([]);
    expect(run.stderr).toContain('servers.notes.args[1]: ${input:notes-token} ("Notes token") is asked in a terminal when the server starts, and this run has none to ask in (so server "notes" is skipped; the others start)');
  });
});
