// Headless mode end to end, as `claude -p` works: the real CLI as a child process in a temporary project,
// its stdin piped, against a fake Messages API on loopback (or the mock with MOCK=1); the JSON parsed and
// compared whole.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "./cli/test-support/run-cli.js";
import { startFakeMessagesApi, type FakeMessagesApi, type FakeReply } from "./model/test-support/fake-messages-api.js";
import { replyEvents, type ScriptedBlock } from "./model/test-support/sse-replies.js";

const MODEL = "claude-sonnet-5-5";
const SESSION_LINE = /^mca: session (\d{8}-\d{6}-\d+) \(mca --resume \1 continues it\)$/m;

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

/** One streamed reply of the fake API per entry, in order. */
async function replying(...replies: ReadonlyArray<readonly ScriptedBlock[]>): Promise<Record<string, string>> {
  const scripted: FakeReply[] = replies.map((blocks) => ({ kind: "stream", events: replyEvents(MODEL, blocks, blocks.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn") }));
  api = await startFakeMessagesApi(scripted);
  return { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: api.baseURL };
}

const said = (text: string): ScriptedBlock[] => [{ type: "text", chunks: [text] }];

/** The text of each user message of the fake API's nth request (tool results left out). */
function userTexts(index: number): string[] {
  const body = api?.requests[index]?.body;
  const messages = typeof body === "object" && body !== null && "messages" in body && Array.isArray(body.messages) ? body.messages : [];
  return messages.flatMap((message: unknown) => {
    if (typeof message !== "object" || message === null || !("role" in message) || message.role !== "user" || !("content" in message)) return [];
    const content: unknown = message.content;
    if (typeof content === "string") return [content];
    if (!Array.isArray(content)) return [];
    return content.flatMap((block: unknown) => (typeof block === "object" && block !== null && "type" in block && block.type === "text" && "text" in block && typeof block.text === "string" ? [block.text] : []));
  });
}

function sessionIdOf(stderr: string): string {
  const id = SESSION_LINE.exec(stderr)?.[1];
  if (id === undefined) throw new Error(`no session line in ${JSON.stringify(stderr)}`);
  return id;
}

describe("mca -p with text piped in", () => {
  it("gives the piped text to the model as the prompt's context", async () => {
    const env = await replying(said("The disk is full."));
    const run = await project.run(["-p", "explain this log"], "ERROR: disk full\n", env);
    expect([run.code, run.stdout, userTexts(0)]).toEqual([0, "The disk is full.\n", ["explain this log\n\n<stdin>\nERROR: disk full\n</stdin>"]]);
  });

  it("takes the piped text as the prompt when -p has none", async () => {
    const env = await replying(said("4"));
    const run = await project.run(["-p", "--output-format", "json"], "what is 2+2?\n", env);
    expect([run.code, userTexts(0)]).toEqual([0, ["what is 2+2?"]]);
  });

  it("exits 2 when -p has no prompt and nothing is piped in", async () => {
    const run = await project.run(["-p"], "");
    expect(run).toEqual({ code: 2, stdout: "", stderr: "mca: -p has no prompt: give it after -p, or pipe it in (echo 'explain this' | mca -p)\n" });
  });

  it("exits 2 when more text is piped in than a model could take, naming the limit", async () => {
    const run = await project.run(["-p", "explain"], "a".repeat(4 * 1024 * 1024 + 1));
    expect(run).toEqual({ code: 2, stdout: "", stderr: "mca: the text piped in is over 4 MB, more than a model's context can take: pipe in less (e.g. | tail -n 2000)\n" });
  });

  it("still prints its one result object for --output-format json when the run fails before it begins", async () => {
    const noKey = await project.run(["-p", "hello", "--output-format", "json"], "", {});
    const nothing = await project.run(["-p", "--output-format", "json"], "");
    const failure = (stdout: string) => {
      const { type, subtype, is_error, errors } = JSON.parse(stdout) as { type: string; subtype: string; is_error: boolean; errors: string[] };
      return { type, subtype, is_error, errors };
    };
    expect([noKey.code, failure(noKey.stdout), nothing.code, failure(nothing.stdout)]).toEqual([
      2,
      { type: "result", subtype: "error_during_execution", is_error: true, errors: [expect.stringContaining("ANTHROPIC_API_KEY is not set")] },
      2,
      { type: "result", subtype: "error_during_execution", is_error: true, errors: [expect.stringContaining("-p has no prompt")] },
    ]);
  });

  it("runs `mca \"<prompt>\"` as -p when there is no terminal", async () => {
    const run = await project.run(["what", "is", "here?"], "");
    expect([run.code, run.stdout.split("\n")[0]]).toEqual([0, 'You asked: "what is here?". I am the offline mock model: I do not answer questions, but I can call tools. For example:']);
  });
});

describe("mca -p --output-format json", () => {
  it("prints one result object: the final message, the session, the replies, the tokens and the cost", async () => {
    const env = await replying(
      [...said("first."), { type: "tool_use", id: "t1", name: "read_file", jsonChunks: ['{"path":"README.md"}'] }],
      said("## Summary\nA demo."),
    );
    const run = await project.run(["-p", "summarise", "--output-format", "json"], "", env);
    const result: unknown = JSON.parse(run.stdout);
    // Two requests of 25 tokens in and 12 out, at $3 and $15 per million.
    const cost = (2 * 25 * 3 + 2 * 12 * 15) / 1_000_000;
    expect([run.code, result]).toEqual([
      0,
      {
        type: "result",
        subtype: "success",
        is_error: false,
        result: "## Summary\nA demo.",
        session_id: sessionIdOf(run.stderr),
        num_turns: 2,
        duration_ms: expect.any(Number),
        duration_api_ms: expect.any(Number),
        usage: { input_tokens: 50, output_tokens: 24, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, inputTokens: 50, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 24 },
        permission_denials: [],
        total_cost_usd: expect.closeTo(cost, 9),
        toolCalls: [
          {
            tool: "read_file",
            args: { path: "README.md" },
            approval: { verdict: "allow", reason: null, answer: null },
            isError: false,
            result: expect.stringContaining("hello from the readme"),
            truncated: false,
            images: [],
          },
        ],
        errors: [],
        turnEnd: "done",
        text: "## Summary\nA demo.",
        costUsd: expect.closeTo(cost, 9),
      },
    ]);
  });

  it("continues a session with --resume <id>: the model is sent the earlier exchange", async () => {
    const env = await replying(said("Noted: blue."), said("Blue."));
    const first = await project.run(["-p", "my colour is blue"], "", env);
    const firstId = sessionIdOf(first.stderr);
    const second = await project.run(["-p", "what is my colour?", "--resume", firstId, "--output-format", "json"], "", env);
    const result: unknown = JSON.parse(second.stdout);
    expect([second.code, userTexts(1), result]).toEqual([
      0,
      ["my colour is blue", "what is my colour?"],
      expect.objectContaining({ result: "Blue.", num_turns: 1, session_id: sessionIdOf(second.stderr) }),
    ]);
  });
});

describe("mca -p --max-budget-usd", () => {
  /** A reply that calls a tool, so that the prompt needs a second request, then the answer it would get. */
  const twoRequests = () =>
    replying([...said("first."), { type: "tool_use", id: "t1", name: "read_file", jsonChunks: ['{"path":"README.md"}'] }], said("never asked for"));
  // One request costs (25 × $3 + 12 × $15) per million tokens, $0.000255: over a budget of $0.0002.
  const overBudget = ["-p", "summarise", "--max-budget-usd", "0.0002"];

  it("stops the prompt once its requests cost more than the budget, before the next request (json: error_max_budget_usd)", async () => {
    const run = await project.run([...overBudget, "--output-format", "json"], "", await twoRequests());
    const result: unknown = JSON.parse(run.stdout);
    expect([run.code, api?.requests.length, result]).toEqual([
      1,
      1,
      expect.objectContaining({ subtype: "error_max_budget_usd", is_error: true, num_turns: 1, total_cost_usd: expect.closeTo(0.000255, 9) }),
    ]);
  });

  it("says in text which budget stopped it and how to go on", async () => {
    const run = await project.run(overBudget, "", await twoRequests());
    expect([run.code, api?.requests.length]).toEqual([1, 1]);
    expect(run.stderr).toContain('Turn stopped: this prompt spent about $0.00, its budget is $0.0002 (--max-budget-usd, "maxBudgetUsd"); send a message to continue, or raise the budget.');
  });
});

describe("mca -p --output-format stream-json", () => {
  it("starts with the init event and ends with the result object", async () => {
    const env = await replying(said("Hi."));
    const run = await project.run(["-p", "hi", "--output-format", "stream-json"], "", env);
    const lines = run.stdout.trimEnd().split("\n").map((line): unknown => JSON.parse(line));
    const id = sessionIdOf(run.stderr);
    expect([run.code, lines[0], lines.at(-1)]).toEqual([
      0,
      {
        type: "system",
        subtype: "init",
        session_id: id,
        model: MODEL,
        cwd: project.dir,
        tools: expect.arrayContaining(["read_file", "write_file", "edit_file", "list_dir", "search", "bash"]),
        mcp_servers: [],
        permissionMode: "default",
      },
      expect.objectContaining({ type: "result", subtype: "success", is_error: false, result: "Hi.", session_id: id, num_turns: 1 }),
    ]);
    expect(lines.slice(1, -1)).toEqual([
      {
        type: "assistant",
        message: {
          id: expect.any(String),
          type: "message",
          role: "assistant",
          model: MODEL,
          content: [{ type: "text", text: "Hi." }],
          stop_reason: "end_turn",
          stop_sequence: null,
          usage: { input_tokens: 25, output_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
        parent_tool_use_id: null,
        session_id: id,
      },
    ]);
  });
});
