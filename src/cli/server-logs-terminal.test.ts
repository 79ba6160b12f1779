// A server's log messages in the chat on a real pseudo-terminal: info and below are kept out of the
// conversation and read with /mcp logs <alias>; a warning is one line beside it; --verbose shows them all.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scriptedStdioServer } from "../mcp/test-support/scripted-stdio-server.js";
import { ptyChatPerTest, startPtyChat, type PtyChat } from "./test-support/pty-chat.js";

/** The scripted server's tool that answers, then sends one log message at the level it is given. */
const LOGGING_TOOL = "mcp__chatty__log-after";

const each = ptyChatPerTest(async (project) => {
  const toolsFile = join(project.dir, "tools.txt");
  await writeFile(toolsFile, "log-after\n");
  await writeFile(join(project.dir, "mcp.config.json"), JSON.stringify({ mcpServers: { chatty: scriptedStdioServer(`--tools-from=${toolsFile}`) } }));
});

/** The server logs at info, then at warning: once the warning is shown, the info message has been read too. */
async function logInfoThenWarning(chat: PtyChat): Promise<void> {
  chat.type(`/call ${LOGGING_TOOL} {"level":"info"}\r`);
  await chat.until(/logged/);
  chat.type(`/call ${LOGGING_TOOL} {"level":"warning"}\r`);
  await chat.until(/mcp: chatty warning scripted: a message at warning/);
}

describe("a server's log messages in the chat", () => {
  it("shows a warning as it comes and keeps an info message for /mcp logs only", async () => {
    const chat = (each.chat = await startPtyChat(each.project, ["--trust-project", "--allow", LOGGING_TOOL]));
    await logInfoThenWarning(chat);
    expect(chat.screen()).not.toContain("a message at info");
    chat.type("/mcp logs chatty\r");
    await chat.until(/info scripted: a message at info\r\n[^\n]*warning scripted: a message at warning/);
    chat.type("\u0004");
    expect(await chat.exited).toBe(0);
  }, 30_000);

  it("shows every level as it comes with --verbose", async () => {
    const chat = (each.chat = await startPtyChat(each.project, ["--trust-project", "--allow", LOGGING_TOOL, "--verbose"]));
    await logInfoThenWarning(chat);
    expect(chat.screen()).toContain("mcp: chatty info scripted: a message at info");
    chat.type("\u0004");
    expect(await chat.exited).toBe(0);
  }, 30_000);
});
