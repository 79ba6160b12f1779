// Each host's file as its documentation writes it, read by mca as one of its own (a scope's file, or
// --mcp-config): the shapes and spellings taken as the host means them. The fixtures follow each host's
// documentation, not mca's code:
// - Claude Code: https://code.claude.com/docs/en/mcp (.mcp.json, `${VAR}` and `${VAR:-default}`)
// - Claude Desktop: https://modelcontextprotocol.io/quickstart/user (claude_desktop_config.json)
// - Cursor: https://docs.cursor.com/context/mcp (mcpServers, `${env:NAME}`, `${userHome}`, `${workspaceFolder}`)
// - VS Code: https://code.visualstudio.com/docs/copilot/reference/mcp-configuration (servers, type, inputs)
// - Gemini CLI: https://github.com/google-gemini/gemini-cli/blob/main/docs/tools/mcp-server.md
// - Windsurf: https://docs.windsurf.com/windsurf/cascade/mcp (mcp_config.json, serverUrl)
// - Codex: https://github.com/openai/codex/blob/main/docs/config.md (config.toml, named and refused here)
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempProjectPerTest } from "../tools/test-support/temp-project.js";
import { ConfigError } from "./config-reader.js";
import { readScopeSource, type ServerScope } from "./mcp-scopes.js";

const root = tempProjectPerTest("mca-hosts-");

/** The file written in a temporary project and read as `scope` reads it; the project folder is the workspace. */
function readAs(scope: ServerScope, name: string, text: string, env: Record<string, string> = {}) {
  const projectDir = join(root(), "project");
  mkdirSync(projectDir, { recursive: true });
  const file = join(projectDir, name);
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, text);
  const dir = realpathSync(projectDir);
  const read = readScopeSource({ scope, file: join(dir, name), text }, { projectDir: dir, env: { HOME: "/home/ada", ...env } });
  if (read === null || read instanceof ConfigError) throw new Error(`expected a config, got ${read === null ? "none" : read.message}`);
  return { dir, read, messages: [...read.warnings.map((warning) => warning.message), ...read.skipped.map(({ error }) => error.message)] };
}

