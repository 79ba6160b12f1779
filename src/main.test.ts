// End to end: the real CLI as a child process in a temporary project, stdin piped, the mock model
// (or a fake Messages API), in pipe mode, with -p, and with configuration errors.
import type { IncomingHttpHeaders } from "node:http";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempProject, README_TEXT, type TempProject } from "./cli/test-support/run-cli.js";
import { startFakeMessagesApi } from "./model/test-support/fake-messages-api.js";
import { replyEvents } from "./model/test-support/sse-replies.js";

let project: TempProject;

beforeEach(async () => {
  project = await createTempProject();
});

afterEach(async () => {
  await project.remove();
});

const DENIED_WRITE = 'not run: write_file needs approval and there is no terminal to ask on; run mca with --allow "write_file" to allow it';
const WRITE_CALL = '/call write_file {"path":"notes/new.txt","content":"written by mca"}\n';

describe("mca in pipe mode", () => {
  it("prints the tools and a file read with /call, and exits 0", async () => {
    const run = await project.run([], '/tools\n/call read_file {"path":"README.md"}\n');
    expect(run.code).toBe(0);
    const toolLines = run.stdout.split("\n").filter((line) => /^\w+\s+local\s+(allow|ask|deny)$/.test(line));
    expect(toolLines.map((line) => line.split(/\s+/))).toEqual([
      ["read_file", "local", "allow"],
      ["write_file", "local", "ask"],
      ["edit_file", "local", "ask"],
      ["list_dir", "local", "allow"],
      ["search", "local", "allow"],
      ["bash", "local", "ask"],
    ]);
    expect(run.stdout).toContain("hello from the readme");
  });

  it("denies a writing /call without --allow, names the flag and the reason, and exits 1", async () => {
    const run = await project.run([], WRITE_CALL);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(DENIED_WRITE);
    expect(run.stderr).toContain("/call write_file failed; approval: ask (default for write tools: ask)");
    expect(existsSync(join(project.dir, "notes", "new.txt"))).toBe(false);
  });

  it("writes with --allow write_file, and /undo restores the project", async () => {
    const written = await project.run(["--allow", "write_file"], WRITE_CALL);
    expect(written.code).toBe(0);
    expect(await readFile(join(project.dir, "notes", "new.txt"), "utf8")).toBe("written by mca");

    const undone = await project.run(
      ["--allow", "write_file"],
      '/call write_file {"path":"README.md","content":"changed"}\n/undo\n',
    );
    expect(undone.code).toBe(0);
    expect(undone.stdout).toContain(`restored ${join(project.dir, "README.md")}`);
    expect(await readFile(join(project.dir, "README.md"), "utf8")).toBe(README_TEXT);
  });

  it("refuses a prompt that mentions a file a deny rule covers, sending nothing, and attaches one no rule denies", async () => {
    await writeFile(join(project.dir, ".env"), "SECRET=1\n");
    const run = await project.run(["--deny", "read_file(.env)"], "what is in @.env\nand in @README.md\n");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("cannot attach @.env: refused: ");
    expect(run.stderr).toContain("@README.md: ");
    expect(run.stdout).not.toContain("SECRET=1");
  });

  it("goes on after an unknown command and exits 1 at the end; /mcp without servers names the files it looked at", async () => {
    const run = await project.run([], "/frobnicate\n/mcp\n");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("unknown command /frobnicate (try /help)");
    expect(run.stdout).toBe("no MCP servers configured (looked at ~/.config/mca/local-mcp.json, mcp.config.json, .mcp.json, ~/.config/mca/mcp.json)\n");
  });

  it("sends other lines to the model as prompts", async () => {
    const run = await project.run([], 'call read_file {"path":"README.md"}\n');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('[read_file] {"path":"README.md"}');
    expect(run.stdout).toContain("# demo");
  });
});

