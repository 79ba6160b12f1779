import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import type { Message } from "../kernel/index.js";
import { resumedView, resumedViewText } from "./resumed-view.js";
import { shellContextText } from "./shell-line.js";
import { visibleWidth } from "./text-layout.js";

const prompt = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const answer = (text: string): Message => ({ role: "assistant", content: [{ type: "text", text }] });
const call = (id: string, name: string, input: Record<string, unknown>, text = ""): Message => ({
  role: "assistant",
  content: [...(text === "" ? [] : [{ type: "text" as const, text }]), { type: "tool_use", id, name, input }],
});
const result = (id: string, text: string, isError = false): Message => ({ role: "user", content: [{ type: "tool_result", toolUseId: id, text, isError }] });

const plain = new Chalk({ level: 0 });

describe("resumedView", () => {
  it("lists the person's prompts, the answers and each call with its outcome, in order", () => {
    const history = [prompt("what is in calc.js?"), call("t1", "read_file", { path: "calc.js" }, "Let me look."), result("t1", "1: export const add"), answer("It **adds**.")];
    expect(resumedView(history)).toEqual({
      earlierTurns: 0,
      entries: [
        { kind: "prompt", text: "what is in calc.js?" },
        { kind: "answer", text: "Let me look." },
        { kind: "call", tool: "read_file", args: { path: "calc.js" }, outcome: { isError: false, text: "1: export const add" } },
        { kind: "answer", text: "It **adds**." },
      ],
    });
  });

  it("shows the last turns of a long session and counts the ones it leaves out", () => {
    const history = Array.from({ length: 30 }, (_, index) => [prompt(`question ${index}`), answer(`answer ${index}`)]).flat();
    const view = resumedView(history, 3);
    expect(view.earlierTurns).toBe(27);
    expect(view.entries.map((entry) => (entry.kind === "prompt" || entry.kind === "answer" ? entry.text : entry.kind))).toEqual(["question 27", "answer 27", "question 28", "answer 28", "question 29", "answer 29"]);
  });

  it("shows a command the person ran (`!`) apart from the prompt it was sent with", () => {
    const ran = shellContextText("npm test", { isError: true, text: "exit code 1\n1 failed" });
    const history: Message[] = [{ role: "user", content: [{ type: "text", text: ran }, { type: "text", text: "why does it fail?" }] }, answer("Because.")];
    expect(resumedView(history)).toEqual({
      earlierTurns: 0,
      entries: [
        { kind: "shell", command: "npm test", isError: true, output: "exit code 1\n1 failed" },
        { kind: "prompt", text: "why does it fail?" },
        { kind: "answer", text: "Because." },
      ],
    });
  });

  it("shows a prompt as typed, without the files it attached or the text piped after it", () => {
    const attached = "what does @calc.js do?\n\n@calc.js (as read_file shows it)\n```\n1\texport const add = 1;\n```";
    const piped = "explain this\n\n<stdin>\nlog line\n</stdin>";
    expect(resumedView([prompt(attached), answer("a"), prompt(piped), answer("b")]).entries.filter((entry) => entry.kind === "prompt")).toEqual([
      { kind: "prompt", text: "what does @calc.js do?" },
      { kind: "prompt", text: "explain this" },
    ]);
  });

  it("keeps a call that never got its result, marked as such", () => {
    expect(resumedView([prompt("go"), call("t1", "bash", { command: "sleep 100" })]).entries.at(-1)).toEqual({ kind: "call", tool: "bash", args: { command: "sleep 100" }, outcome: null });
  });
});

describe("resumedViewText", () => {
  it("prints a prompt, the rendered answer and one line per call, then where the chat goes on", () => {
    const history = [prompt("fix it"), call("t1", "bash", { command: "npm test" }), result("t1", "1 failed\nmore", true), answer("Done.")];
    const text = resumedViewText(resumedView(history), { chalk: plain, markdown: (markdown) => `<md>${markdown}</md>\n`, width: 80 });
    expect(text.split("\n")).toEqual([
      "› fix it",
      '● bash {"command":"npm test"} ✗ 1 failed',
      "<md>Done.</md>",
      "── resumed: the conversation goes on from here ──",
      "",
    ]);
  });

  it("says how many earlier turns are left out, and shows what outsiders wrote without obeying it", () => {
    const history = [prompt("old"), answer("old answer"), prompt("new \u001b[2J"), answer("x")];
    const lines = resumedViewText(resumedView(history, 1), { chalk: plain, markdown: null, width: 80 }).split("\n");
    expect(lines[0]).toBe("… 1 earlier turn not shown");
    expect(lines.join("\n")).not.toContain("\u001b");
  });

  it("prints a command the person ran as one line with its outcome and the first line of its output", () => {
    const ran = shellContextText("echo hi", { isError: false, text: "exit code 0\nhi\n" });
    const text = resumedViewText(resumedView([prompt(ran)]), { chalk: plain, markdown: null, width: 80 });
    expect(text.split("\n")).toEqual(["! echo hi ✓ hi", "── resumed: the conversation goes on from here ──", ""]);
  });

  it("keeps every call on one line within the width, whatever its arguments and result", () => {
    const history = [prompt("go"), call("t1", "write_file", { path: "a.txt", content: "x".repeat(5_000) }), result("t1", "y".repeat(5_000))];
    const line = resumedViewText(resumedView(history), { chalk: plain, markdown: null, width: 60 }).split("\n")[1] ?? "";
    expect(line.startsWith("● write_file")).toBe(true);
    expect(line.length).toBeLessThanOrEqual(60);
  });

  it("counts a wide character as two columns and never cuts one in half", () => {
    const history = [prompt("go"), call("t1", "read_file", { path: "漢字".repeat(100) }), result("t1", "😀".repeat(100))];
    const line = resumedViewText(resumedView(history), { chalk: plain, markdown: null, width: 60 }).split("\n")[1] ?? "";
    expect(visibleWidth(line)).toBeLessThanOrEqual(60);
    // A surrogate alone is half an emoji.
    expect(line).not.toMatch(/\p{Surrogate}/u);
  });
});
