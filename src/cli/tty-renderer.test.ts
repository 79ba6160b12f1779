import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../kernel/index.js";
import type { Spinner } from "./spinner.js";
import { createTtyRenderer } from "./tty-renderer.js";

function setup() {
  const written: string[] = [];
  const spinner: Spinner = {
    start: (label) => written.push(`[spin ${label}]`),
    stop: () => written.push("[stop]"),
  };
  const renderer = createTtyRenderer({ out: (text) => written.push(text), chalk: new Chalk({ level: 0 }), spinner });
  return { written, renderer };
}

describe("createTtyRenderer", () => {
  it("spins while the model thinks and a tool runs, and stops before anything is printed", () => {
    const { written, renderer } = setup();
    renderer.thinking();
    const events: AgentEvent[] = [
      { type: "text", delta: "Let me look." },
      { type: "tool_start", callId: "c1", tool: "read_file", args: { path: "a" } },
      { type: "tool_progress", callId: "c1", message: "reading" },
      { type: "tool_end", callId: "c1", tool: "read_file", isError: false, text: "hello", truncated: false },
      { type: "text", delta: "It says hello." },
      { type: "turn_end", reason: "done" },
    ];
    for (const event of events) renderer.emit(event);
    expect(written).toEqual([
      "[spin thinking]",
      "[stop]",
      "Let me look.",
      "[stop]",
      "\n",
      "[stop]",
      '● read_file {"path":"a"}\n',
      "[spin running read_file]",
      "[spin read_file: reading]",
      "[stop]",
      "  ✓ hello\n",
      "[spin thinking]",
      "[stop]",
      "It says hello.",
      "[stop]",
      "[stop]",
      "\n",
    ]);
  });

  it("marks failed and truncated results and says when a turn was interrupted", () => {
    const { written, renderer } = setup();
    renderer.emit({ type: "tool_end", callId: "c1", tool: "bash", isError: true, text: "exit code 1", truncated: true });
    renderer.emit({ type: "turn_end", reason: "aborted" });
    expect(written.filter((text) => !text.startsWith("["))).toEqual([
      "  ✗ exit code 1 (cut to fit the budget)\n",
      "interrupted (Ctrl-C again now to exit)\n",
    ]);
  });

  it("spins again once an approved tool runs, not after a denial", () => {
    const { written, renderer } = setup();
    const decision = { verdict: "ask", reason: "default for exec tools: ask" } as const;
    renderer.emit({ type: "approval", callId: "c1", tool: "bash", decision, answer: "once" });
    renderer.emit({ type: "approval", callId: "c2", tool: "bash", decision, answer: "deny" });
    renderer.emit({ type: "approval", callId: "c3", tool: "bash", decision: { verdict: "deny", reason: "rule" } });
    expect(written).toEqual([
      "[stop]",
      "  approval for bash: once\n",
      "[spin running bash]",
      "[stop]",
      "  approval for bash: deny\n",
    ]);
  });

  it("ends a half-written line when paused for a prompt", () => {
    const { written, renderer } = setup();
    renderer.emit({ type: "text", delta: "Writing" });
    renderer.pause();
    expect(written).toEqual(["[stop]", "Writing", "[stop]", "[stop]", "\n"]);
  });
});
