import { describe, expect, it } from "vitest";
import { DEFAULT_MODEL } from "../model/index.js";
import { SLASH_COMMANDS } from "./commands.js";
import { DEFAULT_MODEL_NAME, parseInvocation, type CommonOptions } from "./program.js";

const defaults: CommonOptions = { mcpConfig: undefined, allow: [], deny: [], model: undefined, resume: false, resumeId: undefined, inputResponses: undefined, trustProject: false };

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
      options: { mcpConfig: "x.json", allow: ["write_file", "bash(git *)"], deny: ["bash(rm*)"], model: "m", resume: true, resumeId: undefined, inputResponses: "answers.json", trustProject: false },
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