describe("a host's file read by mca", () => {
  it("Claude Code's .mcp.json: ${VAR} and ${VAR:-default} expanded", () => {
    const text = `{
  "mcpServers": {
    "api-server": {
      "type": "http",
      "url": "\${API_BASE_URL:-https://api.example.com}/mcp",
      "headers": { "Authorization": "Bearer \${API_KEY}" }
    },
    "airtable": { "command": "npx", "args": ["-y", "airtable-mcp-server"], "env": { "AIRTABLE_API_KEY": "\${AIRTABLE_API_KEY}" } }
  }
}`;
    const { dir, read } = readAs("project", ".mcp.json", text, { API_KEY: "k1", AIRTABLE_API_KEY: "k2" });
    expect(read.servers).toEqual([
      { alias: "api-server", transport: "http", url: "https://api.example.com/mcp", headers: { Authorization: "Bearer k1" }, enabled: true },
      { alias: "airtable", transport: "stdio", command: "npx", args: ["-y", "airtable-mcp-server"], env: { AIRTABLE_API_KEY: "k2" }, cwd: dir, enabled: true },
    ]);
  });

  it("Claude Desktop's claude_desktop_config.json", () => {
    const text = `{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/username/Desktop", "/Users/username/Downloads"]
    }
  }
}`;
    const { dir, read, messages } = readAs("flag", "claude_desktop_config.json", text);
    expect([read.servers, messages]).toEqual([
      [{ alias: "filesystem", transport: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/Users/username/Desktop", "/Users/username/Downloads"], env: {}, cwd: dir, enabled: true }],
      [],
    ]);
  });

  it("Cursor's .cursor/mcp.json: ${env:NAME}, ${userHome} and ${workspaceFolder} as Cursor fills them in", () => {
    const text = `{
  "mcpServers": {
    "context7": { "url": "https://mcp.context7.com/mcp", "headers": { "CONTEXT7_API_KEY": "\${env:CONTEXT7_API_KEY}" } },
    "local": { "command": "\${userHome}/bin/server", "args": ["--root", "\${workspaceFolder}"], "env": { "API_KEY": "\${env:API_KEY}" } }
  }
}`;
    const { dir, read, messages } = readAs("flag", ".cursor/mcp.json", text, { CONTEXT7_API_KEY: "c7", API_KEY: "k" });
    expect([read.servers, messages]).toEqual([
      [
        { alias: "context7", transport: "http", url: "https://mcp.context7.com/mcp", headers: { CONTEXT7_API_KEY: "c7" }, enabled: true },
        { alias: "local", transport: "stdio", command: "/home/ada/bin/server", args: ["--root", dir], env: { API_KEY: "k" }, cwd: join(dir, ".cursor"), enabled: true },
      ],
      [],
    ]);
  });

  it("VS Code's mcp.json: servers with their type, comments, and an input without a terminal to ask in", () => {
    const text = `{
  // 💡 Inputs are prompted on first server start, then stored securely by VS Code.
  "inputs": [
    { "type": "promptString", "id": "perplexity-key", "description": "Perplexity API Key", "password": true }
  ],
  "servers": {
    "Perplexity": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "server-perplexity-ask"],
      "env": { "PERPLEXITY_API_KEY": "\${input:perplexity-key}" }
    },
    "fetch": { "type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"] },
    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/" }
  }
}`;
    const { dir, read, messages } = readAs("flag", ".vscode/mcp.json", text);
    expect([read.servers, messages]).toEqual([
      [
        { alias: "fetch", transport: "stdio", command: "uvx", args: ["mcp-server-fetch"], env: {}, cwd: join(dir, ".vscode"), enabled: true },
        { alias: "github", transport: "http", url: "https://api.githubcopilot.com/mcp/", headers: {}, enabled: true },
      ],
      [
        `${join(dir, ".vscode/mcp.json")}:11:38: servers.Perplexity.env.PERPLEXITY_API_KEY: \${input:perplexity-key} ("Perplexity API Key") is asked in a terminal when the server starts, and this run has none to ask in`,
      ],
    ]);
  });

  it("Gemini CLI's settings.json: httpUrl, timeout, cwd, includeTools and excludeTools kept, trust named and not applied", () => {
    const text = `{
  "theme": "GitHub",
  "mcpServers": {
    "pythonTools": {
      "command": "python",
      "args": ["-m", "my_mcp_server", "--port", "8080"],
      "cwd": "./mcp-servers/python",
      "env": { "DATABASE_URL": "$DB_CONNECTION_STRING" },
      "timeout": 15000,
      "includeTools": ["safe_tool", "file_reader", "data_processor"]
    },
    "httpServer": { "httpUrl": "http://localhost:3000/mcp", "timeout": 5000, "excludeTools": ["dangerous_tool"], "trust": true }
  }
}`;
    const { dir, read, messages } = readAs("flag", ".gemini/settings.json", text);
    expect(read.servers).toEqual([
      {
        alias: "pythonTools",
        transport: "stdio",
        command: "python",
        args: ["-m", "my_mcp_server", "--port", "8080"],
        env: { DATABASE_URL: "$DB_CONNECTION_STRING" },
        cwd: join(dir, ".gemini", "mcp-servers", "python"),
        timeoutMs: 15000,
        enabled: true,
      },
      { alias: "httpServer", transport: "http", url: "http://localhost:3000/mcp", headers: {}, timeoutMs: 5000, enabled: true },
    ]);
    expect(read.toolLimits).toEqual(
      new Map([
        ["pythonTools", { include: ["safe_tool", "file_reader", "data_processor"], exclude: [] }],
        ["httpServer", { exclude: ["dangerous_tool"] }],
      ]),
    );
    expect(messages).toEqual([
      `${join(dir, ".gemini/settings.json")}:2:3: theme: unknown field, ignored (mca reads: mcpServers, servers, inputs, $schema)`,
      `${join(dir, ".gemini/settings.json")}:12:114: mcpServers.httpServer.trust: not applied: a config file never lets a tool run without asking; to let every tool of "httpServer" run without asking, start mca with --allow 'mcp__httpServer__*'`,
    ]);
  });

  it("Windsurf's mcp_config.json: serverUrl as the url, disabled as written", () => {
    const text = `{
  "mcpServers": {
    "github": { "serverUrl": "https://api.githubcopilot.com/mcp/", "headers": { "Authorization": "Bearer \${env:GITHUB_PAT}" } },
    "git": { "command": "py", "args": ["-m", "mcp_server_git"], "disabled": true, "env": {} }
  }
}`;
    const { dir, read, messages } = readAs("user", "mcp_config.json", text, { GITHUB_PAT: "ghp_x" });
    expect([read.servers, messages]).toEqual([
      [
        { alias: "github", transport: "http", url: "https://api.githubcopilot.com/mcp/", headers: { Authorization: "Bearer ghp_x" }, enabled: true },
        { alias: "git", transport: "stdio", command: "py", args: ["-m", "mcp_server_git"], env: {}, cwd: dir, enabled: false },
      ],
      [],
    ]);
  });

  it("Codex's config.toml: named as TOML, with the command that imports it", () => {
    const text = '[mcp_servers.context7]\ncommand = "npx"\nargs = ["-y", "@upstash/context7-mcp"]\n';
    const projectDir = realpathSync(root());
    const read = readScopeSource({ scope: "flag", file: join(projectDir, "config.toml"), text }, { projectDir, env: {} });
    expect(read instanceof ConfigError ? read.message : read).toBe(
      `${join(projectDir, "config.toml")}: is TOML (as Codex's config.toml is), and mca's config is JSON: bring its servers in with \`mca mcp import codex\``,
    );
  });
});
