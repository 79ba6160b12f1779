import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempProjectPerTest } from "../tools/test-support/temp-project.js";
import type { SlashCommand } from "./session-seam.js";
import { ANSWER_REUSE_MS, completeLine, createTabCompleter, TAB_TIME_LIMIT_MS } from "./completion.js";
import type { ServerQuestion } from "./server-completion.js";

describe("completeLine", () => {
  const project = tempProjectPerTest("mca-complete-");
  const sources = () => ({ commands: ["help", "tools", "undo", "exit"], tools: () => ["read_file", "mcp__notes__search", "mcp__notes__read_note"], projectDir: project() });

  it("completes slash commands at the start of a line", () => {
    expect(completeLine("/u", sources())).toEqual([["/undo"], "/u"]);
    expect(completeLine("/", sources())[0]).toEqual(["/help", "/tools", "/undo", "/exit"]);
  });

  it("completes tool names after /call", () => {
    expect(completeLine("/call mcp__notes__r", sources())).toEqual([["mcp__notes__read_note"], "mcp__notes__r"]);
  });

  it("completes file and folder names relative to the project, folders with a slash, hidden ones only when asked", async () => {
    await mkdir(join(project(), "src"));
    await writeFile(join(project(), "src", "main.ts"), "");
    await writeFile(join(project(), "src", "map.ts"), "");
    await writeFile(join(project(), ".env"), "");
    expect(completeLine("read s", sources())).toEqual([["src/"], "s"]);
    expect(completeLine("look at src/ma", sources())).toEqual([["src/main.ts", "src/map.ts"], "src/ma"]);
    expect(completeLine("open ", sources())[0]).toEqual(["src/"]);
    expect(completeLine("open .e", sources())[0]).toEqual([".env"]);
    expect(completeLine("open nothing/here", sources())).toEqual([[], "nothing/here"]);
  });
});

/** A clock whose time moves only when the test says, and whose timers fire then. */
function fakeClock() {
  let nowMs = 0;
  const timers: Array<{ atMs: number; fire: () => void; cancelled: boolean }> = [];
  return {
    now: () => nowMs,
    after(ms: number, fire: () => void) {
      const timer = { atMs: nowMs + ms, fire, cancelled: false };
      timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
    advance(ms: number) {
      nowMs += ms;
      for (const timer of timers.splice(0)) {
        if (timer.cancelled) continue;
        if (timer.atMs <= nowMs) timer.fire();
        else timers.push(timer);
      }
    },
  };
}

/** A server question whose answers the test hands over, counting how often it was asked. */
function scriptedQuestion(key: string) {
  const asked: AbortSignal[] = [];
  const answers: Array<(values: readonly string[]) => void> = [];
  const question: ServerQuestion = {
    key,
    word: "na",
    ask: (signal) => {
      asked.push(signal);
      return new Promise((resolve) => answers.push(resolve));
    },
  };
  return { question, asked, answer: (values: readonly string[]) => answers.shift()?.(values) };
}

describe("createTabCompleter", () => {
  const project = tempProjectPerTest("mca-tab-");
  /** The completer over one question for every line that starts with `/p `; every other line is completed as before. */
  function completer(questions: Record<string, ServerQuestion>, clock = fakeClock()) {
    const command: SlashCommand = { name: "p", usage: "/p", summary: "", run: async () => "ok", complete: (argText) => questions[argText] };
    const promptCommands = () => [command];
    const tab = createTabCompleter({ commands: ["help"], tools: () => [], projectDir: project(), promptCommands }, clock);
    const results: Array<[string[], string]> = [];
    const press = (line: string): Promise<[string[], string]> =>
      new Promise<[string[], string]>((resolve) => tab(line, (_error, result) => resolve(result))).then((result) => {
        results.push(result);
        return result;
      });
    return { press, clock, results };
  }

  it("answers a line no server is asked about at once, as completeLine does", async () => {
    expect(await completer({}).press("/he")).toEqual([["/help"], "/he"]);
  });

  it("shows the server's values for the word being typed", async () => {
    const { question, answer } = scriptedQuestion("one");
    const { press } = completer({ "na": question });
    const pressed = press("/p na");
    answer(["name=Ada", "name=Alan"]);
    expect(await pressed).toEqual([["name=Ada", "name=Alan"], "na"]);
  });

  it("gives up after the time limit with no candidates, and shows the late answer at the next Tab without asking again", async () => {
    const { question, asked, answer } = scriptedQuestion("one");
    const { press, clock } = completer({ "na": question });
    const first = press("/p na");
    clock.advance(TAB_TIME_LIMIT_MS);
    expect(await first).toEqual([[], "na"]);
    answer(["name=Ada"]);
    await Promise.resolve();
    expect([await press("/p na"), asked.length]).toEqual([[["name=Ada"], "na"], 1]);
  });

  it("asks once for a question repeated while its answer is on the way, and again once the answer is old", async () => {
    const { question, asked, answer } = scriptedQuestion("one");
    const { press, clock } = completer({ "na": question });
    const first = press("/p na");
    const second = press("/p na");
    answer(["name=Ada"]);
    expect([await first, await second, asked.length]).toEqual([[["name=Ada"], "na"], [["name=Ada"], "na"], 1]);
    clock.advance(ANSWER_REUSE_MS + 1);
    const third = press("/p na");
    answer(["name=Ada", "name=Alan"]);
    expect([await third, asked.length]).toEqual([[["name=Ada", "name=Alan"], "na"], 2]);
  });

  it("stops the question before when another is asked, and never shows its answer", async () => {
    const before = scriptedQuestion("before");
    const after = scriptedQuestion("after");
    const { press, clock } = completer({ "a": before.question, "b": after.question });
    const first = press("/p a");
    const second = press("/p b");
    expect(before.asked[0]?.aborted).toBe(true);
    clock.advance(TAB_TIME_LIMIT_MS);
    before.answer(["late"]);
    after.answer(["fresh"]);
    expect([await first, await second]).toEqual([[[], "na"], [[], "na"]]);
    await Promise.resolve();
    expect(await press("/p b")).toEqual([["fresh"], "na"]);
  });
});
