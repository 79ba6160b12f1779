// Scripts written for `claude -p`, run against mca unchanged: the parsers of cli/test-support/claude-consumer.ts
// are typed from Claude Code's documented message schema, and read mca's text, json and stream-json output
// — with tool calls, a denied call, the turn limit and a model error. The real CLI runs as a child process,
// answered by the scripted model (MCA_MOCK_SCRIPT) or the fake Messages API on loopback.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseLine, parseResult, toolRounds, type SDKMessage } from "./cli/test-support/claude-consumer.js";
import { createTempProject, type TempProject } from "./cli/test-support/run-cli.js";
import { startFakeMessagesApi, type FakeMessagesApi } from "./model/test-support/fake-messages-api.js";
import { replyEvents } from "./model/test-support/sse-replies.js";

const SESSION_LINE = /^mca: session (\S+) \(/m;

let project: TempProject;
let api: FakeMessagesApi | undefined;

beforeEach(async () => {
  project = await createTempProject();
});

afterEach(async () => {
  await api?.close();
  api = undefined;
  await project.remove();
});

/** Runs `mca -p <prompt> …args` answered by these scripted turns (a string: a reply; an array: tool calls). */
async function scripted(turns: readonly unknown[], prompt: string, ...args: string[]) {
  await writeFile(join(project.dir, "script.json"), JSON.stringify(turns));
  const run = await project.run(["-p", prompt, ...args], "", { MCA_MOCK_SCRIPT: "script.json" });
  return { ...run, sessionId: SESSION_LINE.exec(run.stderr)?.[1] ?? "no session line" };
}

const READ_THEN_ANSWER = [[{ name: "read_file", input: { path: "README.md" } }], "It is a demo."];
const README_RESULT = expect.stringContaining("hello from the readme");
const NO_TOKENS = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

function streamOf(stdout: string): SDKMessage[] {
  return stdout.trimEnd().split("\n").map(parseLine);
}

describe("a claude -p consumer reading mca's text output", () => {
  it("gets the final message alone, not the steps before it", async () => {
    const run = await scripted([[{ name: "read_file", input: { path: "README.md" } }], "Summary: a demo."], "summarise");
    expect([run.code, run.stdout]).toEqual([0, "Summary: a demo.\n"]);
  });
});

describe("a claude -p consumer reading mca's json output", () => {
  it("reads the result, the session, the turns, the tokens and the cost", async () => {
    const run = await scripted(READ_THEN_ANSWER, "what is this?", "--output-format", "json");
    expect([run.code, parseResult(JSON.parse(run.stdout))]).toEqual([
      0,
      {
        type: "result",
        subtype: "success",
        is_error: false,
        duration_ms: expect.any(Number),
        duration_api_ms: expect.any(Number),
        num_turns: 2,
        result: "It is a demo.",
        session_id: run.sessionId,
        total_cost_usd: 0,
        usage: NO_TOKENS,
        permission_denials: [],
      },
    ]);
  });

  it("finds the call a rule refused in permission_denials, with its name, id and input", async () => {
    const run = await scripted([[{ name: "bash", input: { command: "git push" } }], "I could not push."], "push it", "--output-format", "json", "--deny", "bash(git push*)");
    const result = parseResult(JSON.parse(run.stdout));
    expect([run.code, result.subtype, result.permission_denials]).toEqual([0, "success", [{ tool_name: "bash", tool_use_id: "scripted_1", tool_input: { command: "git push" } }]]);
  });

  it("finds a call nobody could approve without a terminal in permission_denials too", async () => {
    const run = await scripted([[{ name: "write_file", input: { path: "notes.md", content: "x" } }], "Not written."], "write it", "--output-format", "json");
    const result = parseResult(JSON.parse(run.stdout));
    expect(result.permission_denials).toEqual([{ tool_name: "write_file", tool_use_id: "scripted_1", tool_input: { path: "notes.md", content: "x" } }]);
  });

  it("tells a run stopped by --max-turns from a success, and exits 1", async () => {
    const run = await scripted(READ_THEN_ANSWER, "what is this?", "--output-format", "json", "--max-turns", "1");
    const result = parseResult(JSON.parse(run.stdout));
    expect([run.code, result.subtype, result.is_error, result.num_turns]).toEqual([1, "error_max_turns", true, 1]);
  });

  it("reads a model error as error_during_execution, and exits 1", async () => {
    api = await startFakeMessagesApi([{ kind: "error", status: 400, body: { type: "error", error: { type: "invalid_request_error", message: "prompt is too long" } } }]);
    const run = await project.run(["-p", "hi", "--output-format", "json"], "", { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: api.baseURL });
    const result = parseResult(JSON.parse(run.stdout));
    expect([run.code, result.subtype, result.is_error, result.num_turns, result.usage]).toEqual([1, "error_during_execution", true, 0, NO_TOKENS]);
  });
});

describe("a claude -p consumer reading mca's stream-json output", () => {
  it("finds the init line, each tool_use with its tool_result, the assistant's words and the result", async () => {
    const run = await scripted(READ_THEN_ANSWER, "what is this?", "--output-format", "stream-json");
    const messages = streamOf(run.stdout);
    expect(run.code).toBe(0);
    expect(messages.map((message) => message.type)).toEqual(["system", "assistant", "user", "assistant", "result"]);
    expect(messages[0]).toEqual({
      type: "system",
      subtype: "init",
      session_id: run.sessionId,
      cwd: project.dir,
      model: "scripted",
      tools: expect.arrayContaining(["read_file", "write_file", "bash"]),
      mcp_servers: [],
      permissionMode: "default",
    });
    expect(toolRounds(messages)).toEqual([{ name: "read_file", input: { path: "README.md" }, result: README_RESULT, is_error: false }]);
    expect(messages[3]).toEqual({
      type: "assistant",
      message: { id: expect.any(String), role: "assistant", model: "scripted", content: [{ type: "text", text: "It is a demo." }], stop_reason: "end_turn", usage: NO_TOKENS },
      parent_tool_use_id: null,
      session_id: run.sessionId,
    });
    expect(messages.at(-1)).toMatchObject({ type: "result", subtype: "success", result: "It is a demo.", num_turns: 2, session_id: run.sessionId });
  });

  it("sees a denied call's tool_result marked as an error, and the denial in the result", async () => {
    const run = await scripted([[{ name: "bash", input: { command: "git push" } }], "I could not push."], "push it", "--output-format", "stream-json", "--deny", "bash(git push*)");
    const messages = streamOf(run.stdout);
    const result = messages.at(-1);
    expect(toolRounds(messages)).toEqual([{ name: "bash", input: { command: "git push" }, result: expect.stringContaining("Denied"), is_error: true }]);
    expect(result?.type === "result" ? result.permission_denials : null).toEqual([{ tool_name: "bash", tool_use_id: "scripted_1", tool_input: { command: "git push" } }]);
  });

  it("reads the model's messages from the Anthropic API with their id, model, stop reason and tokens", async () => {
    const model = "claude-sonnet-5-5";
    api = await startFakeMessagesApi([{ kind: "stream", events: replyEvents(model, [{ type: "text", chunks: ["Hel", "lo."] }], "end_turn") }]);
    const run = await project.run(["-p", "hi", "--output-format", "stream-json", "--model", model], "", { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: api.baseURL });
    const messages = streamOf(run.stdout);
    const usage = { input_tokens: 25, output_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    expect(messages.slice(1)).toEqual([
      { type: "assistant", message: { id: expect.any(String), role: "assistant", model, content: [{ type: "text", text: "Hello." }], stop_reason: "end_turn", usage }, parent_tool_use_id: null, session_id: expect.any(String) },
      {
        type: "result",
        subtype: "success",
        is_error: false,
        duration_ms: expect.any(Number),
        duration_api_ms: expect.any(Number),
        num_turns: 1,
        result: "Hello.",
        session_id: expect.any(String),
        total_cost_usd: expect.closeTo((25 * 3 + 12 * 15) / 1_000_000, 9),
        usage,
        permission_denials: [],
      },
    ]);
  });
});

describe("mca -p --output-schema, read as codex exec's", () => {
  it("asks again once when the answer is not valid, and gives the valid one parsed as structured_output", async () => {
    const schema = { type: "object", properties: { answer: { type: "integer" } }, required: ["answer"] };
    await writeFile(join(project.dir, "schema.json"), JSON.stringify(schema));
    const run = await scripted(["It is 4.", '{"answer": 4}'], "what is 2+2?", "--output-format", "json", "--output-schema", "schema.json");
    const result: unknown = JSON.parse(run.stdout);
    expect([run.code, parseResult(result).num_turns, result]).toEqual([0, 2, expect.objectContaining({ subtype: "success", result: '{"answer": 4}', structured_output: { answer: 4 } })]);
  });
});

describe("a claude -p consumer reading --include-partial-messages", () => {
  it("gets the stream's events before each whole message", async () => {
    const run = await scripted(["Hello."], "hi", "--output-format", "stream-json", "--include-partial-messages");
    const kinds = streamOf(run.stdout).map((message) => (message.type === "stream_event" ? message.event.type : message.type));
    expect([run.code, kinds]).toEqual([
      0,
      ["system", "message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop", "assistant", "result"],
    ]);
  });
});
