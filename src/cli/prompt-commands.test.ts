import { afterEach, describe, expect, it } from "vitest";
import { McpError, type JsonObject, type ListChange, type PromptArgument, type PromptSource } from "../mcp/index.js";
import { runChat } from "./chat.js";
import { runLine } from "./commands.js";
import { plainView, type LineRun, type PromptCatalog, type SlashCommand } from "./session-seam.js";
import { createPromptCatalog, parsePromptArguments, promptUsage } from "./prompt-commands.js";
import { createFakeAgent } from "./test-support/fake-agent.js";
import { fakeSession } from "./test-support/fake-session.js";
import { createMemoryTerminal, destroyMemoryTerminals } from "./test-support/memory-terminal.js";
import { waitFor } from "./test-support/wait-for.js";

afterEach(destroyMemoryTerminals);

const REVIEW_ARGS: readonly PromptArgument[] = [
  { name: "file", required: true },
  { name: "focus", required: false },
  { name: "tone", required: false },
];

describe("parsePromptArguments", () => {
  it("fills the arguments by position, in their declared order", () => {
    expect(parsePromptArguments("a.ts security", REVIEW_ARGS)).toEqual({ file: "a.ts", focus: "security" });
  });

  it("fills an argument by name=value, in any order, and returns them in the declared order", () => {
    expect(parsePromptArguments("tone=kind file=a.ts", REVIEW_ARGS)).toEqual({ file: "a.ts", tone: "kind" });
  });

  it("fills the arguments not named with the positional values, in their declared order", () => {
    expect(parsePromptArguments("file=a.ts speed kind", REVIEW_ARGS)).toEqual({ file: "a.ts", focus: "speed", tone: "kind" });
    expect(parsePromptArguments("focus=speed a.ts", REVIEW_ARGS)).toEqual({ file: "a.ts", focus: "speed" });
  });

  it("keeps the spaces of a quoted value, named or positional, and reads escaped quotes inside double quotes", () => {
    expect(parsePromptArguments(`"my file.ts" focus="two words" tone='say "hi"'`, REVIEW_ARGS)).toEqual({ file: "my file.ts", focus: "two words", tone: 'say "hi"' });
    expect(parsePromptArguments(String.raw`file="a \"b\" \\ c"`, REVIEW_ARGS)).toEqual({ file: String.raw`a "b" \ c` });
  });

  it("takes an = after a quote, or after the name, as part of the value", () => {
    expect(parsePromptArguments(`"a=b" focus=x=y`, REVIEW_ARGS)).toEqual({ file: "a=b", focus: "x=y" });
  });

  it("takes an empty quoted value as a value", () => {
    expect(parsePromptArguments(`file="" ''`, REVIEW_ARGS)).toEqual({ file: "", focus: "" });
  });

  it("refuses a missing required argument, naming it", () => {
    expect(parsePromptArguments("focus=speed", REVIEW_ARGS)).toEqual(new Error('missing the required argument "file"'));
    const two: PromptArgument[] = [
      { name: "department", required: true },
      { name: "name", required: true },
    ];
    expect(parsePromptArguments("", two)).toEqual(new Error('missing the required arguments "department", "name"'));
  });

  it("refuses an unknown name, naming the known ones", () => {
    expect(parsePromptArguments("file=a.ts colour=red", REVIEW_ARGS)).toEqual(new Error('no argument named "colour"; its arguments: "file", "focus", "tone"'));
    expect(parsePromptArguments("x=1", [])).toEqual(new Error('no argument named "x"; it takes no arguments'));
  });

  it("refuses more values than arguments, a value given twice, and an unclosed quote", () => {
    expect([
      parsePromptArguments("a b c d", REVIEW_ARGS),
      parsePromptArguments("extra", []),
      parsePromptArguments("tone=kind a b c", REVIEW_ARGS),
      parsePromptArguments("file=a.ts file=b.ts", REVIEW_ARGS),
      parsePromptArguments(`file="a.ts`, REVIEW_ARGS),
    ]).toEqual([
      new Error("it takes at most 3, and 4 were given"),
      new Error("it takes no arguments, and 1 were given"),
      new Error("it takes at most 2 more besides those named, and 3 were given"),
      new Error('the argument "file" is given twice'),
      new Error('a " quote is not closed'),
    ]);
  });
});

