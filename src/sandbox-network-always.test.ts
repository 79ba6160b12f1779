// Through the real CLI on a terminal: "Always allow connections to X" at the network question lets the sandboxed
// command's request through, keeps network(X) in the user's settings file, and a later chat's command reaches X
// without a question. The server listens on this machine's own non-loopback address (port 0): the proxy never
// dials the host's loopback, whatever a rule allows, so an address of the host's network interface stands in
// for a domain on the internet.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { ptyChatPerTest, startPtyChat, type PtyChat } from "./cli/test-support/pty-chat.js";
import { describeWithBubblewrap } from "./tools/test-support/bubblewrap.js";

/** The first IPv4 address of a network interface other than loopback, if this machine has one. */
const HOST_ADDRESS = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry !== undefined && entry.family === "IPv4" && !entry.internal)?.address;

const each = ptyChatPerTest();
let server: Server | undefined;

afterEach(() => {
  server?.close();
  server = undefined;
});

/** An HTTP server on `address` that answers every request with its path, and counts them. */
async function serve(address: string): Promise<{ readonly port: number; readonly requests: () => readonly string[] }> {
  const requests: string[] = [];
  const listening = createServer((request, response) => {
    requests.push(request.url ?? "");
    response.writeHead(200, { "content-type": "text/plain" }).end(`hello from ${request.url ?? ""}\n`);
  });
  server = listening;
  await new Promise<void>((resolve) => listening.listen(0, address, resolve));
  const bound = listening.address();
  return { port: typeof bound === "object" && bound !== null ? bound.port : 0, requests: () => requests };
}

/** Runs `command` through bash in a new chat on a terminal and waits for its end; the chat is then closed. */
async function chatRuns(command: string, answer: (chat: PtyChat) => Promise<void>): Promise<string> {
  const started = await startPtyChat(each.project, ["--allow", "bash(curl *)"], { MOCK: "1" }, "source");
  each.chat = started;
  started.type(`call bash ${JSON.stringify({ command })}\r`);
  await answer(started);
  await started.until(/bash (succeeded|failed): /);
  started.type("\u0004");
  expect(await started.exited).toBe(0);
  each.chat = undefined;
  return started.screen();
}

describeWithBubblewrap("'Always allow connections to X' at the network question", () => {
  it.skipIf(HOST_ADDRESS === undefined)("lets the request through, keeps network(X) in the user's settings, and a later chat reaches X without a question", async () => {
    const address = HOST_ADDRESS ?? "";
    const target = await serve(address);
    const always = `Always allow connections to ${address} (adds network(${address}) to your settings)`;

    await chatRuns(`curl -sS -o first.txt http://${address}:${target.port}/first`, async (first) => {
      await first.until(new RegExp(always.replace(/[.()]/gu, "\\$&")));
      // Allow once, for this session, always, deny: the third.
      first.type("\u001b[B\u001b[B\r");
    });
    expect(readFileSync(join(each.project.dir, "first.txt"), "utf8")).toBe("hello from /first\n");
    expect(JSON.parse(readFileSync(join(each.project.home, ".config", "mca", "settings.json"), "utf8"))).toEqual({ permissions: { allow: [`network(${address})`] } });

    const second = await chatRuns(`curl -sS -o second.txt http://${address}:${target.port}/second`, async () => undefined);
    expect(readFileSync(join(each.project.dir, "second.txt"), "utf8")).toBe("hello from /second\n");
    expect(second).not.toContain("Allow connections to");
    expect(target.requests()).toEqual(["/first", "/second"]);
  }, 60_000);

  it.skipIf(HOST_ADDRESS === undefined)("says in one line that the rule could not be kept, and still lets the request through", async () => {
    const address = HOST_ADDRESS ?? "";
    const target = await serve(address);
    // A settings file that is a link (to a dotfiles folder, say) is read, but never written through.
    const dotfile = join(each.project.home, "dotfiles-settings.json");
    writeFileSync(dotfile, "{}\n");
    mkdirSync(join(each.project.home, ".config", "mca"), { recursive: true });
    symlinkSync(dotfile, join(each.project.home, ".config", "mca", "settings.json"));

    const screen = await chatRuns(`curl -sS -o first.txt http://${address}:${target.port}/first`, async (first) => {
      await first.until(/Always allow connections to/);
      first.type("\u001b[B\u001b[B\r");
    });
    expect(readFileSync(join(each.project.dir, "first.txt"), "utf8")).toBe("hello from /first\n");
    expect(screen.replace(/\s+/gu, " ")).toContain(`mca: network(${address}) is allowed for this session only: it could not be added to your settings`);
    expect(readFileSync(dotfile, "utf8")).toBe("{}\n");
  }, 30_000);
});
