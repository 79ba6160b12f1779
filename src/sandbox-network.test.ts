// Through the real CLI: a sandboxed command's HTTP(S) goes through mca's proxy. Without a terminal a domain
// no rule allows is refused at once with the proxy's 403, naming the rule that would allow it; and no name,
// allowed or not, reaches the host's own loopback services.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ptyChatPerTest, startPtyChat } from "./cli/test-support/pty-chat.js";
import { describeWithBubblewrap } from "./tools/test-support/bubblewrap.js";
import { listenOnLoopback } from "./tools/test-support/loopback-listener.js";

const each = ptyChatPerTest();

describeWithBubblewrap("a sandboxed command's HTTP(S) in a run without a terminal", () => {
  it("is refused at once for a domain no rule allows, the 403 and stderr naming the rule that would allow it", async () => {
    const run = await each.project.run(["--allow", "bash(curl *)", "-p", 'call bash {"command":"curl -sS -o answer.txt http://example.invalid/"}'], "");
    const reason = 'example.invalid needs approval (bash\'s command connects to it) and there is no terminal to ask on; run mca with --allow "network(example.invalid)" to allow it';
    expect(readFileSync(join(each.project.dir, "answer.txt"), "utf8")).toContain(`mca refused the connection to example.invalid: ${reason}.`);
    expect(run.stderr.split("\n").filter((line) => line.startsWith("not run:"))).toEqual([`not run: ${reason}`]);
  });

  it("never reaches the host's loopback, even for a name a rule allows", async () => {
    const listener = await listenOnLoopback();
    try {
      const command = `curl -sS -o answer.txt http://localhost:${listener.port}/`;
      await each.project.run(["--allow", "bash(curl *)", "--allow", "network(localhost)", "-p", `call bash ${JSON.stringify({ command })}`], "");
      expect(readFileSync(join(each.project.dir, "answer.txt"), "utf8")).toContain(`mca's proxy: localhost is the host's own loopback or link-local address, which sandboxed commands never reach (use "network": true)`);
      expect(listener.connections()).toBe(0);
    } finally {
      listener.close();
    }
  });
});

describeWithBubblewrap("a sandboxed command's HTTP(S) in the chat", () => {
  it("asks about a new domain while the command runs, and a denial reaches the command as the proxy's 403", async () => {
    const chat = (each.chat = await startPtyChat(each.project, ["--allow", "bash(curl *)"], { MOCK: "1" }, "source"));
    chat.type(`call bash ${JSON.stringify({ command: "curl -sS -o answer.txt http://example.invalid/" })}\r`);
    await chat.until(/Allow connections to example\.invalid for this session/);
    expect(chat.screen()).toContain("Allow connections to example.invalid?");
    // Allow once, for this session, always, deny: the fourth.
    chat.type("\u001b[B\u001b[B\u001b[B\r");
    await chat.until(/bash (succeeded|failed): /);
    chat.type("\u0004");
    expect(await chat.exited).toBe(0);
    expect(readFileSync(join(each.project.dir, "answer.txt"), "utf8")).toContain("mca refused the connection to example.invalid: denied by the user.");
  }, 30_000);
});
