// `/context` and `mca context --json` through the real CLI, with the notes demo server mounted over stdio,
// the project's AGENTS.md, tool search past a tiny threshold, and the fake Messages API's token count.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONTEXT_WINDOW_TOKENS } from "../kernel/index.js";
import { startFakeMessagesApi } from "../model/test-support/fake-messages-api.js";
import type { ContextReport } from "./context-report.js";
import { BUILT_NOTES_SERVER, createTempProject, type TempProject } from "./test-support/run-cli.js";

const CONFIG = { mcpServers: { notes: { command: process.execPath, args: [BUILT_NOTES_SERVER] } } };
const AGENTS_MD = `# House rules\n${"Keep every change small and tested.\n".repeat(20)}`;

let project: TempProject;

beforeEach(async () => {
  project = await createTempProject();
  await writeFile(join(project.dir, "servers.json"), JSON.stringify(CONFIG));
  await writeFile(join(project.dir, "AGENTS.md"), AGENTS_MD);
});

afterEach(async () => {
  await project.remove();
});

async function contextJson(env: Record<string, string> = { MOCK: "1" }): Promise<ContextReport> {
  const run = await project.run(["context", "--json", "--mcp-config", "servers.json"], "", env);
  expect([run.code, run.stderr]).toEqual([0, expect.not.stringContaining("error")]);
  return JSON.parse(run.stdout);
}

/** The sections' sum, which the estimate's total must be. */
function sectionSum(report: ContextReport): number {
  const servers = report.servers.reduce((sum, server) => sum + server.tokens, 0);
  return report.systemPrompt.tokens + report.projectInstructions.tokens + report.localTools.tokens + report.toolSearch.tokens + servers + report.messages.tokens;
}

describe("mca context", () => {
  it("reports each section of the next request, the AGENTS.md part apart, adding up to the total", async () => {
    const report = await contextJson();
    expect(report).toEqual({
      counted: "estimate",
      windowTokens: CONTEXT_WINDOW_TOKENS,
      totalTokens: sectionSum(report),
      freeTokens: CONTEXT_WINDOW_TOKENS - sectionSum(report),
      estimatedTokens: sectionSum(report),
      systemPrompt: { tokens: expect.any(Number) },
      // The instructions' header line and the file itself, at 4 characters a token.
      projectInstructions: { file: "AGENTS.md", tokens: expect.any(Number) },
      localTools: { count: 6, tokens: expect.any(Number) },
      toolSearch: { tokens: 0 },
      servers: [{ alias: "notes", loaded: 3, deferred: 0, tokens: expect.any(Number) }],
      messages: { count: 0, tokens: 0 },
    });
    expect(report.projectInstructions.tokens).toBeGreaterThan(AGENTS_MD.length / 4);
    expect(report.projectInstructions.tokens).toBeLessThan(AGENTS_MD.length / 4 + 60);
    expect(report.servers[0]?.tokens).toBeGreaterThan(0);
  });

  it("counts a server's tools as deferred once past a tiny tool-search threshold, the list counted under tool search", async () => {
    await mkdir(join(project.home, ".config", "mca"), { recursive: true });
    await writeFile(join(project.home, ".config", "mca", "settings.json"), '{"toolSearch":"auto:0.01"}');
    const report = await contextJson();
    expect(report.servers).toEqual([{ alias: "notes", loaded: 0, deferred: 3, tokens: 0 }]);
    expect(report.toolSearch.tokens).toBeGreaterThan(0);
    expect(report.totalTokens).toBe(sectionSum(report));
  });

  it("takes the total from the API's count when a key is in use, and says so", async () => {
    const api = await startFakeMessagesApi([{ kind: "json", body: { input_tokens: 4321 } }]);
    try {
      const report = await contextJson({ ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: api.baseURL });
      expect([report.counted, report.totalTokens, report.freeTokens, report.estimatedTokens]).toEqual(["api", 4321, CONTEXT_WINDOW_TOKENS - 4321, sectionSum(report)]);
      const [request] = api.requests;
      expect(request?.path).toBe("/v1/messages/count_tokens");
      expect(request?.body).toEqual({
        model: "claude-sonnet-5-5",
        system: [{ type: "text", text: expect.stringContaining("House rules"), cache_control: { type: "ephemeral" } }],
        messages: [{ role: "user", content: "." }],
        tools: expect.arrayContaining([expect.objectContaining({ name: "mcp__notes__read_note" })]),
      });
    } finally {
      await api.close();
    }
  });

  it("falls back to the estimate, and says so, when the API's count fails", async () => {
    const refusal = { kind: "error" as const, status: 400, body: { type: "error", error: { type: "invalid_request_error", message: "no counting today" } } };
    const api = await startFakeMessagesApi([refusal, refusal, refusal]);
    try {
      const report = await contextJson({ ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: api.baseURL });
      expect([report.counted, report.totalTokens]).toEqual(["estimate", sectionSum(report)]);
    } finally {
      await api.close();
    }
  });

  it("/context in pipe mode shows the sections after a turn, with a bar of the window", async () => {
    const run = await project.run(["--mcp-config", "servers.json"], "hello\n/context\n");
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    const start = lines.findIndex((line) => line.startsWith("next request: "));
    expect(lines.slice(start, start + 9).map((line) => line.replace(/\d[\d,]*/gu, "N"))).toEqual([
      "next request: N of N tokens (N %), estimated at N characters a token",
      `[█${"░".repeat(39)}]`,
      "  system prompt                     ≈N",
      "  project instructions (AGENTS.md)  ≈N",
      "  local tools (N)                   ≈N",
      "  notes: N loaded, N deferred       ≈N",
      "  messages (N)                      ≈N",
      "  free                              N",
      "",
    ]);
    expect(lines[start + 6]).toMatch(/^ {2}messages \(2\) +≈[1-9]/u);
  });
});
