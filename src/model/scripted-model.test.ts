import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ModelRequest } from "../kernel/index.js";
import { SCRIPT_EXHAUSTED_TEXT, createScriptedModel } from "./scripted-model.js";

function request(): { request: ModelRequest; texts: string[] } {
  const texts: string[] = [];
  return {
    request: { system: "", messages: [], tools: [], signal: new AbortController().signal, onText: (d) => texts.push(d) },
    texts,
  };
}

describe("createScriptedModel", () => {
  it("plays its turns in order: tool calls, then text, then a fixed text when it runs out", async () => {
    const model = createScriptedModel([
      [{ name: "read_file", input: { path: "a" } }, { name: "list_dir" }],
      "All done.",
    ]);
    expect(await model.complete(request().request)).toEqual({
      message: {
        role: "assistant",
        content: [
          { type: "tool_use", id: "scripted_1", name: "read_file", input: { path: "a" } },
          { type: "tool_use", id: "scripted_2", name: "list_dir", input: {} },
        ],
      },
      stopReason: "tool_use",
    });
    const second = request();
    expect(await model.complete(second.request)).toEqual({
      message: { role: "assistant", content: [{ type: "text", text: "All done." }] },
      stopReason: "end_turn",
    });
    expect(second.texts).toEqual(["All done."]);
    expect((await model.complete(request().request)).message.content).toEqual([{ type: "text", text: SCRIPT_EXHAUSTED_TEXT }]);
  });

  describe("from a JSON file", () => {
    const withFile = async (content: string, body: (path: string) => Promise<void>) => {
      const folder = mkdtempSync(join(tmpdir(), "mca-script-"));
      try {
        const path = join(folder, "script.json");
        writeFileSync(path, content);
        await body(path);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    };

    it("reads the turns", () =>
      withFile('[[{"name": "bash", "input": {"command": "ls"}}], "ok"]', async (path) => {
        const reply = await createScriptedModel(path).complete(request().request);
        expect(reply.message.content).toEqual([{ type: "tool_use", id: "scripted_1", name: "bash", input: { command: "ls" } }]);
      }));

    it("throws naming the file, turn and call when a turn is malformed", () =>
      withFile('["ok", [{"input": {}}]]', async (path) => {
        expect(() => createScriptedModel(path)).toThrow(new Error(`mock script ${path}: turn 1, call 0 needs a string "name"`));
      }));

    it("throws naming the file when it is not JSON", () =>
      withFile("not json", async (path) => {
        expect(() => createScriptedModel(path)).toThrow(new RegExp(`^mock script ${path}: `));
      }));
  });
});
