// The chat's input rules on a real pseudo-terminal: a bracketed paste is one prompt, and Ctrl-C never ends
// the session on its own — only a second within the window does.
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { processesNaming, scriptedStdioServer } from "../mcp/test-support/scripted-stdio-server.js";
import { replyEvents } from "../model/test-support/sse-replies.js";
import { ptyChatPerTest, startPtyChat } from "./test-support/pty-chat.js";

const each = ptyChatPerTest();

describe("the chat on a terminal", () => {
  it("announces a server that disconnects above the input line, which keeps what was being typed and the cursor", async () => {
    const toolsFile = join(each.project.dir, "tools.txt");
    await writeFile(toolsFile, "echo\n");
    const server = scriptedStdioServer(`--tools-from=${toolsFile}`);
    await writeFile(join(each.project.dir, "mcp.config.json"), JSON.stringify({ mcpServers: { fragile: server } }));
    const chat = (each.chat = await startPtyChat(each.project, ["--trust-project"]));
    chat.type("half typed");
    // The cursor three characters back, before "ped".
    chat.type("\u001b[D\u001b[D\u001b[D");
    await chat.until(/half typed/);
    // The server itself, not the bubblewrap that gives it a PID namespace of its own (two processes naming it too).
    const running = processesNaming(toolsFile).filter((pid) => readFileSync(`/proc/${pid}/comm`, "utf8").trim() !== "bwrap");
    expect(running).toHaveLength(1);
    for (const pid of running) process.kill(pid, "SIGTERM");
    await chat.until(/mcp: fragile: disconnected: [^\n]*\n[\s\S]*› [^\n]*half typed/);
    // Typed where the cursor was, then at the end (Ctrl-E).
    chat.type("X\u0005 and sent\r");
    await chat.until(/You asked: "half tyXped and sent"/);
    chat.type("\u0004");
    expect(await chat.exited).toBe(0);
  }, 30_000);


  it("turns on bracketed paste and sends a pasted block of lines as one prompt", async () => {
    const chat = (each.chat = await startPtyChat(each.project));
    expect(chat.screen()).toContain("\u001b[?2004h");
    chat.type("\u001b[200~first line\rsecond line\rthird line\u001b[201~\r");
    // The mock model repeats the prompt it got: all three lines, in one prompt.
    await chat.until(/You asked: "first line\\nsecond line\\nthird line"/);
    chat.type("\u0004");
    expect(await chat.exited).toBe(0);
    expect(chat.screen()).toContain("\u001b[?2004l");
  }, 30_000);

  it("does not end on one Ctrl-C at an empty prompt, says how to, and ends on a second within the window", async () => {
    const chat = (each.chat = await startPtyChat(each.project));
    chat.type("\u0003");
    await chat.until(/Ctrl-C again now to exit, or Ctrl-D/);
    chat.type("still here\r");
    await chat.until(/You asked: "still here"/);
    chat.type("\u0003");
    chat.type("\u0003");
    expect(await chat.exited).toBe(0);
  }, 30_000);

  it("shows each turn's tokens and estimated cost, /cost and /status, and /model switches the next turn's model", async () => {
    const reply = (model: string) => ({ kind: "stream" as const, events: replyEvents(model, [{ type: "text", chunks: ["Hi there."] }], "end_turn") });
    const chat = await each.startApiChat([reply("claude-sonnet-5-5"), reply("claude-haiku-4-5")], ["--model", "claude-sonnet-5-5"]);
    chat.type("hello\r");
    // The fake reports 25 input tokens and 12 output tokens: $3 and $15 per million.
    await chat.until(/25 tokens in \(0 read from cache, 0 written\) · 12 out · ~\$0\.0003 this turn/);
    chat.type("/cost\r");
    await chat.until(/1 model request: 25 tokens in/);
    chat.type("/status\r");
    await chat.until(/model: claude-sonnet-5-5[\s\S]*context: 25 tokens at the last request \(of 200,000\)[\s\S]*session: \d{8}-\d{6}-\d+/);
    chat.type("/model claude-haiku-4-5\r");
    await chat.until(/the next turn uses claude-haiku-4-5/);
    chat.type("again\r");
    // Haiku: $1 and $5 per million: 0.000085 this turn, 0.00034 in all.
    await chat.until(/~\$0\.0001 this turn · ~\$0\.0003 this session/);
    chat.type("\u0004");
    expect(await chat.exited).toBe(0);
    expect(each.api?.requests.map((request) => (typeof request.body === "object" && request.body !== null && "model" in request.body ? request.body.model : null))).toEqual([
      "claude-sonnet-5-5",
      "claude-haiku-4-5",
    ]);
  }, 30_000);
});
