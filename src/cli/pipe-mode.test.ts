import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../kernel/index.js";
import type { OutputFormat } from "./headless-output.js";
import { runPipeMode, type HeadlessFlags } from "./pipe-mode.js";
import type { SessionIo } from "./session.js";
import { createFakeAgent, fakeTool } from "./test-support/fake-agent.js";
import { fakeSession } from "./test-support/fake-session.js";

/** The flags of a run given only --output-format (and --output-schema). */
function flagsOf(outputFormat: OutputFormat, outputSchemaFile?: string): HeadlessFlags {
  return { outputFormat, includePartialMessages: false, mcaEvents: false, outputSchemaFile, permissionMode: "default" };
}

async function* linesOf(...lines: string[]): AsyncIterable<string> {
  yield* lines;
}

const TOKENS = { inputTokens: 1000, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 100 };

/** A prompt's events: its words, the tokens of its one request, the reply entering the history, its end. */
const SAID = (text: string): AgentEvent[] => [
  { type: "message", message: { role: "user", content: [{ type: "text", text }] } },
  { type: "text", delta: `you said ${text}` },
  { type: "usage", model: "claude-sonnet-5-5", usage: TOKENS },
  { type: "message", message: { role: "assistant", content: [{ type: "text", text: `you said ${text}` }] }, model: "claude-sonnet-5-5", stopReason: "end_turn", usage: TOKENS },
  { type: "turn_end", reason: "done" },
];

function run(lines: AsyncIterable<string>, signal = new AbortController().signal, outputFormat: OutputFormat = "text") {
  const written: string[] = [];
  const received: string[] = [];
  // Each reading of the clock is 7 ms after the one before.
  let clockMs = 1000;
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
  const session = fakeSession({
    agent: makeAgent,
    model: { answering: { name: "claude-sonnet-5-5", complete: () => Promise.reject(new Error("unused")) } },
    projectDir: "/p",
    runtime: {
      writeOut: (text) => void written.push(`out:${text}`),
      writeErr: (text) => void written.push(`err:${text}`),
      interrupt: signal,
      now: () => (clockMs += 7),
    },
  });
  const status = runPipeMode({ ...session, id: "20261202-100000-1" }, lines, flagsOf(outputFormat));
  return { status, written, received, session };
}

