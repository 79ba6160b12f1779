// End to end: the real CLI as a child process (`node --import tsx src/main.ts`) in a temporary project,
// stdin piped, the mock model, and a temporary HOME so the user's own settings never leak in.
import { spawn } from "node:child_process";
import type { IncomingHttpHeaders } from "node:http";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeMessagesApi } from "./model/test-support/fake-messages-api.js";
import { replyEvents } from "./model/test-support/sse-replies.js";

const MAIN = fileURLToPath(new URL("./main.ts", import.meta.url));
/** Absolute, because the CLI runs from a temporary project folder where `tsx` cannot be resolved. */
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const CLI_LIMIT_MS = 15_000;
const README = "# demo\nhello from the readme\n";

interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

let project = "";
let home = "";

beforeEach(async () => {
  const root = await mkdtemp(join(tmpdir(), "mca-cli-"));
  project = join(root, "project");
  home = join(root, "home");
  await mkdir(project);
  await mkdir(home);
  await writeFile(join(project, "README.md"), README);
});

afterEach(async () => {
  await rm(join(project, ".."), { recursive: true, force: true });
});

/** Runs the CLI to completion; killed (and the test failed) if it outlives CLI_LIMIT_MS. */
function runCli(args: readonly string[], stdin: string, env: Record<string, string> = { MOCK: "1" }): Promise<CliRun> {
  const child = spawn(process.execPath, ["--import", TSX_LOADER, MAIN, ...args], {
    cwd: project,
    env: { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  child.stdin.end(stdin);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`mca ${args.join(" ")} did not finish within ${CLI_LIMIT_MS} ms; stderr: ${stderr}`));
    }, CLI_LIMIT_MS);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const DENIED_WRITE = 'denied: write_file needs approval; run with --allow "write_file" to allow it';
const WRITE_CALL = '/call write_file {"path":"notes/new.txt","content":"written by mca"}\n';

describe("mca in pipe mode", () => {
  it("prints the tools and a file read with /call, and exits 0", async () => {
    const run = await runCli([], '/tools\n/call read_file {"path":"README.md"}\n');
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
    const run = await runCli([], WRITE_CALL);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(DENIED_WRITE);
    expect(run.stderr).toContain("/call write_file failed; approval: ask (default for write tools: ask)");
    expect(existsSync(join(project, "notes", "new.txt"))).toBe(false);
  });

  it("writes with --allow write_file, and /undo restores the project", async () => {
    const written = await runCli(["--allow", "write_file"], WRITE_CALL);
    expect(written.code).toBe(0);
    expect(await readFile(join(project, "notes", "new.txt"), "utf8")).toBe("written by mca");

    const undone = await runCli(
      ["--allow", "write_file"],
      '/call write_file {"path":"README.md","content":"changed"}\n/undo\n',
    );
    expect(undone.code).toBe(0);
    expect(undone.stdout).toContain(`restored ${join(project, "README.md")}`);
    expect(await readFile(join(project, "README.md"), "utf8")).toBe(README);
  });

  it("goes on after an unknown command and exits 1 at the end", async () => {
    const run = await runCli([], "/frobnicate\n/mcp\n");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("unknown command /frobnicate (try /help)");
    expect(run.stdout).toBe("no MCP servers configured\n");
  });

  it("sends other lines to the model as prompts", async () => {
    const run = await runCli([], 'call read_file {"path":"README.md"}\n');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('[read_file] {"path":"README.md"}');
    expect(run.stdout).toContain("# demo");
  });
});

describe("mca -p", () => {
  it("answers one prompt with the mock model and exits 0", async () => {
    const run = await runCli(["-p", "what is in this project?"], "");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("what is in this project?");
  });

  it("tells once on stderr that the mock is used when no key is set", async () => {
    const run = await runCli(["-p", "hello"], "", {});
    expect(run.code).toBe(0);
    expect(run.stderr.split("\n").filter((line) => line.includes("ANTHROPIC_API_KEY"))).toEqual([
      "No ANTHROPIC_API_KEY set: using the offline mock model (MOCK=1 to silence this)",
    ]);
  });
});

