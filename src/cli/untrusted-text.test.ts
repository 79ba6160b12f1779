import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HOSTILE, HOSTILE_SHOWN, hostileStdioServer, OBEYED_OR_HIDDEN } from "./test-support/hostile-text.js";
import { createTempProject, type TempProject } from "./test-support/run-cli.js";
import { untrustedJson, untrustedText } from "./untrusted-text.js";

describe("untrustedText", () => {
  it("shows escape sequences, control characters, bidi overrides and hidden characters as visible escapes", () => {
    expect(untrustedText(HOSTILE)).toBe(HOSTILE_SHOWN);
  });

  it("keeps tabs, newlines and non-ASCII letters, and ends Windows lines as newlines", () => {
    expect(untrustedText("a\tb\r\nÜmlaut ✓ 😀\n")).toBe("a\tb\nÜmlaut ✓ 😀\n");
  });
});

describe("untrustedJson", () => {
  it("prints JSON with no raw control, bidi or hidden character that reads back as the same value", () => {
    const value = { text: HOSTILE, n: 1 };
    const printed = untrustedJson(value);
    const text = String.raw`"ok\u001b]52;c;ZWNobyBwd25lZA==\u0007\u001b[2J\u001b[1;1H\rgone\u009b31m\u202eevil\u200b\udb40\udc41"`;
    expect(printed).toBe(`{\n  "text": ${text},\n  "n": 1\n}\n`);
    expect(JSON.parse(printed)).toEqual(value);
  });
});

describe("what mca prints from a hostile MCP server", () => {
  let project: TempProject;
  beforeEach(async () => {
    project = await createTempProject();
    const config = { mcpServers: { h: hostileStdioServer(), dead: hostileStdioServer("--exit-at-start") } };
    await writeFile(join(project.dir, "hostile.json"), JSON.stringify(config));
    await writeFile(join(project.dir, "script.json"), JSON.stringify([[{ name: "mcp__h__hostile" }], `the model says ${HOSTILE}`]));
  });
  afterEach(async () => {
    await project.remove();
  });

  const run = (args: readonly string[], stdin = "") =>
    project.run(["--mcp-config", "hostile.json", "--allow", "mcp__h__hostile", ...args], stdin, { MCA_MOCK_SCRIPT: "script.json" });

  it("shows it in pipe mode's /call, /mcp, /tools, start-up failures, progress, result previews and the model's text", async () => {
    const { stdout, stderr } = await run([], "/call mcp__h__hostile {}\n/mcp\n/tools\ngo\n");
    for (const output of [stdout, stderr]) expect(output).not.toMatch(OBEYED_OR_HIDDEN);
    expect(stdout).toContain(`result ${HOSTILE_SHOWN}\n`);
    expect(stdout).toContain(`  stderr| ${HOSTILE_SHOWN}\n`);
    expect(stdout).toContain(`the model says ${HOSTILE_SHOWN}`);
    expect(stderr).toContain(`mcp: dead (stdio) failed: the server exited with code 3 (signal none); stderr: ${HOSTILE_SHOWN}\n`);
    expect(stderr).toContain(`[progress] ${HOSTILE_SHOWN} (1)\n`);
    // The server's stray stdout line, quoted in its warning, is shown too.
    expect(stderr).toMatch(/^mcp: h: .*not json /m);
    expect(stderr).toContain(`[mcp__h__hostile] ok: result ${HOSTILE_SHOWN}\n`);
  });

  it("shows it in the subcommands' plain and JSON output", async () => {
    const call = await run(["call", "mcp__h__hostile"]);
    const tools = await run(["tools", "--json"]);
    const list = await run(["mcp", "list"]);
    for (const output of [call, tools, list].flatMap((result) => [result.stdout, result.stderr])) {
      expect(output).not.toMatch(OBEYED_OR_HIDDEN);
    }
    expect(call.stdout).toBe(`result ${HOSTILE_SHOWN}\n`);
    // Escaped in the JSON text, the same string once parsed.
    // The hostile server titles its tool with the same text: the model reads the title quoted, as JSON writes it.
    const description = `[MCP server "h" (stdio), tool "hostile", titled ${JSON.stringify(HOSTILE)}] Says ${HOSTILE}`;
    expect(JSON.parse(tools.stdout)).toContainEqual(expect.objectContaining({ name: "mcp__h__hostile", description }));
    expect(list.stdout).toContain(`  stderr| ${HOSTILE_SHOWN}\n`);
  });
});
