// In a file of its own: the question prompts' colour library decides once, when it is first loaded, and
// this file's module graph loads it only after NO_COLOR has been honoured.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { honourNoColor } from "./program.js";
import { createPromptsAsker } from "./terminal.js";
import { waitFor } from "./test-support/wait-for.js";

describe("NO_COLOR", () => {
  it("keeps the approval and input questions free of colour codes", async () => {
    const env: NodeJS.ProcessEnv = { NO_COLOR: "1" };
    honourNoColor(env);
    expect(env.NODE_DISABLE_COLORS).toBe("1");
    process.env.NODE_DISABLE_COLORS = env.NODE_DISABLE_COLORS;
    const stdin = Object.assign(new PassThrough(), { isTTY: true as const, setRawMode: () => stdin });
    const stdout = new PassThrough();
    let shown = "";
    stdout.on("data", (chunk: Buffer) => (shown += chunk.toString("utf8")));
    const asker = createPromptsAsker({ stdin, stdout });
    const answer = asker.select("Allow bash?", [
      { title: "Allow once", value: "once" },
      { title: "Deny", value: "deny" },
    ]);
    await waitFor("the question", () => shown.includes("Allow bash?"));
    stdin.write("\r");
    expect(await answer).toBe("once");
    expect(shown).toContain("Allow bash?");
    // SGR colour codes look like ESC [ <digits> m; cursor movement is fine.
    expect(shown).not.toMatch(/\u001b\[\d+(;\d+)*m/);
  });

  it("is left alone when NO_COLOR is empty or unset", () => {
    const env: NodeJS.ProcessEnv = { NO_COLOR: "" };
    honourNoColor(env);
    expect(env.NODE_DISABLE_COLORS).toBeUndefined();
  });
});
