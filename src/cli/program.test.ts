import { describe, expect, it } from "vitest";
import { DEFAULT_MODEL } from "../model/index.js";
import { SLASH_COMMANDS } from "./commands.js";
import { DEFAULT_MODEL_NAME, parseInvocation, type CommonOptions } from "./program.js";

const defaults: CommonOptions = { mcpConfigs: [], allow: [], deny: [], allowedTools: [], disallowedTools: [], model: undefined, resume: false, resumeId: undefined, inputResponses: undefined, trustProject: false };

async function parse(argv: string[]) {
  const written: string[] = [];
  const invocation = await parseInvocation(argv, "1.2.3", {
    writeOut: (text) => written.push(`out:${text}`),
    writeErr: (text) => written.push(`err:${text}`),
  });
  return { invocation, written };
}

describe("parseInvocation", () => {
  it("starts a session when no subcommand is given", async () => {
    expect((await parse([])).invocation).toEqual({ kind: "session", options: defaults, print: false, prompt: undefined, outputFormat: "text" });
  });

  it("reads -p and the common options, collecting repeated rules in order", async () => {
    const { invocation } = await parse(["-p", "hello", "--allow", "write_file", "--allow", "bash(git *)", "--deny", "bash(rm*)", "--model", "m", "--resume", "--mcp-config", "x.json", "--input-responses", "answers.json"]);
    expect(invocation).toEqual({
      kind: "session",
      options: { ...defaults, mcpConfigs: ["x.json"], allow: ["write_file", "bash(git *)"], deny: ["bash(rm*)"], model: "m", resume: true, resumeId: undefined, inputResponses: "answers.json", trustProject: false },
      print: true,
      prompt: "hello",
      outputFormat: "text",
    });
    expect((await parse(["-p", "hi", "--output-format", "stream-json"])).invocation).toMatchObject({ print: true, prompt: "hi", outputFormat: "stream-json" });
    expect((await parse(["-p", "hi", "--output-format", "xml"])).invocation).toEqual({ kind: "exit", code: 2 });
  });

  it("reads -p alone (the prompt comes on stdin), and a prompt without -p as the chat's first, in words or quoted", async () => {
    const session = (print: boolean, prompt: string | undefined) => ({ kind: "session", options: defaults, print, prompt, outputFormat: "text" });
    expect(await Promise.all([["-p"], ["fix the bug"], ["fix", "the", "bug"], ["-p", "--", "/tools"], ["--model", "m", "hello"]].map(async (argv) => (await parse(argv)).invocation))).toEqual([
      session(true, undefined),
      session(false, "fix the bug"),
      session(false, "fix the bug"),
      session(true, "/tools"),
      { ...session(false, "hello"), options: { ...defaults, model: "m" } },
    ]);
  });

  it("parses tools, call and mcp list with --json and common options after the subcommand", async () => {
    expect((await parse(["tools", "--json", "--deny", "bash"])).invocation).toEqual({
      kind: "tools",
      options: { ...defaults, deny: ["bash"] },
      json: true,
    });
    expect((await parse(["call", "read_file", '{"path":"a"}', "--json"])).invocation).toEqual({
      kind: "call",
      options: defaults,
      tool: "read_file",
      args: '{"path":"a"}',
      json: true,
    });
    expect((await parse(["call", "list_dir"])).invocation).toEqual({ kind: "call", options: defaults, tool: "list_dir", args: undefined, json: false });
    expect((await parse(["mcp", "list", "--json"])).invocation).toEqual({ kind: "mcp-list", options: defaults, json: true });
    expect((await parse(["trust"])).invocation).toEqual({ kind: "trust", options: defaults });
    expect((await parse(["mcp", "login", "docs"])).invocation).toEqual({ kind: "mcp-login", options: defaults, alias: "docs" });
    expect((await parse(["mcp", "logout", "docs"])).invocation).toEqual({ kind: "mcp-logout", options: defaults, alias: "docs" });
    expect((await parse(["--trust-project", "tools"])).invocation).toEqual({ kind: "tools", options: { ...defaults, trustProject: true }, json: false });
    expect((await parse(["--verbose", "-p", "hi"])).invocation).toEqual({ kind: "session", options: { ...defaults, verbose: true }, print: true, prompt: "hi", outputFormat: "text" });
    expect((await parse(["--no-sandbox", "tools"])).invocation).toEqual({ kind: "tools", options: { ...defaults, noSandbox: true }, json: false });
  });

  it("reads --resume with and without a session id, and the sessions subcommand", async () => {
    expect((await parse(["--resume", "20261202-1", "-p", "hi"])).invocation).toEqual({
      kind: "session",
      options: { ...defaults, resume: true, resumeId: "20261202-1" },
      print: true,
      prompt: "hi",
      outputFormat: "text",
    });
    expect((await parse(["--resume"])).invocation).toEqual({ kind: "session", options: { ...defaults, resume: true }, print: false, prompt: undefined, outputFormat: "text" });
    expect((await parse(["sessions", "--json"])).invocation).toEqual({ kind: "sessions", json: true });
  });

  it("exits 2 with commander's message on stderr for an unknown option", async () => {
    const { invocation, written } = await parse(["--nope"]);
    expect(invocation).toEqual({ kind: "exit", code: 2 });
    expect(written).toEqual(["err:error: unknown option '--nope'\n"]);
  });

  it("exits 2 for a subcommand's missing argument (a word that names no subcommand is a prompt)", async () => {
    expect((await parse(["call"])).invocation).toEqual({ kind: "exit", code: 2 });
    expect((await parse(["mcp", "login"])).invocation).toEqual({ kind: "exit", code: 2 });
  });

  it("reads -r as --resume, and a prompt after the session id as the prompt (claude -p -r <id> \"…\")", async () => {
    const expected = { kind: "session", options: { ...defaults, resume: true, resumeId: "20261202-1" }, print: true, prompt: "finish this PR", outputFormat: "text" };
    expect((await parse(["-p", "--resume", "20261202-1", "finish this PR"])).invocation).toEqual(expected);
    expect((await parse(["-r", "20261202-1", "-p", "finish this PR"])).invocation).toEqual(expected);
    expect((await parse(["-c", "-p", "check for type errors"])).invocation).toEqual({ ...expected, options: { ...defaults, resume: true, continueNewest: true }, prompt: "check for type errors" });
  });

  it("refuses a --resume value that cannot be a session id, naming -c and where the prompt goes", async () => {
    const { invocation, written } = await parse(["-p", "--resume", "fix the bug"]);
    expect(invocation).toEqual({ kind: "exit", code: 2 });
    expect(written).toEqual([
      `err:error: option '-r, --resume [id]' argument 'fix the bug' is invalid. "fix the bug" is not a session id (\`mca sessions\` lists them). The prompt goes after the id: mca -p --resume <id> "<prompt>"; -c goes on with the newest session\n`,
    ]);
  });

  it("reads --allowedTools and --disallowedTools in both spellings, comma- or space-separated, repeatable, parentheses kept whole", async () => {
    const { invocation } = await parse(["-p", "hi", "--allowedTools", "Bash(git diff:*)", "Read,Edit", "--allowed-tools", "mcp__notes Bash(npm test)", "--disallowedTools", "WebFetch", "--disallowed-tools", "Write"]);
    expect(invocation).toEqual({
      kind: "session",
      options: { ...defaults, allowedTools: ["Bash(git diff:*)", "Read", "Edit", "mcp__notes", "Bash(npm test)"], disallowedTools: ["WebFetch", "Write"] },
      print: true,
      prompt: "hi",
      outputFormat: "text",
    });
  });

  it("reads --permission-mode (default leaves nothing), --dangerously-skip-permissions as bypassPermissions, and refuses another mode", async () => {
    const modeOf = async (argv: string[]) => {
      const { invocation } = await parse(argv);
      return invocation.kind === "session" ? (invocation.options.permissionMode ?? "(none)") : invocation;
    };
    expect(await Promise.all([["--permission-mode", "plan"], ["--permission-mode", "acceptEdits"], ["--permission-mode", "bypassPermissions"], ["--permission-mode", "default"], ["--dangerously-skip-permissions"], ["--permission-mode", "yolo"]].map(modeOf))).toEqual([
      "plan",
      "acceptEdits",
      "bypassPermissions",
      "(none)",
      "bypassPermissions",
      { kind: "exit", code: 2 },
    ]);
  });

  it("reads the system prompt flags as a text or the file to read it from", async () => {
    expect((await parse(["--system-prompt", "Be terse.", "--append-system-prompt", "Answer in French."])).invocation).toMatchObject({
      options: { systemPrompt: { kind: "text", text: "Be terse." }, appendSystemPrompt: { kind: "text", text: "Answer in French." } },
    });
    expect((await parse(["--system-prompt-file", "p.txt", "--append-system-prompt-file", "a.txt"])).invocation).toMatchObject({
      options: { systemPrompt: { kind: "file", path: "p.txt" }, appendSystemPrompt: { kind: "file", path: "a.txt" } },
    });
  });

  it("reads --mcp-config more than once, and --strict-mcp-config", async () => {
    expect((await parse(["--mcp-config", "a.json", "--mcp-config", "b.json", "--strict-mcp-config", "tools"])).invocation).toEqual({
      kind: "tools",
      options: { ...defaults, mcpConfigs: ["a.json", "b.json"], strictMcpConfig: true },
      json: false,
    });
  });

  it("reads --input-format stream-json with stream-json output and no prompt; refuses it with another output or a prompt", async () => {
    expect((await parse(["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"])).invocation).toEqual({
      kind: "session",
      options: { ...defaults, verbose: true },
      print: true,
      prompt: undefined,
      outputFormat: "stream-json",
      inputFormat: "stream-json",
    });
    expect((await parse(["-p", "--input-format", "text"])).invocation).toEqual({ kind: "session", options: defaults, print: true, prompt: undefined, outputFormat: "text" });
    expect(await parse(["-p", "--input-format", "stream-json"])).toEqual({ invocation: { kind: "exit", code: 2 }, written: ["err:mca: --input-format stream-json needs --output-format stream-json\n"] });
    expect((await parse(["-p", "hi", "--input-format", "stream-json", "--output-format", "stream-json"])).invocation).toEqual({ kind: "exit", code: 2 });
  });

  it("reads the output side's flags: --include-partial-messages, --mca-events, --output-schema; --fork-session is accepted", async () => {
    expect((await parse(["-p", "hi", "--output-format", "stream-json", "--include-partial-messages", "--mca-events", "--output-schema", "s.json", "--fork-session"])).invocation).toEqual({
      kind: "session",
      options: defaults,
      print: true,
      prompt: "hi",
      outputFormat: "stream-json",
      includePartialMessages: true,
      mcaEvents: true,
      outputSchemaFile: "s.json",
    });
  });

  it("exits 0 after printing help or the version", async () => {
    const help = await parse(["--help"]);
    expect(help.invocation).toEqual({ kind: "exit", code: 0 });
    expect(help.written.join("")).toContain("Usage: mca");
    expect(await parse(["--version"])).toEqual({ invocation: { kind: "exit", code: 0 }, written: ["out:1.2.3\n"] });
  });

  it("names in --help every slash command, the environment, the default model and the exit codes", async () => {
    const help = (await parse(["--help"])).written.join("");
    for (const command of SLASH_COMMANDS) expect(help).toContain(`/${command.name}`);
    for (const variable of ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "MCA_MODEL", "MOCK", "NO_COLOR", "TICKETS_PORT"]) expect(help).toContain(variable);
    expect(help).toContain(`default ${DEFAULT_MODEL}`);
    expect(DEFAULT_MODEL_NAME).toBe(DEFAULT_MODEL);
    for (const code of ["0 success", "1 a call failed", "2 a usage", "130 interrupted", "141"]) expect(help).toContain(code);
  });
});
