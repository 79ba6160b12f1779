// `mca mcp add`, `get` and `import` through the real CLI, stdin piped (so no terminal), in a temporary HOME.
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "./test-support/run-cli.js";

const SECRET = "s3cr3t-value-0123456789";

let project: TempProject;

beforeEach(async () => {
  project = await createTempProject();
});

afterEach(async () => {
  await project.remove();
});

function localStore(): string {
  return join(project.home, ".config", "mca", "local-mcp.json");
}

async function cursorServers(): Promise<string> {
  const file = join(project.dir, ".cursor", "mcp.json");
  await mkdir(join(project.dir, ".cursor"));
  await writeFile(file, JSON.stringify({ mcpServers: { search: { url: "https://search.example/mcp", headers: { API_KEY: SECRET } } } }));
  return file;
}

describe("mca mcp import (the CLI)", () => {
  it("without a terminal and without --yes shows what it would add, adds nothing and exits 1 naming --yes", async () => {
    const file = await cursorServers();
    const run = await project.run(["mcp", "import", "cursor"], "");
    expect(run).toEqual({
      code: 1,
      stdout: `cursor: 1 server to add to the local scope (${localStore()}):\n  search  https://search.example/mcp  headers: {"API_KEY":"[hidden]"}  (from ${file})\n`,
      stderr: "mca mcp import: no terminal to ask; nothing was added. Run it again with --yes to add them\n",
    });
    expect(existsSync(localStore())).toBe(false);
  });

  it("with --yes adds the servers, and a second import skips them with a line", async () => {
    const file = await cursorServers();
    expect((await project.run(["mcp", "import", "cursor", "--yes"], "")).code).toBe(0);
    const store = JSON.parse(readFileSync(localStore(), "utf8"));
    expect(Object.values(store.projects)).toEqual([{ mcpServers: { search: { url: "https://search.example/mcp", headers: { API_KEY: SECRET } } } }]);
    const again = await project.run(["mcp", "import", "cursor", "--yes"], "");
    expect(again).toEqual({
      code: 0,
      stdout: `  skipped search (${file}): already in the local scope (${localStore()})\nnothing to add from cursor to the local scope\n`,
      stderr: "",
    });
  });

  it("refuses a host it does not know", async () => {
    const run = await project.run(["mcp", "import", "zed"], "");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("'zed' is invalid for argument 'host'. Allowed choices are claude-code, claude-desktop, cursor, vscode, gemini, codex, windsurf.");
  });
});

describe("mca mcp add and get (the CLI)", () => {
  it("write a stdio server given after --, and never print its secret", async () => {
    const add = await project.run(["mcp", "add", "-s", "user", "github", "-e", `GITHUB_TOKEN=${SECRET}`, "--", "npx", "-y", "@modelcontextprotocol/server-github"], "");
    const get = await project.run(["mcp", "get", "github"], "");
    expect([add.code, get.code]).toEqual([0, 0]);
    expect(`${add.stdout}${add.stderr}${get.stdout}${get.stderr}`).not.toContain(SECRET);
    expect(get.stdout).toContain('  env: {"GITHUB_TOKEN":"[hidden]"}\n');
    expect(JSON.parse(readFileSync(join(project.home, ".config", "mca", "mcp.json"), "utf8"))).toEqual({
      mcpServers: { github: { type: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: { GITHUB_TOKEN: SECRET } } },
    });
  });

  it("suggest ${VAR} templates for secrets in the help", async () => {
    const help = await project.run(["mcp", "add", "--help"], "");
    expect(help.stdout).toContain("mca mcp add github -e GITHUB_TOKEN='${GITHUB_TOKEN}' -- npx -y @modelcontextprotocol/server-github");
  });
});
