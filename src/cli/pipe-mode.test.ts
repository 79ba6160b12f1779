import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../kernel/index.js";
import type { OutputFormat } from "./headless-output.js";
import { runPipeMode } from "./pipe-mode.js";
import type { SessionIo } from "./session.js";
import { createFakeAgent, fakeTool } from "./test-support/fake-agent.js";

async function* linesOf(...lines: string[]): AsyncIterable<string> {
  yield* lines;
}

/** A prompt's events: its words, the tokens of its one request, its end. */
const SAID = (text: string): AgentEvent[] => [
  { type: "text", delta: `you said ${text}` },
  { type: "usage", model: "claude-sonnet-5-5", usage: { inputTokens: 1000, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 100 } },
  { type: "turn_end", reason: "done" },
];

function run(lines: AsyncIterable<string>, signal = new AbortController().signal, outputFormat: OutputFormat = "text") {
  const written: string[] = [];
  const received: string[] = [];
  // The run starts at 1000 ms and ends 42 ms later.
  const clock = [1000, 1042];
  const makeAgent = (io: SessionIo) => {
    const agent = createFakeAgent(
      {
        tools: [fakeTool("write_file", "write")],
        promptEvents: SAID,
        contextUse: { tokens: 1000, estimated: false },
        callReport: (name, args) => ({ tool: name, isError: false, text: JSON.stringify(args), truncated: false, decision: { verdict: "allow", reason: "r" } }),
      },
      io.emit,
    );
    return { ...agent, prompt: async (text: string, abort: AbortSignal) => { received.push(text); return agent.prompt(text, abort); } };
  };
  const status = runPipeMode({
    lines,
    makeAgent,
    servers: () => [],
    out: (text) => written.push(`out:${text}`),
    err: (text) => written.push(`err:${text}`),
    signal,
    outputFormat,
    sessionId: "20261202-100000-1",
    modelName: () => "claude-sonnet-5-5",
    projectDir: "/p",
    nowMs: () => clock.shift() ?? Number.NaN,
  });
  return { status, written, received };
}

describe("runPipeMode", () => {
  it("runs prompts and commands in order and exits 0 when all succeed", async () => {
    const { status, written } = run(linesOf("hello", '/call write_file {"a":1}', ""));
    expect(await status).toBe(0);
    expect(written).toEqual(["out:you said hello", "out:\n", 'out:{"a":1}\n']);
  });

  it("goes on after a failed line and exits 1 at the end", async () => {
    const { status, written } = run(linesOf("/nope", "/mcp"));
    expect(await status).toBe(1);
    expect(written).toEqual(["err:unknown command /nope (try /help)\n", "out:no MCP servers configured\n"]);
  });

  it("stops at /exit without reading further lines", async () => {
    const { status, received } = run(linesOf("first", "/exit", "never"));
    expect(await status).toBe(0);
    expect(received).toEqual(["first"]);
  });

  it("stops and exits 130 once interrupted", async () => {
    const controller = new AbortController();
    async function* interrupted(): AsyncIterable<string> {
      yield "first";
      controller.abort();
      yield "second";
    }
    const { status, received } = run(interrupted(), controller.signal);
    expect(await status).toBe(130);
    expect(received).toEqual(["first"]);
  });

  it("prints for /status and /cost what the chat prints", async () => {
    const { status, written } = run(linesOf("hello", "/status", "/cost"));
    expect(await status).toBe(0);
    expect(written).toEqual([
      "out:you said hello",
      "out:\n",
      "out:model: claude-sonnet-5-5\n",
      "out:context: 1,000 tokens at the last request (of 200,000)\n",
      "out:MCP servers: none\n",
      "out:session: 20261202-100000-1 · project /p\n",
      "out:1 model request: 1,000 tokens in (0 read from cache, 0 written) · 100 out\n",
      "out:estimated cost: ~$0.0045 (list prices taken 2026-12-02)\n",
    ]);
  });
});

describe("runPipeMode --output-format", () => {
  const RESULT = {
    type: "result",
    subtype: "success",
    is_error: false,
    result: "you said hello\n\nyou said again",
    session_id: "20261202-100000-1",
    // The fake agent keeps no conversation: the real one's replies are counted end to end.
    num_turns: 0,
    duration_ms: 42,
    usage: { inputTokens: 2000, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 200 },
    total_cost_usd: 0.009,
    toolCalls: [],
    errors: [],
    turnEnd: "done",
    text: "you said hello\n\nyou said again",
    costUsd: 0.009,
  };

  it("json writes one object at the end, what a command prints going to stderr", async () => {
    const { status, written } = run(linesOf("hello", "/mcp", "again"), undefined, "json");
    expect(await status).toBe(0);
    expect(written.slice(0, -1)).toEqual(["err:no MCP servers configured\n"]);
    const json = written.at(-1)?.replace(/^out:/, "") ?? "";
    expect(JSON.parse(json)).toEqual(RESULT);
  });

  it("stream-json starts with the init event, writes each event as it happens, and ends with the same result", async () => {
    const { status, written } = run(linesOf("hello", "again"), undefined, "stream-json");
    expect(await status).toBe(0);
    const events = written.map((line): unknown => JSON.parse(line.replace(/^out:/, "")));
    expect(events).toEqual([
      { type: "system", subtype: "init", session_id: "20261202-100000-1", model: "claude-sonnet-5-5", cwd: "/p", tools: ["write_file"], mcp_servers: [] },
      ...SAID("hello"),
      ...SAID("again"),
      RESULT,
    ]);
  });

  it("marks the result as an error when a line failed", async () => {
    const { status, written } = run(linesOf("hello", "/nope"), undefined, "json");
    expect(await status).toBe(1);
    expect(JSON.parse(written.at(-1)?.replace(/^out:/, "") ?? "")).toMatchObject({ subtype: "error_during_execution", is_error: true });
  });
});
