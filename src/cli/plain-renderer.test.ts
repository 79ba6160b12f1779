import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../kernel/index.js";
import { createPlainRenderer } from "./plain-renderer.js";

function render(events: readonly AgentEvent[]) {
  const written: string[] = [];
  const renderer = createPlainRenderer({ out: (text) => written.push(`out:${text}`), err: (text) => written.push(`err:${text}`) });
  for (const event of events) renderer(event);
  return written;
}

describe("createPlainRenderer", () => {
  it("streams text to stdout and ends the line at the end of the turn", () => {
    expect(render([{ type: "text", delta: "Hel" }, { type: "text", delta: "lo" }, { type: "turn_end", reason: "done" }])).toEqual([
      "out:Hel",
      "out:lo",
      "out:\n",
    ]);
  });

  it("does not add a newline after text that already ends one", () => {
    expect(render([{ type: "text", delta: "done\n" }, { type: "turn_end", reason: "done" }])).toEqual(["out:done\n"]);
  });

  it("reports tool activity, notices and errors on stderr only", () => {
    expect(
      render([
        { type: "tool_start", callId: "c1", tool: "read_file", args: { path: "a.txt" } },
        { type: "tool_progress", callId: "c1", message: "half way" },
        { type: "tool_end", callId: "c1", tool: "read_file", isError: false, text: "line one\nline two\n", truncated: true },
        { type: "tool_end", callId: "c2", tool: "bash", isError: true, text: "exit code 2", truncated: false },
        { type: "notice", message: "loop limit reached" },
        { type: "error", message: "model unreachable" },
        { type: "turn_end", reason: "aborted" },
      ]),
    ).toEqual([
      'err:[read_file] {"path":"a.txt"}\n',
      "err:[progress] half way\n",
      "err:[read_file] ok, truncated: line one (+1 lines)\n",
      "err:[bash] failed: exit code 2\n",
      "err:loop limit reached\n",
      "err:error: model unreachable\n",
      "err:interrupted\n",
    ]);
  });

  it("shows a rule's denial with its reason and an approval given, but not a denial already explained", () => {
    const ask = { verdict: "ask", reason: "default for write tools: ask" } as const;
    const deny = { verdict: "deny", reason: 'rule "bash" (deny) from --deny' } as const;
    expect(
      render([
        { type: "approval", callId: "c1", tool: "bash", decision: deny },
        { type: "approval", callId: "c2", tool: "write_file", decision: ask, answer: "deny" },
        { type: "approval", callId: "c3", tool: "write_file", decision: ask, answer: "session" },
      ]),
    ).toEqual(['err:[approval] bash: deny (rule "bash" (deny) from --deny)\n', "err:[approval] write_file: session\n"]);
  });
});
