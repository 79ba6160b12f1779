import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempProjectPerTest } from "../../tools/test-support/temp-project.js";
import { findAnswer, loadInputAnswers, parseInputAnswers, unknownAliasError, type InputAnswers } from "./answers-file.js";

const FILE = "answers.json";

function parsed(text: string): InputAnswers {
  const answers = parseInputAnswers(text, FILE);
  if (answers instanceof Error) throw answers;
  return answers;
}

function problem(text: string): string | undefined {
  const answers = parseInputAnswers(text, FILE);
  return answers instanceof Error ? answers.message : undefined;
}

describe("parseInputAnswers", () => {
  it("reads answers by server alias, tool and input request key", () => {
    const answers = parsed(
      JSON.stringify({
        tickets: { close_ticket: { confirm: { action: "accept", content: { confirm: true } } } },
        ops: { deploy: { who: { action: "accept", content: { login: "octo", count: 2, tags: ["a"] } }, why: { action: "decline" } } },
      }),
    );
    expect(findAnswer(answers, "tickets", "close_ticket", "confirm")).toEqual({ answer: { action: "accept", content: { confirm: true } }, place: "tickets.close_ticket.confirm" });
    expect(findAnswer(answers, "ops", "deploy", "who")?.answer).toEqual({ action: "accept", content: { login: "octo", count: 2, tags: ["a"] } });
    expect(findAnswer(answers, "ops", "deploy", "why")?.answer).toEqual({ action: "decline" });
    expect(findAnswer(answers, "ops", "deploy", "other")).toBeUndefined();
    expect(findAnswer(answers, "tickets", "deploy", "confirm")).toBeUndefined();
  });

  it("keeps a field named __proto__ as an ordinary field", () => {
    const answers = parsed('{"s": {"t": {"k": {"action": "accept", "content": {"__proto__": "x"}}}}}');
    expect(Object.keys(findAnswer(answers, "s", "t", "k")?.answer ?? {})).toEqual(["action", "content"]);
    const answer = findAnswer(answers, "s", "t", "k")?.answer;
    expect(answer?.action === "accept" ? Object.entries(answer.content ?? {}) : []).toEqual([["__proto__", "x"]]);
  });

  it("names the file, line, column and place of each mistake", () => {
    expect(problem("{")).toBe("answers.json:1:2: invalid JSON: unexpected end of file, expected a property name in double quotes");
    expect(problem('{"s": []}')).toBe("answers.json:1:7: s: must be an object, not an array");
    expect(problem('{"s": {"t": {"k": {"content": {}}}}}')).toBe("answers.json:1:19: s.t.k.action: is required");
    expect(problem('{"s": {"t": {"k": {"action": "yes"}}}}')).toBe('answers.json:1:30: s.t.k.action: must be "accept", "decline" or "cancel"');
    expect(problem('{"s": {"t": {"k": {"action": "decline", "content": {}}}}}')).toBe('answers.json:1:52: s.t.k.content: only an "accept" carries content');
    expect(problem('{"s": {"t": {"k": {"action": "accept", "content": {"a": {"b": 1}}}}}}')).toBe(
      "answers.json:1:57: s.t.k.content.a: must be a string, a number, true or false, or a list of strings",
    );
    expect(problem('{"s": {"t": {"k": {"action": "accept", "note": 1}}}}')).toBe("answers.json:1:40: s.t.k.note: unknown field (expected one of: action, content)");
    expect(problem('{"s": {}, "s": {}}')).toBe('answers.json:1:11: s: duplicate key "s": it is written more than once');
  });
});

describe("unknownAliasError", () => {
  it("names an alias the config does not have, with its line", () => {
    const answers = parsed('{\n  "tickets": {},\n  "tickest": {}\n}');
    expect(unknownAliasError(answers, ["tickets", "notes"])?.message).toBe('answers.json:3:3: tickest: no MCP server has this alias (the configured servers are "tickets", "notes")');
    expect(unknownAliasError(answers, [])?.message).toBe("answers.json:2:3: tickets: no MCP server has this alias (no MCP servers are configured)");
    expect(unknownAliasError(parsed('{"tickets": {}}'), ["tickets"])).toBeUndefined();
  });
});

describe("loadInputAnswers", () => {
  const project = tempProjectPerTest("mca-answers-");

  it("reads the file, and says when it cannot", async () => {
    await writeFile(join(project(), FILE), '{"tickets": {}}');
    expect(await loadInputAnswers(join(project(), FILE), FILE)).toMatchObject({ file: FILE });
    const missing = await loadInputAnswers(join(project(), "nope.json"), "nope.json");
    expect(missing instanceof Error ? missing.message : missing).toMatch(/^nope\.json: cannot read the file: ENOENT/);
  });
});