describe("promptUsage", () => {
  it("shows required arguments in angle brackets and optional ones in square brackets", () => {
    expect(promptUsage("mcp__docs__review", REVIEW_ARGS)).toBe("/mcp__docs__review <file> [focus] [tone]");
  });
});

interface ScriptedPrompt {
  readonly listed: JsonObject;
  /** The prompts/get result, or a failure. */
  readonly reply?: JsonObject | McpError;
}

/** A server whose prompts/list and prompts/get answer from `prompts`; it keeps every request it was sent. */
function promptServer(alias: string, prompts: readonly ScriptedPrompt[], capabilities: JsonObject = { prompts: {} }) {
  const sent: string[] = [];
  let current = prompts;
  const source: PromptSource = {
    alias,
    capabilities,
    request: async (method, params) => {
      sent.push(`${method} ${JSON.stringify(params)}`);
      if (method === "prompts/list") return { prompts: current.map((prompt) => prompt.listed) };
      const found = current.find((prompt) => prompt.listed.name === params?.name);
      return found?.reply ?? new McpError("server", "no such prompt", { server: alias, code: -32602 });
    },
  };
  return { source, sent, change: (next: readonly ScriptedPrompt[]) => (current = next) };
}

const catalogOptions = () => {
  const warnings: string[] = [];
  return { warnings, options: { warn: (text: string) => warnings.push(text), signal: new AbortController().signal } };
};

const rows = (commands: readonly SlashCommand[]) => commands.map(({ name, usage, summary }) => ({ name, usage, summary }));

/** A line run on a session whose servers offer `prompts` (none when absent), its output kept as `out:`/`err:` lines. */
function commandLine(prompts?: PromptCatalog) {
  const written: string[] = [];
  const session = fakeSession({ agent: (io) => createFakeAgent({}, io.emit), ...(prompts === undefined ? {} : { servers: { prompts: () => prompts } }) });
  const view = plainView(
    (text) => written.push(`out:${text}`),
    (text) => written.push(`err:${text}`),
  );
  const line: LineRun = { session, view, signal: new AbortController().signal };
  return { written, line };
}

