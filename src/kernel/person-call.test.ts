import { describe, expect, it } from "vitest";
import { createAgent, type CallReport } from "./agent.js";
import { parseRule, type Rule } from "./rule.js";
import { answering, eventLog, fakeTool, memorySnapshots, memoryTranscript, scriptedModel, streamed, text } from "./test-support/fakes.js";

const shell = fakeTool({
  name: "bash",
  kind: "exec",
  inputSchema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
  run: async (args) => ({ text: `ran ${String(args.command)}`, isError: false }),
});

function setup(rules: string[] = []) {
  const { events, emit } = eventLog();
  const asked = answering();
  const transcript = memoryTranscript();
  const parsed = rules.map((rule): Rule => {
    const parsedRule = parseRule(rule, "deny", "--deny");
    if (parsedRule instanceof Error) throw parsedRule;
    return parsedRule;
  });
  const agent = createAgent({
    model: scriptedModel([streamed(text("ok"))]),
    tools: [shell],
    rules: parsed,
    system: "you are a test",
    approve: asked.approve,
    snapshots: memorySnapshots(),
    transcript,
    emit,
  });
  return { agent, events, asked, transcript };
}

const signal = (): AbortSignal => new AbortController().signal;
const told = (report: CallReport): string | null => (report.decision.verdict === "deny" ? null : `the person ran it: ${report.text}`);

describe("agent.callAsPerson", () => {
  it("runs a call the gate would ask about without a question, and the history carries what it told", async () => {
    const { agent, events, asked } = setup();
    const report = await agent.callAsPerson("bash", { command: "echo hi" }, signal(), told);
    expect(report).toEqual({ tool: "bash", isError: false, text: "ran echo hi", truncated: false, decision: expect.objectContaining({ verdict: "ask" }) });
    expect(asked.asked).toEqual([]);
    // No approval line: the person typed the call. What it told enters the history, and is reported so.
    expect(events.map((event) => event.type)).toEqual(["tool_start", "tool_end", "message"]);
    expect(agent.messages).toEqual([{ role: "user", content: [text("the person ran it: ran echo hi")] }]);
  });

  it("is refused by a deny rule, and then adds nothing the told function declines", async () => {
    const { agent, asked } = setup(["bash(cat .env*)"]);
    const report = await agent.callAsPerson("bash", { command: "cat .env" }, signal(), told);
    expect(report.isError).toBe(true);
    expect(report.text).toMatch(/^Denied by the approval gate: /);
    expect(asked.asked).toEqual([]);
    expect(agent.messages).toEqual([]);
  });

  it("joins the next prompt's message, so that roles still alternate", async () => {
    const { agent, transcript } = setup();
    await agent.callAsPerson("bash", { command: "ls" }, signal(), told);
    await agent.prompt("and now?", signal());
    expect(agent.messages).toEqual([
      { role: "user", content: [text("the person ran it: ran ls"), text("and now?")] },
      { role: "assistant", content: [text("ok")] },
    ]);
    expect(transcript.entries.filter((entry) => entry.type === "message").length).toBe(3);
  });
});
