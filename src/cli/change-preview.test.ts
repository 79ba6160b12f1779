import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import type { ApprovalRequest, Tool } from "../kernel/index.js";
import { createLocalTools } from "../tools/index.js";
import { tempProjectPerTest } from "../tools/test-support/temp-project.js";
import { promptForApproval } from "./approval.js";
import { previewCall } from "./change-preview.js";
import { HOSTILE, HOSTILE_SHOWN } from "./test-support/hostile-text.js";
import { createScriptedAsker } from "./test-support/scripted-asker.js";

const plain = new Chalk({ level: 0 });

describe("previewCall", () => {
  const project = tempProjectPerTest("mca-preview-");
  const tool = (name: string): Tool => {
    const found = createLocalTools(project()).find((candidate) => candidate.name === name);
    if (found === undefined) throw new Error(`no local tool ${name}`);
    return found;
  };

  it("shows write_file over an existing file as a unified diff against the file as it is", async () => {
    await writeFile(join(project(), "a.txt"), "one\ntwo\nthree\n");
    const lines = await previewCall(tool("write_file"), { path: "a.txt", content: "one\nTWO\nthree\n" }, plain);
    expect(lines).toEqual(["  --- a.txt", "  +++ a.txt", "  @@ -1,3 +1,3 @@", "   one", "  -two", "  +TWO", "   three"]);
  });

  it("shows a new file as its length and its lines", async () => {
    const content = Array.from({ length: 25 }, (_, index) => `line ${index}`).join("\n");
    const lines = await previewCall(tool("write_file"), { path: "new.txt", content }, plain);
    expect(lines[0]).toBe(`  new file new.txt: 25 lines, ${Buffer.byteLength(content)} bytes`);
    expect(lines[1]).toBe("  +line 0");
    expect(lines.at(-1)).toBe("  +line 24");
  });

  it("shows edit_file as the diff of the replacement, and says when the text is not there", async () => {
    await writeFile(join(project(), "b.txt"), "alpha\nbeta\n");
    expect(await previewCall(tool("edit_file"), { path: "b.txt", old_string: "beta", new_string: "gamma" }, plain)).toEqual([
      "  --- b.txt",
      "  +++ b.txt",
      "  @@ -1,2 +1,2 @@",
      "   alpha",
      "  -beta",
      "  +gamma",
    ]);
    expect(await previewCall(tool("edit_file"), { path: "b.txt", old_string: "zeta", new_string: "x" }, plain)).toEqual([
      "  the text to replace is not in b.txt: the edit will fail",
    ]);
  });

  it("says that a named pipe where the file should be is not a regular file, instead of waiting for a writer", async () => {
    execFileSync("mkfifo", [join(project(), "pipe")]);
    const [write, edit] = await Promise.all([
      previewCall(tool("write_file"), { path: "pipe", content: "x" }, plain),
      previewCall(tool("edit_file"), { path: "pipe", old_string: "a", new_string: "b" }, plain),
    ]);
    expect([write, edit]).toEqual([
      ["  pipe is not a regular file (a pipe, socket or device): the call will fail"],
      ["  pipe is not a regular file (a pipe, socket or device): the call will fail"],
    ]);
  });

  it("shows bash as the command itself, and hostile text in a file or command made visible", async () => {
    expect(await previewCall(tool("bash"), { command: "git status" }, plain)).toEqual(["  $ git status"]);
    await writeFile(join(project(), "c.txt"), `${HOSTILE}\n`);
    const lines = await previewCall(tool("write_file"), { path: "c.txt", content: "safe\n" }, plain);
    expect(lines).toContain(`  -${HOSTILE_SHOWN}`);
    expect(lines.join("\n")).not.toContain("\u001b");
  });

  it("says first what a bash call asks beyond the sandbox, with the model's reason made visible", async () => {
    const bash = tool("bash");
    const previews = await Promise.all([
      previewCall(bash, { command: "npm publish", sandbox: false, reason: "it needs my ~/.npmrc\nand the registry" }, plain),
      previewCall(bash, { command: "npm install", network: true, reason: "to fetch the lockfile's packages" }, plain),
      previewCall(bash, { command: "npm install", network: true }, plain),
      previewCall(bash, { command: "npm ci", sandbox: false, network: true, reason: HOSTILE }, plain),
      previewCall(bash, { command: "ls", sandbox: true, network: false, reason: "none needed" }, plain),
    ]);
    expect(previews).toEqual([
      ["  runs OUTSIDE the sandbox — the model says: it needs my ~/.npmrc", "    and the registry", "  $ npm publish"],
      ["  asks for the network — the model says: to fetch the lockfile's packages", "  $ npm install"],
      ["  asks for the network — the model gives no reason", "  $ npm install"],
      [`  runs OUTSIDE the sandbox — the model says: ${HOSTILE_SHOWN}`, "  $ npm ci"],
      ["  $ ls"],
    ]);
  });

  it("cuts a long preview to the screen and shows all of it on request before asking again", async () => {
    const content = Array.from({ length: 60 }, (_, index) => `row ${index}`).join("\n");
    const request: ApprovalRequest = { tool: tool("write_file"), args: { path: "long.txt", content }, decision: { verdict: "ask", reason: "default for write tools: ask" }, sessionAllow: { kind: "tool", tool: "write_file" } };
    const asker = createScriptedAsker(["more", "once"]);
    expect(await promptForApproval(request, plain, asker, 30)).toBe("once");
    const [first, question, all, again] = asker.transcript;
    expect(first?.split("\n").length).toBeLessThan(30);
    expect(first).toContain("more lines");
    expect(question).toBe("select: Allow write_file? [once|session|deny|why|more]");
    expect(all).toContain("row 19");
    expect(again).toBe("select: Allow write_file? [once|session|deny|why|more]");
  });
});
