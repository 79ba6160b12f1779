import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import type { AgentEvent, ImageInfo } from "../kernel/index.js";
import { createPlainRenderer, createTtyRenderer } from "./render.js";
import type { Spinner } from "./spinner.js";
import type { MarkdownRenderer } from "./markdown.js";
import { HOSTILE, HOSTILE_SHOWN } from "./test-support/hostile-text.js";

/** A turn in which every text an event carries is the hostile string. */
const HOSTILE_EVENTS: readonly AgentEvent[] = [
  { type: "text", delta: HOSTILE },
  // A tool name the model made up reaches the renderer before anything rejects it.
  { type: "tool_start", callId: "c0", tool: `x${HOSTILE}`, args: {} },
  { type: "tool_start", callId: "c1", tool: "mcp__h__x", args: { q: HOSTILE } },
  { type: "tool_progress", callId: "c1", message: HOSTILE },
  { type: "tool_end", callId: "c1", tool: "mcp__h__x", isError: false, text: HOSTILE, truncated: false },
  { type: "approval", callId: "c2", tool: "mcp__h__x", decision: { verdict: "deny", reason: HOSTILE } },
  { type: "notice", message: HOSTILE },
  { type: "error", message: HOSTILE },
  { type: "turn_end", reason: "done" },
];
/** The arguments' JSON escapes C0 controls itself (`\r`); the rest is shown by untrustedText. */
const HOSTILE_ARGS_SHOWN = String.raw`{"q":"ok\u001b]52;c;ZWNobyBwd25lZA==\u0007\u001b[2J\u001b[1;1H\rgone\u009b31m\u202eevil\u200b\udb40\udc41"}`;

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

  it("keeps the text of each model step apart: the words before a tool call end their line, the next step starts a paragraph", () => {
    const stdout = render([
      { type: "text", delta: "I'll read the README first." },
      { type: "tool_start", callId: "c1", tool: "read_file", args: { path: "README.md" } },
      { type: "tool_end", callId: "c1", tool: "read_file", isError: false, text: "# demo", truncated: false },
      { type: "text", delta: "## Summary" },
      { type: "turn_end", reason: "done" },
    ])
      .filter((written) => written.startsWith("out:"))
      .map((written) => written.slice(4))
      .join("");
    expect(stdout).toBe("I'll read the README first.\n\n## Summary\n");
  });

  it("shows every text of a hostile turn with its control, bidi and hidden characters made visible", () => {
    expect(render(HOSTILE_EVENTS)).toEqual([
      `out:${HOSTILE_SHOWN}`,
      "out:\n",
      `err:[x${HOSTILE_SHOWN}] {}\n`,
      `err:[mcp__h__x] ${HOSTILE_ARGS_SHOWN}\n`,
      `err:[progress] ${HOSTILE_SHOWN}\n`,
      `err:[mcp__h__x] ok: ${HOSTILE_SHOWN}\n`,
      `err:[approval] mcp__h__x: deny (${HOSTILE_SHOWN})\n`,
      `err:${HOSTILE_SHOWN}\n`,
      `err:error: ${HOSTILE_SHOWN}\n`,
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

  it("shows one line for each image a result sent to the model", () => {
    const image: ImageInfo = { mediaType: "image/png", bytes: 84_000, width: 1280, height: 720 };
    expect(
      render([{ type: "tool_end", callId: "c1", tool: "mcp__web__shot", isError: false, text: "[image: image/png 1280×720, 84 kB]", truncated: false, images: [image, { ...image, mediaType: "image/webp", bytes: 512 }] }]),
    ).toEqual(["err:[mcp__web__shot] ok: [image: image/png 1280×720, 84 kB]\n", "err:  [image: image/png 1280×720, 84 kB]\n", "err:  [image: image/webp 1280×720, 512 bytes]\n"]);
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

  it("says a refused call's sentence once: its result, which repeats it, is not printed again", () => {
    const ask = { verdict: "ask", reason: "default for write tools: ask" } as const;
    const deny = { verdict: "deny", reason: 'rule "bash" (deny) from --deny' } as const;
    const notRun = "Not run: write_file needs approval and there is no terminal to ask on; run mca with --allow \"write_file\" to allow it.";
    expect(
      render([
        { type: "tool_start", callId: "c1", tool: "bash", args: { command: "ls" } },
        { type: "approval", callId: "c1", tool: "bash", decision: deny },
        { type: "tool_end", callId: "c1", tool: "bash", isError: true, text: 'Denied by the approval gate: rule "bash" (deny) from --deny.', truncated: false },
        { type: "tool_start", callId: "c2", tool: "write_file", args: { path: "a.txt" } },
        { type: "approval", callId: "c2", tool: "write_file", decision: ask, answer: "deny" },
        { type: "tool_end", callId: "c2", tool: "write_file", isError: true, text: notRun, truncated: false },
        { type: "tool_start", callId: "c3", tool: "write_file", args: { path: "b.txt" } },
        { type: "approval", callId: "c3", tool: "write_file", decision: ask, answer: "once" },
        { type: "tool_end", callId: "c3", tool: "write_file", isError: false, text: "wrote b.txt", truncated: false },
      ]),
    ).toEqual([
      'err:[bash] {"command":"ls"}\n',
      'err:[approval] bash: deny (rule "bash" (deny) from --deny)\n',
      'err:[write_file] {"path":"a.txt"}\n',
      'err:[write_file] {"path":"b.txt"}\n',
      "err:[approval] write_file: once\n",
      "err:[write_file] ok: wrote b.txt\n",
    ]);
  });
});

function setup(columns?: number, markdown?: MarkdownRenderer) {
  const written: string[] = [];
  const spinner: Spinner = {
    start: (label) => written.push(`[spin ${label}]`),
    stop: () => written.push("[stop]"),
    aside: (print) => {
      written.push("[aside]");
      print();
      written.push("[back]");
    },
  };
  const width = columns === undefined ? {} : { width: () => columns };
  const rendering = markdown === undefined ? {} : { markdown: () => markdown };
  const renderer = createTtyRenderer({ out: (text) => written.push(text), chalk: new Chalk({ level: 0 }), spinner, ...width, ...rendering });
  return { written, renderer };
}

describe("createTtyRenderer", () => {
  it("names a call by the display name it is given for the tool", () => {
    const written: string[] = [];
    const spinner: Spinner = { start: () => undefined, stop: () => undefined, aside: (print) => print() };
    const displayName = (tool: string): string => (tool === "mcp__t__create" ? "Create ticket (mcp__t__create)" : tool);
    const renderer = createTtyRenderer({ out: (text) => written.push(text), chalk: new Chalk({ level: 0 }), spinner, displayName });
    renderer.emit({ type: "tool_start", callId: "c1", tool: "mcp__t__create", args: { summary: "x" } });
    expect(written.join("")).toBe('● Create ticket (mcp__t__create) {"summary":"x"}\n');
  });

  it("keeps a Markdown block whole when a note arrives in the middle of it", () => {
    const { written, renderer } = setup(undefined, (block) => `[block ${JSON.stringify(block)}]\n`);
    renderer.emit({ type: "text", delta: "```ts\nconst a = 1;\n" });
    renderer.note("mcp: notes: disconnected");
    renderer.emit({ type: "text", delta: "const b = 2;\n```\n\nAfter." });
    renderer.emit({ type: "turn_end", reason: "done" });
    expect(written.filter((text) => !text.startsWith("["))).toEqual(["mcp: notes: disconnected\n"]);
    expect(written.filter((text) => text.startsWith("[block"))).toEqual([
      '[block "```ts\\nconst a = 1;\\nconst b = 2;\\n```\\n\\n"]\n',
      '[block "After."]\n',
    ]);
  });

  it("prints a note from outside the turn on a line of its own, with the progress line stepping aside for it", () => {
    const { written, renderer } = setup();
    renderer.emit({ type: "text", delta: "half a line" });
    renderer.note("mcp: notes: disconnected");
    expect(written).toEqual(["[stop]", "half a line", "[aside]", "[stop]", "\n", "[stop]", "mcp: notes: disconnected\n", "[back]"]);
  });

  it("cuts the one-line summaries of a call to the terminal's width", () => {
    const { written, renderer } = setup(40);
    renderer.emit({ type: "tool_start", callId: "c1", tool: "bash", args: { command: "x".repeat(100) } });
    renderer.emit({ type: "tool_end", callId: "c1", tool: "bash", isError: false, text: `${"y".repeat(100)}\nmore\nlines`, truncated: false });
    const lines = written.filter((text) => !text.startsWith("[")).flatMap((text) => text.split("\n")).filter((line) => line !== "");
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
    expect(lines[1]).toMatch(/… \(\+2 lines\)$/);
  });

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
      '[spin read_file {"path":"a"}]',
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

  it("shows every text of a hostile turn, and the spinner's progress label, with its control, bidi and hidden characters made visible", () => {
    const { written, renderer } = setup();
    for (const event of HOSTILE_EVENTS) renderer.emit(event);
    expect(written.filter((text) => text !== "[stop]")).toEqual([
      HOSTILE_SHOWN,
      "\n",
      `● x${HOSTILE_SHOWN} {}\n`,
      `[spin x${HOSTILE_SHOWN} {}]`,
      `● mcp__h__x ${HOSTILE_ARGS_SHOWN}\n`,
      `[spin mcp__h__x ${HOSTILE_ARGS_SHOWN}]`,
      `[spin mcp__h__x: ${HOSTILE_SHOWN}]`,
      `  ✓ ${HOSTILE_SHOWN}\n`,
      "[spin thinking]",
      `${HOSTILE_SHOWN}\n`,
      `error: ${HOSTILE_SHOWN}\n`,
    ]);
  });

  it("shows one line for each image a result sent to the model, under the result's line", () => {
    const { written, renderer } = setup();
    const image: ImageInfo = { mediaType: "image/jpeg", bytes: 2_400_000, width: 4032, height: 3024 };
    renderer.emit({ type: "tool_end", callId: "c1", tool: "mcp__web__shot", isError: false, text: "a photo\n[image: image/jpeg 4032×3024, 2.4 MB]", truncated: false, images: [image] });
    expect(written.filter((text) => !text.startsWith("["))).toEqual(["  ✓ a photo (+1 lines)\n", "    [image: image/jpeg 4032×3024, 2.4 MB]\n"]);
  });

  it("marks failed and truncated results and says when a turn was interrupted", () => {
    const { written, renderer } = setup();
    renderer.emit({ type: "tool_end", callId: "c1", tool: "bash", isError: true, text: "exit code 1", truncated: true });
    renderer.emit({ type: "turn_end", reason: "aborted" });
    expect(written.filter((text) => !text.startsWith("["))).toEqual([
      "  ✗ exit code 1 (cut to fit the budget)\n",
      "interrupted\n",
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
      "[spin bash]",
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