describe("createPromptCatalog", () => {
  it("offers every prompt of every server that declares prompts, under its flat name, once the listings end", async () => {
    const docs = promptServer("docs", [{ listed: { name: "review", description: "Reviews a file\nin depth", arguments: [{ name: "file", required: true }] } }, { listed: { name: "simple", title: "Simple" } }]);
    const silent = promptServer("tools-only", [{ listed: { name: "hidden" } }], { tools: {} });
    const { options, warnings } = catalogOptions();
    const catalog = createPromptCatalog([docs.source, silent.source], options);
    expect(catalog.current()).toEqual([]);
    expect(rows(await catalog.settled())).toEqual([
      { name: "mcp__docs__review", usage: "/mcp__docs__review <file>", summary: 'Reviews a file (MCP server "docs")' },
      { name: "mcp__docs__simple", usage: "/mcp__docs__simple", summary: 'Simple (MCP server "docs")' },
    ]);
    expect({ current: catalog.current().length, warnings, silent: silent.sent }).toEqual({ current: 2, warnings: [], silent: [] });
  });

  it("names prompts whose names collide once sanitised with the tools' hash suffixes", async () => {
    const docs = promptServer("docs", [{ listed: { name: "a b" } }, { listed: { name: "a_b" } }, { listed: { name: "a.b" } }]);
    const { options } = catalogOptions();
    const names = (await createPromptCatalog([docs.source], options).settled()).map((command) => command.name);
    expect({ count: names.length, distinct: new Set(names).size, suffixed: names.filter((name) => /^mcp__docs__a_b_[0-9a-f]{6}$/u.test(name)).length }).toEqual({
      count: 3,
      distinct: 3,
      suffixed: 3,
    });
  });

  it("warns once for a server whose listing fails, and offers the others' prompts", async () => {
    const broken: PromptSource = { alias: "broken", capabilities: { prompts: {} }, request: async () => new McpError("unavailable", "disconnected", { server: "broken" }) };
    const docs = promptServer("docs", [{ listed: { name: "simple" } }]);
    const { options, warnings } = catalogOptions();
    const commands = await createPromptCatalog([broken, docs.source], options).settled();
    expect({ names: commands.map((command) => command.name), warnings }).toEqual({
      names: ["mcp__docs__simple"],
      warnings: ["mcp: broken: its prompts are not offered as commands: disconnected"],
    });
  });

  it("says nothing of a listing that fails once the session has ended", async () => {
    const ended = new AbortController();
    ended.abort();
    const closed: PromptSource = { alias: "closing", capabilities: { prompts: {} }, request: async () => new McpError("unavailable", "connection closed", { server: "closing" }) };
    const warnings: string[] = [];
    const catalog = createPromptCatalog([closed], { warn: (text) => warnings.push(text), signal: ended.signal });
    expect({ commands: await catalog.settled(), warnings }).toEqual({ commands: [], warnings: [] });
  });

  it("lists a server again on refresh: new prompts are offered and removed ones are gone", async () => {
    const docs = promptServer("docs", [{ listed: { name: "old" } }]);
    const { options } = catalogOptions();
    const catalog = createPromptCatalog([docs.source], options);
    await catalog.settled();
    docs.change([{ listed: { name: "new" } }]);
    await catalog.refresh("docs");
    expect(catalog.current().map((command) => command.name)).toEqual(["mcp__docs__new"]);
  });

  it("lists a server again when it says its prompts changed, and says so in one line; other changes and other servers are left alone", async () => {
    const docs = promptServer("docs", [{ listed: { name: "old" } }]);
    const other = promptServer("other", [{ listed: { name: "kept" } }]);
    let hear: (change: ListChange) => void = () => undefined;
    let stopped = false;
    const ended = new AbortController();
    const warnings: string[] = [];
    const catalog = createPromptCatalog([docs.source, other.source], {
      warn: (text) => warnings.push(text),
      signal: ended.signal,
      watch: (listener) => {
        hear = listener;
        return () => (stopped = true);
      },
    });
    await catalog.settled();
    docs.change([{ listed: { name: "new" } }, { listed: { name: "newer" } }]);
    hear({ alias: "docs", kind: "tools", added: [], removed: [], count: 0 });
    hear({ alias: "docs", kind: "prompts" });
    const names = (await catalog.settled()).map((command) => command.name);
    ended.abort();
    expect({ names, warnings, lists: [docs.sent.length, other.sent.length], stopped }).toEqual({
      names: ["mcp__docs__new", "mcp__docs__newer", "mcp__other__kept"],
      warnings: ["mcp: docs: prompts changed (now 2 prompts)"],
      lists: [2, 1],
      stopped: true,
    });
  });

  it("lists a burst of changes once in flight and once after, and says nothing when the list did not change", async () => {
    const docs = promptServer("docs", [{ listed: { name: "same" } }]);
    let hear: (change: ListChange) => void = () => undefined;
    const warnings: string[] = [];
    const catalog = createPromptCatalog([docs.source], {
      warn: (text) => warnings.push(text),
      signal: new AbortController().signal,
      watch: (listener) => {
        hear = listener;
        return () => undefined;
      },
    });
    await catalog.settled();
    for (let change = 0; change < 5; change++) hear({ alias: "docs", kind: "prompts" });
    await new Promise((resolve) => setImmediate(resolve));
    await catalog.settled();
    expect({ lists: docs.sent.length, warnings }).toEqual({ lists: 3, warnings: [] });
  });

  it("shows /help without waiting for a server that never answers prompts/list, and says it is still listing", async () => {
    const silent: PromptSource = { alias: "slow", capabilities: { prompts: {} }, request: () => new Promise(() => undefined) };
    const catalog = createPromptCatalog([silent], catalogOptions().options);
    const { written, line } = commandLine(catalog);
    expect(await runLine("/help", line)).toBe("ok");
    expect(written.at(-1)).toBe("out:(the prompts of some MCP servers are still being listed)");
  });

  it("makes a command's prompt the user's turn, sending the arguments it was given", async () => {
    const docs = promptServer("docs", [
      { listed: { name: "review", arguments: [{ name: "file", required: true }, { name: "focus" }] }, reply: { messages: [{ role: "user", content: { type: "text", text: "Review a.ts for speed" } }] } },
    ]);
    const { options } = catalogOptions();
    const [review] = await createPromptCatalog([docs.source], options).settled();
    const { line, written } = commandLine();
    expect(await review?.run(line, `a.ts focus=speed`)).toEqual({ prompt: "Review a.ts for speed" });
    expect({ sent: docs.sent.at(-1), written }).toEqual({ sent: 'prompts/get {"name":"review","arguments":{"file":"a.ts","focus":"speed"}}', written: [] });
  });

  it("refuses a command with a missing argument before asking the server, showing its usage", async () => {
    const docs = promptServer("docs", [{ listed: { name: "review", arguments: [{ name: "file", required: true }] } }]);
    const { options } = catalogOptions();
    const [review] = await createPromptCatalog([docs.source], options).settled();
    const { line, written } = commandLine();
    expect(await review?.run(line, "")).toBe("failed");
    expect({ sent: docs.sent, written }).toEqual({
      sent: ["prompts/list {}"],
      written: ['err:/mcp__docs__review: missing the required argument "file"; usage: /mcp__docs__review <file>'],
    });
  });

  it("fails a command whose server refuses the prompt, naming the server, its words shown safely", async () => {
    const docs = promptServer("docs", [{ listed: { name: "review" }, reply: new McpError("server", "Invalid \u001b[31mresourceId", { server: "docs", code: -32602 }) }]);
    const { options } = catalogOptions();
    const [review] = await createPromptCatalog([docs.source], options).settled();
    const { line, written } = commandLine();
    expect(await review?.run(line, "")).toBe("failed");
    expect(written).toEqual(['err:/mcp__docs__review: MCP server "docs": Invalid \\u001b[31mresourceId']);
  });
});