describe("mca with ANTHROPIC_API_KEY", () => {
  it("talks to ANTHROPIC_BASE_URL with the key and the --model flag's model, which wins over MCA_MODEL", async () => {
    const api = await startFakeMessagesApi([
      { kind: "stream", events: replyEvents("claude-flag", [{ type: "text", chunks: ["Hello ", "from the fake."] }], "end_turn") },
    ]);
    try {
      const run = await runCli(["-p", "hi", "--model", "claude-flag"], "", {
        ANTHROPIC_API_KEY: "test-key",
        ANTHROPIC_BASE_URL: api.baseURL,
        MCA_MODEL: "claude-env",
      });
      expect(run).toEqual({ code: 0, stdout: "Hello from the fake.\n", stderr: "" });
      expect(api.requests.map((request) => [apiKeyOf(request.headers), modelOf(request.body)])).toEqual([["test-key", "claude-flag"]]);
    } finally {
      await api.close();
    }
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

describe("mca subcommands", () => {
  it("tools --json lists every tool with its source and approval", async () => {
    const run = await runCli(["tools", "--json", "--deny", "bash"], "");
    expect(run.code).toBe(0);
    const local = (name: string, decision: string, reason: string) => ({
      name,
      source: "local",
      originalName: name,
      description: expect.any(String),
      approval: { decision, reason },
    });
    expect(JSON.parse(run.stdout)).toEqual([
      local("read_file", "allow", "default for read tools: allow"),
      local("write_file", "ask", "default for write tools: ask"),
      local("edit_file", "ask", "default for write tools: ask"),
      local("list_dir", "allow", "default for read tools: allow"),
      local("search", "allow", "default for read tools: allow"),
      local("bash", "deny", 'rule "bash" (deny) from --deny'),
    ]);
  });

  it("call --json reports a successful call", async () => {
    const run = await runCli(["call", "read_file", '{"path":"README.md"}', "--json"], "");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      tool: "read_file",
      isError: false,
      text: expect.stringContaining("hello from the readme"),
      truncated: false,
      approval: { decision: "allow", reason: "default for read tools: allow" },
    });
  });

  it("call --json reports a denied call and exits 1", async () => {
    const run = await runCli(["call", "write_file", '{"path":"x.txt","content":"x"}', "--json"], "");
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      tool: "write_file",
      isError: true,
      text: expect.any(String),
      truncated: false,
      approval: { decision: "ask", reason: "default for write tools: ask" },
    });
    expect(run.stderr).toContain('denied: write_file needs approval; run with --allow "write_file" to allow it');
  });

  it("call with arguments that are not JSON is a usage error", async () => {
    const run = await runCli(["call", "read_file", "{path"], "");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^mca call: invalid JSON arguments for read_file: /);
    expect(run.stdout).toBe("");
  });

  it("mcp list --json is an empty array while no server is configured", async () => {
    const run = await runCli(["mcp", "list", "--json"], "");
    expect(run).toEqual({ code: 0, stdout: "[]\n", stderr: "" });
  });
});

describe("mca configuration errors", () => {
  it("exits 2 naming a malformed project settings file", async () => {
    const file = join(project, ".mca", "settings.json");
    await mkdir(join(project, ".mca"));
    await writeFile(file, '{"permissions": {"allow": ["read_file",]}}');
    const run = await runCli(["tools"], "");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^mca: ${file}: invalid JSON: `));
    expect(run.stdout).toBe("");
  });

  it("exits 2 naming the user settings file and the bad entry", async () => {
    const file = join(home, ".config", "mca", "settings.json");
    await mkdir(join(home, ".config", "mca"), { recursive: true });
    await writeFile(file, '{"permissions": {"deny": ["bash(rm*"]}}');
    const run = await runCli(["-p", "hi"], "");
    expect(run).toEqual({ code: 2, stdout: "", stderr: `mca: ${file}: permissions.deny[0]: missing ")" at the end of "bash(rm*"\n` });
  });

  it("exits 2 on a malformed --allow rule and on an unknown option", async () => {
    expect((await runCli(["--allow", "rm -rf", "tools"], "")).code).toBe(2);
    expect((await runCli(["--frobnicate"], "")).code).toBe(2);
  });
});
