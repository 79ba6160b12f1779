import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempProjectPerTest } from "../tools/test-support/temp-project.js";
import { appendPromptHistory, loadPromptHistory, PROMPT_HISTORY_SIZE, promptHistoryFile } from "./prompt-history.js";

describe("prompt history", () => {
  const root = tempProjectPerTest("mca-history-");
  const env = () => ({ XDG_STATE_HOME: join(root(), "state") });

  it("is kept per project in the user's state folder, newest first, readable by the user only", async () => {
    const file = promptHistoryFile(root(), env());
    expect(file.startsWith(join(root(), "state", "mca", "projects"))).toBe(true);
    expect(promptHistoryFile(join(root(), "other"), env())).not.toBe(file);
    appendPromptHistory(file, "first");
    appendPromptHistory(file, "second");
    expect(loadPromptHistory(file)).toEqual(["second", "first"]);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("drops what is not a plain one-line prompt, so a planted line cannot reach the terminal", async () => {
    const file = promptHistoryFile(root(), env());
    appendPromptHistory(file, "ok");
    await writeFile(file, `${await readFile(file, "utf8")}"\\u001b]52;c;ZXZpbA==\\u0007"\nnot json\n"two\\nlines"\n"fine"\n`);
    expect(loadPromptHistory(file)).toEqual(["fine", "ok"]);
    appendPromptHistory(file, "evil \u001b[2J");
    expect(loadPromptHistory(file)).toEqual(["fine", "ok"]);
  });

  it("keeps at most PROMPT_HISTORY_SIZE prompts", async () => {
    const file = promptHistoryFile(root(), env());
    for (let index = 0; index < 2 * PROMPT_HISTORY_SIZE + 5; index += 1) appendPromptHistory(file, `p${index}`);
    const loaded = loadPromptHistory(file);
    expect(loaded).toHaveLength(PROMPT_HISTORY_SIZE);
    expect(loaded[0]).toBe(`p${2 * PROMPT_HISTORY_SIZE + 4}`);
    // Loading cut the file itself back, so it does not grow without end.
    expect((await readFile(file, "utf8")).trim().split("\n")).toHaveLength(PROMPT_HISTORY_SIZE);
  });
});