describe("mca /undo", () => {
  const readme = (): string => join(project.dir, "README.md");
  const outLines = (stdout: string): string[] => stdout.split("\n").filter((line) => /^(restored|removed|not |no |nothing)/.test(line));

  it("undoes what a command changed in the project, says what it cannot undo, then the write before it", async () => {
    await writeFile(join(project.dir, ".gitignore"), "ignored/\n");
    const run = await project.run(
      ["--allow", "write_file", "--allow", "bash"],
      '/call write_file {"path":"README.md","content":"v1\\n"}\n' +
        '/call bash {"command":"echo v2 > README.md && echo new > made.txt && mkdir -p ignored && echo x > ignored/out.txt"}\n' +
        "/undo\n/undo\n/undo\n",
    );
    expect(run.code).toBe(0);
    expect(outLines(run.stdout)).toEqual([
      `restored ${readme()}`,
      `removed ${join(project.dir, "made.txt")} (the turn created it)`,
      "not undone: what the turn's commands (bash) changed in files .gitignore excludes or outside the project",
      `restored ${readme()}`,
      "nothing to undo",
    ]);
    expect(await readFile(readme(), "utf8")).toBe(README_TEXT);
    expect([existsSync(join(project.dir, "made.txt")), existsSync(join(project.dir, "ignored", "out.txt"))]).toEqual([false, true]);
  });

  it("keeps work done after the turn: a file changed since is left as it is, with the reason", async () => {
    const first = await project.run(["--allow", "write_file"], '/call write_file {"path":"README.md","content":"v1\\n"}\n');
    await writeFile(readme(), "v2 by hand\n");
    const undo = await project.run(["--resume", sessionIdOf(first.stderr)], "/undo\n");
    expect(outLines(undo.stdout)).toEqual([
      `not restored ${readme()}: it changed after that turn (by a command, another session or by hand); undo keeps that newer work`,
    ]);
    expect(await readFile(readme(), "utf8")).toBe("v2 by hand\n");
  });

  it("undoes only its own session's turns, and after --resume those of the session it resumed; a created file is removed", async () => {
    const first = await project.run(["--allow", "write_file"], '/call write_file {"path":"made.txt","content":"x"}\n');
    const other = await project.run([], "/undo\n");
    expect(outLines(other.stdout)).toEqual(["nothing to undo"]);
    const resumed = await project.run(["--resume", sessionIdOf(first.stderr)], "/undo\n");
    expect(outLines(resumed.stdout)).toEqual([`removed ${join(project.dir, "made.txt")} (the turn created it)`]);
    expect(existsSync(join(project.dir, "made.txt"))).toBe(false);
  });
});

describe("mca -p", () => {
  it("answers one prompt with the mock model and exits 0", async () => {
    const run = await project.run(["-p", "what is in this project?"], "");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("what is in this project?");
  });

  it("exits 2 naming ANTHROPIC_API_KEY when no key is set and MOCK is not, in -p starting nothing", async () => {
    const refused = { code: 2, stdout: "", stderr: "mca: ANTHROPIC_API_KEY is not set: -p and pipe mode talk to Claude with it (MOCK=1 runs the offline mock model instead)\n" };
    expect(await project.run(["-p", "hello"], "", {})).toEqual(refused);
    expect(existsSync(project.sessionsDir)).toBe(false);
  });

  it("runs pipe mode's slash commands without a key, and ends at its first prompt with exit 2 naming ANTHROPIC_API_KEY", async () => {
    const run = await project.run([], "/approvals\nhello\n/approvals\n", { MOCK: "0" });
    expect({ code: run.code, refusal: run.stderr.split("\n").filter((line) => line.includes("ANTHROPIC_API_KEY")), approvalsShown: run.stdout.split("read_file").length - 1 }).toEqual({
      code: 2,
      refusal: ["mca: ANTHROPIC_API_KEY is not set: -p and pipe mode talk to Claude with it (MOCK=1 runs the offline mock model instead)"],
      approvalsShown: 1,
    });
  });

  it("says once that --model has no effect when the mock answers", async () => {
    const run = await project.run(["-p", "hello", "--model", "nope"], "");
    expect(run.code).toBe(0);
    expect(run.stderr.split("\n").filter((line) => line.includes("--model"))).toEqual(['--model "nope" has no effect: the offline mock model answers']);
  });
});

describe("mca -p without a terminal to ask on", () => {
  it("tells the model, as well as the user, that the call needs approval and which flag grants it", async () => {
    const script = join(project.home, "script.json");
    await writeFile(script, JSON.stringify([[{ name: "write_file", input: { path: "a.txt", content: "x" } }], "ok"]));
    const run = await project.run(["-p", "write it"], "", { MCA_MOCK_SCRIPT: script });
    const sessions = project.sessionsDir;
    const [name] = await readdir(sessions);
    const results = (await readFile(join(sessions, name ?? ""), "utf8"))
      .split("\n")
      .filter((line) => line.startsWith('{"type":"tool_result"'))
      .map((line): unknown => JSON.parse(line));
    expect({ stderr: run.stderr.split("\n").filter((line) => line.startsWith("not run")), results }).toEqual({
      stderr: [DENIED_WRITE],
      results: [
        {
          type: "tool_result",
          callId: "scripted_1",
          tool: "write_file",
          isError: true,
          text: 'Not run: write_file needs approval and there is no terminal to ask on; run mca with --allow "write_file" to allow it.',
          truncated: false,
        },
      ],
    });
  });
});

