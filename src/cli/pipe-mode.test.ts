import { describe, expect, it } from "vitest";
import { runPipeMode } from "./pipe-mode.js";
import type { SessionIo } from "./session.js";
import { createFakeAgent, fakeTool } from "./test-support/fake-agent.js";

async function* linesOf(...lines: string[]): AsyncIterable<string> {
  yield* lines;
}

function run(lines: AsyncIterable<string>, signal = new AbortController().signal) {
  const written: string[] = [];
  const received: string[] = [];
  const makeAgent = (io: SessionIo) => {
    const agent = createFakeAgent(
      {
        tools: [fakeTool("write_file", "write")],
        promptEvents: (text) => [{ type: "text", delta: `you said ${text}` }, { type: "turn_end", reason: "done" }],
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
});
