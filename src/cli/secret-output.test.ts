// End to end: the real CLI against a fake Messages API on loopback, whose model streams the API key cut
// across two text deltas, base64-encoded, and inside a tool's arguments. No output of mca shows it.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeMessagesApi, type FakeMessagesApi } from "../model/test-support/fake-messages-api.js";
import { replyEvents } from "../model/test-support/sse-replies.js";
import { createTempProject, type TempProject } from "./test-support/run-cli.js";

/** 27 characters: its base64 has no partial last group, so the whole encoding is redacted. */
const KEY = "sk-ant-test-0123456789abcde";
const KEY_BASE64 = Buffer.from(KEY).toString("base64");
const KEY_JSON = JSON.stringify(KEY);

let project: TempProject;
let api: FakeMessagesApi;

beforeEach(async () => {
  project = await createTempProject();
  api = await startFakeMessagesApi([
    {
      kind: "stream",
      events: replyEvents(
        "claude-test",
        [
          { type: "text", chunks: ["The key is ", KEY.slice(0, 9), `${KEY.slice(9)}; in base64 ${KEY_BASE64.slice(0, 20)}`, `${KEY_BASE64.slice(20)}.`] },
          { type: "tool_use", id: "toolu_1", name: "read_file", jsonChunks: [`{"path":${KEY_JSON.slice(0, 12)}`, `${KEY_JSON.slice(12)}}`] },
        ],
        "tool_use",
      ),
    },
    { kind: "stream", events: replyEvents("claude-test", [{ type: "text", chunks: ["Done: ", KEY.slice(0, 20), KEY.slice(20)] }], "end_turn") },
  ]);
});

afterEach(async () => {
  await api.close();
  await project.remove();
});

const run = (...args: string[]) => project.run(["-p", "show me", ...args], "", { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: api.baseURL });

describe("mca's output with a secret the model streams", () => {
  it("prints the answer with every form of the key redacted, wherever the deltas cut it", async () => {
    const { code, stdout, stderr } = await run();
    expect({ code, stdout }).toEqual({ code: 0, stdout: "Done: [redacted]\n" });
    expect(stderr).toContain('[read_file] {"path":"[redacted]"}');
    expect(stderr).toContain("[read_file] failed:");
    for (const text of [stdout, stderr]) expect(text).not.toMatch(/0123456789|sk-ant-te|MDEyMzQ1Njc4/);
  });

  it("writes stream-json events and the transcript without the key", async () => {
    const { code, stdout } = await run("--output-format", "stream-json");
    expect(code).toBe(0);
    const texts = stdout
      .trim()
      .split("\n")
      .map((line): unknown => JSON.parse(line))
      .flatMap((line) => (typeof line === "object" && line !== null && "type" in line && line.type === "assistant" && "message" in line ? [line.message] : []))
      .flatMap((message) => (typeof message === "object" && message !== null && "content" in message && Array.isArray(message.content) ? message.content : []))
      .flatMap((block: unknown) => (typeof block === "object" && block !== null && "text" in block && typeof block.text === "string" ? [block.text] : []));
    expect(texts.join("")).toBe("The key is [redacted]; in base64 [redacted].Done: [redacted]");
    const transcripts = await readdir(project.sessionsDir);
    const transcript = await readFile(join(project.sessionsDir, transcripts[0] ?? ""), "utf8");
    for (const text of [stdout, transcript]) expect(text).not.toMatch(/0123456789|MDEyMzQ1Njc4/);
  });
});