/** The one line -p and pipe mode write on stderr at start: the session's id and how to continue it. */
const SESSION_LINE = /^mca: session (\d{8}-\d{6}-\d+) \(mca --resume \1 continues it\)$/;
const SESSION_LINE_TEXT = /mca: session \S+ \(mca --resume \S+ continues it\)/;

function sessionIdOf(stderr: string): string {
  const id = stderr.split("\n").map((line) => SESSION_LINE.exec(line)?.[1]).find((found) => found !== undefined);
  if (id === undefined) throw new Error(`no session line in ${JSON.stringify(stderr)}`);
  return id;
}

describe("mca --resume", () => {
  it("names each session on stderr, and continues no -p run unless asked for it by id", async () => {
    const first = await project.run(["--resume", "-p", "hello"], "");
    const id = sessionIdOf(first.stderr);
    expect([first.code, first.stderr]).toEqual([
      0,
      `no earlier chat session in this project: starting a new one (\`mca sessions\` lists them all)\nmca: session ${id} (mca --resume ${id} continues it)\n`,
    ]);
    const again = await project.run(["--resume", "-p", "hello again"], "");
    expect(again.stderr).toContain("no earlier chat session in this project");
    const byId = await project.run(["--resume", id, "-p", "and again"], "");
    expect([byId.code, byId.stderr.split("\n").filter((line) => line !== "" && !SESSION_LINE.test(line))]).toEqual([0, []]);
    const resumedFile = join(project.sessionsDir, `${sessionIdOf(byId.stderr)}.jsonl`);
    const history = (await readFile(resumedFile, "utf8")).split("\n").find((line) => line.startsWith('{"type":"history"'));
    expect(history).toContain("hello");
  });

  it("refuses an id that names no session with a usage error that names mca sessions", async () => {
    const run = await project.run(["--resume", "nope", "-p", "hello"], "");
    expect([run.code, run.stderr]).toEqual([2, 'mca: no session "nope" in this project; `mca sessions` lists them; a prompt goes after the id (mca -p --resume <id> "<prompt>"), and -c goes on with the newest session\n']);
  });
});

describe("mca sessions", () => {
  it("lists the sessions newest first, as text and as JSON", async () => {
    const first = await project.run(["-p", "first prompt"], "");
    const second = await project.run([], "second prompt\n/help\n");
    const [idOne, idTwo] = [sessionIdOf(first.stderr), sessionIdOf(second.stderr)];
    const json = await project.run(["sessions", "--json"], "");
    const listed: unknown = JSON.parse(json.stdout);
    expect([json.code, json.stderr]).toEqual([0, ""]);
    expect(listed).toEqual([
      { id: idTwo, startedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), mode: "pipe", firstPrompt: "second prompt", messageCount: 2 },
      { id: idOne, startedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), mode: "print", firstPrompt: "first prompt", messageCount: 2 },
    ]);
    const text = await project.run(["sessions"], "");
    expect(text.stdout.split("\n").map((line) => line.split(/\s{2,}/).filter((field) => !/^\d{4}-/.test(field)))).toEqual([
      [idTwo, "pipe", "2 messages", "second prompt"],
      [idOne, "print", "2 messages", "first prompt"],
      [""],
    ]);
  });
});

describe("mca with ANTHROPIC_API_KEY", () => {
  it("talks to ANTHROPIC_BASE_URL with the key and the --model flag's model, which wins over MCA_MODEL", async () => {
    const api = await startFakeMessagesApi([
      { kind: "stream", events: replyEvents("claude-flag", [{ type: "text", chunks: ["Hello ", "from the fake."] }], "end_turn") },
    ]);
    try {
      const run = await project.run(["-p", "hi", "--model", "claude-flag"], "", {
        ANTHROPIC_API_KEY: "test-key",
        ANTHROPIC_BASE_URL: api.baseURL,
        MCA_MODEL: "claude-env",
      });
      expect({ ...run, stderr: run.stderr.replace(SESSION_LINE_TEXT, "") }).toEqual({ code: 0, stdout: "Hello from the fake.\n", stderr: "\n" });
      expect(api.requests.map((request) => [apiKeyOf(request.headers), modelOf(request.body)])).toEqual([["test-key", "claude-flag"]]);
    } finally {
      await api.close();
    }
  });
});

