import { execFileSync } from "node:child_process";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { REDACTED, type ApprovalRequest, type Message } from "../kernel/index.js";
import { scriptedStdioServer } from "../mcp/test-support/scripted-stdio-server.js";
import { openTranscript } from "../session/index.js";
import { tempProjectPerTest } from "../tools/test-support/temp-project.js";
import { sessionEvents, setUpSession } from "./session.js";
import { PROJECT_INSTRUCTIONS_MAX_CHARS, readProjectInstructions, systemPrompt } from "./system-prompt.js";
import { fakeTool } from "./test-support/fake-agent.js";
import { fakeRuntime, noServers } from "./test-support/fake-session.js";
import { createTempProject, type TempProject } from "./test-support/run-cli.js";

describe("a session over a real MCP server", () => {
  let project: TempProject;
  beforeEach(async () => {
    project = await createTempProject();
    const server = { ...scriptedStdioServer("--list-echo"), env: { SERVER_TOKEN: "tok-0123456789abcdef" } };
    await writeFile(join(project.dir, "servers.json"), JSON.stringify({ mcpServers: { s: server, down: { type: "http", url: "http://127.0.0.1:9/mcp" } } }));
  });
  afterEach(() => project.remove());
  const env = { MOCK: "1", ANTHROPIC_API_KEY: "sk-ant-the-users-own-key" };

  it("redacts every configured value and the API key from what a tool returns, whatever the case", async () => {
    const args = JSON.stringify({ a: "TOK-0123456789ABCDEF", b: "key sk-ant-the-users-own-key" });
    const run = await project.run(["--mcp-config", "servers.json", "--allow", "mcp__s__*", "call", "mcp__s__echo", args], "", env);
    expect(run.code).toBe(0);
    expect(run.stdout.toLowerCase()).not.toContain("0123456789abcdef");
    expect(run.stdout).not.toContain("sk-ant-the-users-own-key");
    expect(run.stdout).toContain(REDACTED);
    const transcripts = await readdir(project.sessionsDir);
    expect(transcripts).toHaveLength(1);
    for (const file of transcripts) {
      expect((await readFile(join(project.sessionsDir, file), "utf8")).toLowerCase()).not.toContain("0123456789abcdef");
    }
  });

  it("reports once at start a rule that names no tool, but not one for a server that failed", async () => {
    const run = await project.run(["--mcp-config", "servers.json", "--deny", "mcp__s__ehco", "--deny", "mcp__down__search", "--deny", "mcp__s__*x", "tools"], "", env);
    const reports = run.stderr.split("\n").filter((line) => line.includes("names no tool"));
    expect(reports).toHaveLength(1);
    expect(reports[0]).toContain('"mcp__s__ehco"');
  });
});

describe("setUpSession with --resume", () => {
  const dir = tempProjectPerTest("mca-resume-banner-");
  // Without the sandbox: its notice (no bubblewrap on this env's PATH) is not what these tests are about.
  const options = { mcpConfigs: [], allow: [], deny: [], allowedTools: [], disallowedTools: [], model: undefined, resume: true, resumeId: undefined, inputResponses: undefined, trustProject: false, noSandbox: true as const };
  const setUp = (warned: string[] = []) =>
    setUpSession({
      runtime: fakeRuntime({ env: { MOCK: "1", HOME: dir() }, warn: (text: string) => void warned.push(text) }),
      projectDir: dir(),
      state: { projectDir: dir(), dir: join(dir(), ".state") },
      options,
      project: { trusted: false, files: null },
      sessionId: "20261202-100000-2",
      mode: "chat",
      startedAt: "2026-12-02T10:00:00.000Z",
      servers: noServers(),
      remoteTools: [],
      resourceSources: [],
      serverAliases: [],
      findTool: () => undefined,
      serverInstructions: () => undefined,
      announceModel: false,
    });

  it("names the resumed session and how many messages it goes on with, leaving the conversation to the chat's view", async () => {
    const earlier = openTranscript({ projectDir: dir(), dir: join(dir(), ".state") }, "20261202-090000-1", { mode: "chat", startedAt: "2026-12-02T09:00:00.000Z", snapshots: "20261202-090000-1" });
    const said: Message[] = [
      { role: "user", content: [{ type: "text", text: "an old question" }] },
      { role: "assistant", content: [{ type: "text", text: "an old answer" }] },
      { role: "user", content: [{ type: "text", text: "fix the\nREADME" }] },
      { role: "assistant", content: [{ type: "text", text: "Reading it." }, { type: "tool_use", id: "t1", name: "read_file", input: {} }] },
      { role: "user", content: [{ type: "tool_result", toolUseId: "t1", text: "# demo", isError: false }] },
      { role: "assistant", content: [{ type: "text", text: "x".repeat(150) }] },
    ];
    for (const message of said) earlier.append({ type: "message", message });
    const setup = await setUp();
    if (setup instanceof Error) throw setup;
    expect(setup.banner.split("\n").slice(1)).toEqual(["resumed session 20261202-090000-1 (6 messages)"]);
    expect(setup.banner.split("\n")[0]).toMatch(/ · session 20261202-100000-2$/);
  });

  it("says there is no chat session to continue when there is none, and starts a new one", async () => {
    const warned: string[] = [];
    const setup = await setUp(warned);
    expect([setup instanceof Error, warned]).toEqual([false, ["no earlier chat session in this project: starting a new one (`mca sessions` lists them all)"]]);
  });
});