describe("prompt commands in the chat", () => {
  it("complete on Tab, and run the prompt as the user's turn with the answer shown", async () => {
    const terminal = createMemoryTerminal();
    const docs = promptServer("docs", [{ listed: { name: "review", arguments: [{ name: "file", required: true }] }, reply: { messages: [{ role: "user", content: { type: "text", text: "Review a.ts" } }] } }]);
    const { options } = catalogOptions();
    const promptCommands = createPromptCatalog([docs.source], options);
    await promptCommands.settled();
    const received: string[] = [];
    const session = fakeSession({
      agent: (io) => {
        const agent = createFakeAgent({ promptEvents: (text) => [{ type: "text", delta: `answer to ${text}` }, { type: "turn_end", reason: "done" }] }, io.emit);
        return { ...agent, prompt: async (text, signal) => (received.push(text), agent.prompt(text, signal)) };
      },
      servers: { prompts: () => promptCommands },
      runtime: {
        terminal: { input: () => terminal.input, output: terminal.output, errorOutput: terminal.output, inputIsTerminal: () => true, interactive: () => true },
        now: () => 0,
      },
    });
    const status = runChat(session, undefined);
    terminal.type("/mcp__do\t");
    await waitFor("the completed command", () => terminal.shown().includes("/mcp__docs__review"));
    terminal.type(" a.ts\r");
    await waitFor("the answer", () => terminal.shown().includes("answer to Review a.ts"));
    terminal.type("/exit\r");
    expect({ code: await status, received, sent: docs.sent.at(-1) }).toEqual({
      code: 0,
      received: ["Review a.ts"],
      sent: 'prompts/get {"name":"review","arguments":{"file":"a.ts"}}',
    });
  });
});