describe("mca -p --output-format", () => {
  it("json prints one object with the answer, the tool calls with their approval, the tokens and the estimated cost", async () => {
    const api = await startFakeMessagesApi([{ kind: "stream", events: replyEvents("claude-sonnet-5-5", [{ type: "text", chunks: ["Hi ", "there."] }], "end_turn") }]);
    try {
      const run = await project.run(["-p", "hi", "--model", "claude-sonnet-5-5", "--output-format", "json"], "", { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: api.baseURL });
      expect(run.code).toBe(0);
      const result: unknown = JSON.parse(run.stdout);
      expect(result).toMatchObject({
        text: "Hi there.",
        toolCalls: [],
        usage: { inputTokens: 25, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 12 },
        errors: [],
        turnEnd: "done",
      });
      // $3 and $15 per million tokens.
      expect(typeof result === "object" && result !== null && "costUsd" in result ? result.costUsd : undefined).toBeCloseTo((25 * 3 + 12 * 15) / 1_000_000, 9);
    } finally {
      await api.close();
    }
  });

  it("stream-json prints each message as one JSON line as it happens", async () => {
    const run = await project.run(["-p", 'call read_file {"path":"README.md"}', "--output-format", "stream-json"], "");
    expect(run.code).toBe(0);
    const events = run.stdout.trim().split("\n").map((line): unknown => JSON.parse(line));
    expect(events[0]).toMatchObject({ type: "system", subtype: "init", model: "mock" });
    expect(events.map((event) => (typeof event === "object" && event !== null && "type" in event ? event.type : null))).toEqual(["system", "assistant", "user", "assistant", "result"]);
    expect(events[1]).toMatchObject({ type: "assistant", message: { content: [{ type: "tool_use", name: "read_file", input: { path: "README.md" } }] } });
    expect(events.at(-1)).toMatchObject({ type: "result", subtype: "success" });
  });
});

/** The SDK sends the key as `x-api-key` or as a bearer token, depending on its version. */
function apiKeyOf(headers: IncomingHttpHeaders): string | undefined {
  const key = headers["x-api-key"];
  return typeof key === "string" ? key : headers.authorization?.replace(/^Bearer /, "");
}

function modelOf(body: unknown): unknown {
  return typeof body === "object" && body !== null && "model" in body ? body.model : undefined;
}

describe("mca with its output closed by the reader", () => {
  it("ends at once with the shell's SIGPIPE status, without a stack trace, in pipe mode and with -p", async () => {
    const fiftyLines = "/tools\n".repeat(50);
    const piped = await project.runIntoClosedPipe([], fiftyLines);
    expect(piped.code).toBe(141);
    expect(piped.stderr).not.toContain("unexpected error");
    const oneShot = await project.runIntoClosedPipe(["-p", "call bash {}"], "");
    expect([0, 141]).toContain(oneShot.code);
    expect(oneShot.stderr).not.toContain("unexpected error");
  });
});

describe("mca configuration errors", () => {
  it("exits 2 naming a malformed project settings file", async () => {
    const file = join(project.dir, ".mca", "settings.json");
    await mkdir(join(project.dir, ".mca"));
    await writeFile(file, '{"permissions": {"allow": ["read_file",]}}');
    const run = await project.run(["tools"], "");
    expect(run.code).toBe(2);
    // First the trust step says the project's files are not offered; then the file's own error ends the run.
    const [notOffered, error] = run.stderr.trimEnd().split("\n");
    expect(notOffered).toMatch(/^mca: \S+ is not offered for trust until its files can be read /);
    expect(error).toMatch(new RegExp(`^mca: ${file}:1:40: invalid JSON: `));
    expect(run.stdout).toBe("");
  });

  it("exits 2 naming the user settings file and the bad entry", async () => {
    const file = join(project.home, ".config", "mca", "settings.json");
    await mkdir(join(project.home, ".config", "mca"), { recursive: true });
    await writeFile(file, '{"permissions": {"deny": ["bash(rm*"]}}');
    const run = await project.run(["-p", "hi"], "");
    expect(run).toEqual({ code: 2, stdout: "", stderr: `mca: ${file}:1:27: permissions.deny[0]: missing ")" at the end of "bash(rm*"\n` });
  });

  it("exits 2 on a malformed --allow rule and on an unknown option", async () => {
    expect((await project.run(["--allow", "rm -rf", "tools"], "")).code).toBe(2);
    expect((await project.run(["--frobnicate"], "")).code).toBe(2);
  });
});

describe("mca started in a subfolder", () => {
  it("works on the project root: its files are read relative to the root, its state is the root's, and nothing is created in the project", async () => {
    await mkdir(join(project.dir, ".git"));
    await mkdir(join(project.dir, "src", "deep"), { recursive: true });
    const run = await project.runIn(join("src", "deep"), [], '/call read_file {"path":"README.md"}\n');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("hello from the readme");
    expect(existsSync(join(project.dir, "src", "deep", ".mca"))).toBe(false);
    expect(existsSync(join(project.dir, ".mca"))).toBe(false);
    expect((await readdir(project.sessionsDir)).length).toBe(1);
  });
});