describe("runPipeMode", () => {
  it("runs prompts and commands in order and exits 0 when all succeed", async () => {
    const { status, written } = run(linesOf("hello", '/call write_file {"a":1}', ""));
    expect(await status).toBe(0);
    expect(written).toEqual(["out:you said hello\n", 'out:{"a":1}\n']);
  });

  it("goes on after a failed line and exits 1 at the end", async () => {
    const { status, written } = run(linesOf("/nope", "/mcp"));
    expect(await status).toBe(1);
    expect(written).toEqual(["err:unknown command /nope (try /help)\n", "out:no MCP servers configured\n"]);
  });

  it("leaves the session once its lines are run, so that another mode can attach", async () => {
    const { status, session } = run(linesOf("hello"));
    expect(() => session.attach({ approve: async () => "once", emit: () => undefined })).toThrow("a mode is attached to this session already");
    expect(await status).toBe(0);
    expect(() => session.attach({ approve: async () => "once", emit: () => undefined })).not.toThrow();
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
      "out:you said hello\n",
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
  const USAGE = { input_tokens: 2000, output_tokens: 200, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, inputTokens: 2000, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 200 };
  /** Each prompt's request is timed from its message to the reply: one clock reading apart, 7 ms. */
  const RESULT = {
    type: "result",
    subtype: "success",
    is_error: false,
    duration_ms: 7 * 9,
    duration_api_ms: 14,
    num_turns: 2,
    result: "you said again",
    session_id: "20261202-100000-1",
    total_cost_usd: 0.009,
    usage: USAGE,
    permission_denials: [],
    toolCalls: [],
    errors: [],
    turnEnd: "done",
    text: "you said again",
    costUsd: 0.009,
  };

  it("json writes one object at the end, what a command prints going to stderr", async () => {
    const { status, written } = run(linesOf("hello", "/mcp", "again"), undefined, "json");
    expect(await status).toBe(0);
    expect(written.slice(0, -1)).toEqual(["err:no MCP servers configured\n"]);
    const json = written.at(-1)?.replace(/^out:/, "") ?? "";
    expect(JSON.parse(json)).toEqual({ ...RESULT, duration_ms: 7 * 5 });
  });

  it("stream-json starts with the init line, writes each model message as it enters the history, and ends with the result", async () => {
    const { status, written } = run(linesOf("hello", "again"), undefined, "stream-json");
    expect(await status).toBe(0);
    const lines = written.map((line): unknown => JSON.parse(line.replace(/^out:/, "")));
    const reply = (n: number, text: string) => ({
      type: "assistant",
      message: {
        id: `msg_mca_20261202-100000-1_${n}`,
        type: "message",
        role: "assistant",
        model: "claude-sonnet-5-5",
        content: [{ type: "text", text: `you said ${text}` }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 1000, output_tokens: 100, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
      parent_tool_use_id: null,
      session_id: "20261202-100000-1",
    });
    expect(lines).toEqual([
      { type: "system", subtype: "init", session_id: "20261202-100000-1", cwd: "/p", model: "claude-sonnet-5-5", tools: ["write_file"], mcp_servers: [], permissionMode: "default" },
      reply(1, "hello"),
      reply(2, "again"),
      { ...RESULT, duration_ms: 7 * 5 },
    ]);
  });

  it("marks the result as an error when a line failed", async () => {
    const { status, written } = run(linesOf("hello", "/nope"), undefined, "json");
    expect(await status).toBe(1);
    expect(JSON.parse(written.at(-1)?.replace(/^out:/, "") ?? "")).toMatchObject({ subtype: "error_during_execution", is_error: true });
  });
});

describe("runPipeMode --output-schema", () => {
  const SCHEMA = { type: "object", properties: { answer: { type: "integer" } }, required: ["answer"], additionalProperties: false };

  /** Pipe mode answered by a model whose replies are `replies` in order, with --output-schema on a file holding `schema`. */
  async function withSchema(schema: unknown, replies: readonly string[], outputFormat: OutputFormat = "json") {
    const dir = await mkdtemp(join(tmpdir(), "mca-schema-"));
    const file = join(dir, "schema.json");
    await writeFile(file, typeof schema === "string" ? schema : JSON.stringify(schema));
    const written: string[] = [];
    const received: string[] = [];
    const queue = [...replies];
    const makeAgent = (io: SessionIo) => {
      const agent = createFakeAgent({
        promptEvents: (): AgentEvent[] => {
          const text = queue.shift() ?? "(no more replies)";
          return [
            { type: "message", message: { role: "assistant", content: [{ type: "text", text }] }, model: "m", stopReason: "end_turn" },
            { type: "turn_end", reason: "done" },
          ];
        },
      }, io.emit);
      return { ...agent, prompt: async (text: string, abort: AbortSignal) => { received.push(text); return agent.prompt(text, abort); } };
    };
    try {
      const session = fakeSession({ agent: makeAgent, runtime: { writeOut: (text) => void written.push(text), writeErr: () => undefined, now: () => 0 } });
      const status = await runPipeMode(session, linesOf("what is 2+2?"), flagsOf(outputFormat, file));
      const result: unknown = outputFormat === "text" ? written.join("") : JSON.parse(written.at(-1) ?? "");
      return { status, result, received };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  it("tells the model the schema with the prompt, and gives the valid final message parsed as structured_output", async () => {
    const { status, result, received } = await withSchema(SCHEMA, ['{"answer": 4}']);
    expect([status, received.length, received[0]?.startsWith("what is 2+2?\n\n"), received[0]?.includes(JSON.stringify(SCHEMA)), result]).toEqual([
      0,
      1,
      true,
      true,
      expect.objectContaining({ subtype: "success", result: '{"answer": 4}', structured_output: { answer: 4 } }),
    ]);
  });

  it("asks once more, naming what was wrong, when the final message is not valid", async () => {
    const { status, result, received } = await withSchema(SCHEMA, ['{"answer": "four"}', '```json\n{"answer": 4}\n```']);
    expect([status, received[1]?.startsWith("Your final message is not valid for the output schema: the final message does not match the schema: /answer must be integer."), result]).toEqual([
      0,
      true,
      expect.objectContaining({ subtype: "success", structured_output: { answer: 4 } }),
    ]);
  });

  it("fails the run with error_max_structured_output_retries when the answer is still not valid, and exits 1", async () => {
    const { status, result, received } = await withSchema(SCHEMA, ["four", "still four"]);
    expect([status, received.length, result]).toEqual([
      1,
      2,
      expect.objectContaining({ subtype: "error_max_structured_output_retries", is_error: true, result: "still four", errors: ["the final message is not JSON"] }),
    ]);
    expect(result).not.toHaveProperty("structured_output");
  });

  it("prints only the run's last final message in text, not the answer it asked again for", async () => {
    const { status, result } = await withSchema(SCHEMA, ["four", '{"answer":4}'], "text");
    expect([status, result]).toEqual([0, '{"answer":4}\n']);
  });

  it("exits 2 before any prompt when the file is not a usable schema, naming it", async () => {
    const { status, result, received } = await withSchema('{"type": "nonsense"}', []);
    expect([status, received, result]).toEqual([2, [], expect.objectContaining({ subtype: "error_during_execution", errors: [expect.stringMatching(/^--output-schema .*schema\.json: not a usable JSON Schema/)] })]);
  });
});
