import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempProjectPerTest } from "../tools/test-support/temp-project.js";
import type { ProjectState } from "../session/index.js";
import { appendPromptHistory, loadPromptHistory, PROMPT_HISTORY_SIZE, promptHistoryFile } from "./prompt-history.js";

describe("prompt history", () => {
  const root = tempProjectPerTest("mca-history-");
  const state = (): ProjectState => ({ projectDir: join(root(), "project"), dir: join(root(), "state") });

  it("is kept in the project's state folder, newest first, readable by the user only", async () => {
    const file = promptHistoryFile(state());
    expect(file).toBe(join(root(), "state", "prompt-history.jsonl"));
    appendPromptHistory(file, "first");
    appendPromptHistory(file, "second");
    expect(loadPromptHistory(file)).toEqual(["second", "first"]);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("drops what is not a plain prompt, so a planted line cannot reach the terminal", async () => {
    const file = promptHistoryFile(state());
    appendPromptHistory(file, "ok");
    await writeFile(file, `${await readFile(file, "utf8")}"\\u001b]52;c;ZXZpbA==\\u0007"\nnot json\n"fine"\n`);
    expect(loadPromptHistory(file)).toEqual(["fine", "ok"]);
    appendPromptHistory(file, "evil \u001b[2J");
    expect(loadPromptHistory(file)).toEqual(["fine", "ok"]);
  });

  it("keeps a prompt of several lines as one entry, across sessions", () => {
    const file = promptHistoryFile(state());
    appendPromptHistory(file, "first");
    appendPromptHistory(file, "fix this:\n  at x.js:3\n  at y.js:9");
    expect(loadPromptHistory(file)).toEqual(["fix this:\n  at x.js:3\n  at y.js:9", "first"]);
  });

  it("keeps at most PROMPT_HISTORY_SIZE prompts", async () => {
    const file = promptHistoryFile(state());
    for (let index = 0; index < 2 * PROMPT_HISTORY_SIZE + 5; index += 1) appendPromptHistory(file, `p${index}`);
    const loaded = loadPromptHistory(file);
    expect(loaded).toHaveLength(PROMPT_HISTORY_SIZE);
    expect(loaded[0]).toBe(`p${2 * PROMPT_HISTORY_SIZE + 4}`);
    // Loading cut the file itself back, so it does not grow without end.
    expect((await readFile(file, "utf8")).trim().split("\n")).toHaveLength(PROMPT_HISTORY_SIZE);
  });
});
