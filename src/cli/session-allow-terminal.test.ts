// "Allow for this session" on a real pseudo-terminal: the choice names the command's own words, and
// answering it lets later commands with those words run unasked while any other command still asks.
import { mkdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ptyChatPerTest, startPtyChat } from "./test-support/pty-chat.js";

const DOWN = "\u001b[B";

const each = ptyChatPerTest();

const approvals = (screen: string): number => screen.split("approval needed:").length - 1;

describe("allow for this session on a terminal", () => {
  it("covers the command's prefix named in its label: a git status variant runs unasked, rm -rf asks", async () => {
    await mkdir(join(each.project.dir, "keep"));
    const chat = (each.chat = await startPtyChat(each.project));
    const bash = (command: string): void => chat?.type(`call bash ${JSON.stringify({ command })}\r`);

    bash("git status --short");
    await chat.until(/Allow `git status …` for this session/);
    chat.type(DOWN);
    chat.type("\r");
    await chat.until(/bash (succeeded|failed): /);
    const afterFirst = chat.screen().length;

    bash("git status --porcelain");
    await chat.until(/bash (succeeded|failed): [\s\S]*bash (succeeded|failed): /);
    expect(approvals(chat.screen().slice(afterFirst))).toBe(0);

    bash("rm -rf keep");
    await chat.until(/Allow `rm …` for this session/);
    expect(approvals(chat.screen())).toBe(2);
    chat.type(`${DOWN}${DOWN}\r`);
    await chat.until(/bash failed: "Denied by the user\."/);
    chat.type("/approvals\r");
    await chat.until(/allowed for this session: bash\(git status\*\)/);
    chat.type("\u0004");
    expect(await chat.exited).toBe(0);
    expect((await stat(join(each.project.dir, "keep"))).isDirectory()).toBe(true);
  }, 30_000);
});