describe("project instructions", () => {
  let dir: TempProject;
  beforeEach(async () => {
    dir = await createTempProject();
  });
  afterEach(() => dir.remove());

  it("puts AGENTS.md (else CLAUDE.md) into the system prompt, cut when long, and ignores what is not a file", async () => {
    expect(readProjectInstructions(dir.dir)).toBeUndefined();
    // A planted FIFO would block a plain read for ever: it is passed over.
    execFileSync("mkfifo", [join(dir.dir, "CLAUDE.md")]);
    expect(readProjectInstructions(dir.dir)).toBeUndefined();
    await rm(join(dir.dir, "CLAUDE.md"));
    await writeFile(join(dir.dir, "CLAUDE.md"), "Use tabs.");
    expect(readProjectInstructions(dir.dir)).toEqual({ file: "CLAUDE.md", text: "Use tabs." });
    await mkdir(join(dir.dir, "AGENTS.md"));
    expect(readProjectInstructions(dir.dir)?.file).toBe("CLAUDE.md");
    await rm(join(dir.dir, "AGENTS.md"), { recursive: true });
    await writeFile(join(dir.dir, "AGENTS.md"), "x".repeat(PROJECT_INSTRUCTIONS_MAX_CHARS + 10));
    const long = readProjectInstructions(dir.dir);
    expect(long?.file).toBe("AGENTS.md");
    expect(long?.text.endsWith(`[cut at ${PROJECT_INSTRUCTIONS_MAX_CHARS} characters]`)).toBe(true);
    const prompt = systemPrompt("/p", { file: "AGENTS.md", text: "Run make test before you finish." });
    expect(prompt).toContain("from its AGENTS.md");
    expect(prompt.endsWith("Run make test before you finish.")).toBe(true);
  });
});

describe("the mode attached to a session", () => {
  const request: ApprovalRequest = { tool: fakeTool("write_file", "write"), args: {}, decision: { verdict: "ask", reason: "default" }, sessionAllow: null };

  it("answers the approvals and hears the events while attached; with none attached, nobody is asked and events go nowhere", async () => {
    const modes = sessionEvents((text) => text);
    const heard: string[] = [];
    expect(await modes.approve(request)).toEqual({ kind: "nobody_to_ask", reason: "no mode is running to ask in" });
    modes.emit({ type: "notice", message: "unheard" });
    const detach = modes.attach({ approve: async () => "once", emit: (event) => void heard.push(event.type) });
    expect(await modes.approve(request)).toBe("once");
    modes.emit({ type: "notice", message: "heard" });
    detach();
    modes.emit({ type: "notice", message: "unheard again" });
    expect(heard).toEqual(["notice"]);
  });

  it("refuses a second mode while one is attached, and takes one again once it detached", async () => {
    const modes = sessionEvents((text) => text);
    const detachFirst = modes.attach({ approve: async () => "deny", emit: () => undefined });
    expect(() => modes.attach({ approve: async () => "session", emit: () => undefined })).toThrow("a mode is attached to this session already");
    expect(await modes.approve(request)).toBe("deny");
    detachFirst();
    modes.attach({ approve: async () => "session", emit: () => undefined });
    expect(await modes.approve(request)).toBe("session");
    // A mode that left before cannot take the next one's place away by leaving again.
    detachFirst();
    expect(await modes.approve(request)).toBe("session");
  });
});
