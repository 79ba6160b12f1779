// Each host's files as its documentation writes them, in a temporary home and project, read for `mca mcp import`.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readHostServers, type HostWhere } from "./host-servers.js";

let root: string;
let where: HostWhere;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "mca-hosts-")));
  await mkdir(join(root, "project"));
  await mkdir(join(root, "home"));
  where = { projectDir: join(root, "project"), home: join(root, "home"), env: {}, platform: "linux" };
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function put(path: string, text: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  return path;
}

describe("readHostServers", () => {
  it("reads Claude Code's .mcp.json, and ~/.claude.json's user servers and this project's own", async () => {
    const project = await put(
      join(where.projectDir, ".mcp.json"),
      JSON.stringify({ mcpServers: { "api-server": { type: "http", url: "${API_BASE_URL:-https://api.example.com}/mcp", headers: { Authorization: "Bearer ${API_KEY}" } } } }),
    );
    const user = await put(
      join(where.home, ".claude.json"),
      JSON.stringify({
        numStartups: 3,
        mcpServers: { airtable: { type: "stdio", command: "npx", args: ["-y", "airtable-mcp-server"], env: { AIRTABLE_API_KEY: "YOUR_KEY" } } },
        projects: { [where.projectDir]: { mcpServers: { sentry: { type: "http", url: "https://mcp.sentry.dev/mcp" } } }, "/other": { mcpServers: { other: { command: "x" } } } },
      }),
    );
    expect(readHostServers("claude-code", where)).toEqual({
      searched: [project, user],
      found: [project, user],
      servers: [
        { alias: "api-server", file: project, entry: { type: "http", url: "${API_BASE_URL:-https://api.example.com}/mcp", headers: { Authorization: "Bearer ${API_KEY}" } }, notes: [] },
        { alias: "sentry", file: user, entry: { type: "http", url: "https://mcp.sentry.dev/mcp" }, notes: [] },
        { alias: "airtable", file: user, entry: { type: "stdio", command: "npx", args: ["-y", "airtable-mcp-server"], env: { AIRTABLE_API_KEY: "YOUR_KEY" } }, notes: [] },
      ],
      skipped: [],
      problems: [],
    });
  });

  it("reads Claude Desktop's file where macOS keeps it", async () => {
    const file = await put(
      join(where.home, "Library", "Application Support", "Claude", "claude_desktop_config.json"),
      JSON.stringify({ mcpServers: { filesystem: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/Users/username/Desktop"] } } }),
    );
    expect(readHostServers("claude-desktop", { ...where, platform: "darwin" }).servers).toEqual([
      { alias: "filesystem", file, entry: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/Users/username/Desktop"] }, notes: [] },
    ]);
  });

  it("reads Cursor's project and user files, its variables as written (mca reads them as Cursor does)", async () => {
    const project = await put(
      join(where.projectDir, ".cursor", "mcp.json"),
      `{
  "mcpServers": {
    "local-script": { "command": "node", "args": ["\${workspaceFolder}/scripts/server.js"], "env": { "TOKEN": "\${env:MY_TOKEN}", "CACHE": "\${userHome}\${pathSeparator}.cache" } }
  }
}`,
    );
    const user = await put(join(where.home, ".cursor", "mcp.json"), JSON.stringify({ mcpServers: { remote: { url: "http://localhost:3000/mcp", headers: { API_KEY: "value" } } } }));
    expect(readHostServers("cursor", where).servers).toEqual([
      { alias: "local-script", file: project, entry: { command: "node", args: ["${workspaceFolder}/scripts/server.js"], env: { TOKEN: "${env:MY_TOKEN}", CACHE: "${userHome}${pathSeparator}.cache" } }, notes: [] },
      { alias: "remote", file: user, entry: { url: "http://localhost:3000/mcp", headers: { API_KEY: "value" } }, notes: [] },
    ]);
  });

  it("skips an entry with a variable mca has no value for", async () => {
    const file = await put(join(where.projectDir, ".vscode", "mcp.json"), JSON.stringify({ servers: { s: { type: "stdio", command: "node", args: ["${config:editor.fontSize}"] } } }));
    expect(readHostServers("vscode", where).skipped).toEqual([{ alias: "s", file, reason: "uses ${config:editor.fontSize}, which mca has no value for" }]);
  });

  it("reads VS Code's servers with comments, and skips one that asks for an input", async () => {
    const project = await put(
      join(where.projectDir, ".vscode", "mcp.json"),
      `{
  // Inputs are prompted on first server start, then stored securely by VS Code.
  "inputs": [{ "type": "promptString", "id": "perplexity-key", "description": "Perplexity API Key", "password": true }],
  "servers": {
    "Perplexity": { "type": "stdio", "command": "npx", "args": ["-y", "server-perplexity-ask"], "env": { "PERPLEXITY_API_KEY": "\${input:perplexity-key}" } },
    "fetch": { "type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"] },
  }
}`,
    );
    const user = await put(join(where.home, ".config", "Code", "User", "mcp.json"), JSON.stringify({ servers: { github: { type: "http", url: "https://api.githubcopilot.com/mcp/" } } }));
    expect(readHostServers("vscode", where)).toEqual({
      searched: [project, user],
      found: [project, user],
      servers: [
        { alias: "fetch", file: project, entry: { type: "stdio", command: "uvx", args: ["mcp-server-fetch"] }, notes: [] },
        { alias: "github", file: user, entry: { type: "http", url: "https://api.githubcopilot.com/mcp/" }, notes: [] },
      ],
      skipped: [
        {
          alias: "Perplexity",
          file: project,
          reason: `asks for VS Code's input "perplexity-key", which mca never writes down: add it with mca mcp add -e NAME='\${NAME}' instead`,
        },
      ],
      problems: [],
    });
  });

  it("reads Gemini CLI's settings: its limits kept, its url as SSE, $VAR braced, trust named and not carried", async () => {
    const file = await put(
      join(where.home, ".gemini", "settings.json"),
      JSON.stringify({
        theme: "Default",
        mcpServers: {
          pythonTools: { command: "python", args: ["-m", "my_mcp_server"], cwd: "./mcp-servers/python", env: { DATABASE_URL: "$DB_CONNECTION_STRING" }, timeout: 15000 },
          httpServer: { httpUrl: "http://localhost:3000/mcp", timeout: 5000 },
          sseServer: { url: "http://localhost:8080/sse" },
          filtered: { command: "python", args: ["server.py"], includeTools: ["safe_tool", "file_reader"], excludeTools: ["dangerous_tool"], trust: true },
        },
      }),
    );
    expect(readHostServers("gemini", where).servers).toEqual([
      { alias: "pythonTools", file, entry: { command: "python", args: ["-m", "my_mcp_server"], cwd: "./mcp-servers/python", env: { DATABASE_URL: "${DB_CONNECTION_STRING}" }, timeout: 15000 }, notes: [] },
      { alias: "httpServer", file, entry: { httpUrl: "http://localhost:3000/mcp", timeout: 5000 }, notes: [] },
      { alias: "sseServer", file, entry: { url: "http://localhost:8080/sse", type: "sse" }, notes: [] },
      {
        alias: "filtered",
        file,
        entry: { command: "python", args: ["server.py"], includeTools: ["safe_tool", "file_reader"], excludeTools: ["dangerous_tool"] },
        notes: ["trust not carried over: mca asks before a server's tools run; allow them with --allow"],
      },
    ]);
  });

  it("reads Codex's config.toml into mca's names, its tool lists and enabled kept", async () => {
    const file = await put(
      join(where.home, ".codex", "config.toml"),
      `model = "gpt-5"

[mcp_servers.context7]
command = "npx"
args = ["-y", "@upstash/context7-mcp"]
env = { "MY_ENV_VAR" = "MY_ENV_VALUE" }
env_vars = ["LOCAL_TOKEN"]
startup_timeout_sec = 20
tool_timeout_sec = 60
enabled_tools = ["resolve-library-id"]

[mcp_servers.figma]
url = "https://mcp.figma.com/mcp"
bearer_token_env_var = "FIGMA_OAUTH_TOKEN"
http_headers = { "X-Figma-Region" = "us-east-1" }
disabled_tools = ["delete_file"]
enabled = false
`,
    );
    expect(readHostServers("codex", where).servers).toEqual([
      {
        alias: "context7",
        file,
        entry: {
          command: "npx",
          args: ["-y", "@upstash/context7-mcp"],
          env: { MY_ENV_VAR: "MY_ENV_VALUE", LOCAL_TOKEN: "${LOCAL_TOKEN}" },
          enabled_tools: ["resolve-library-id"],
          startupTimeoutMs: 20000,
          timeoutMs: 60000,
        },
        notes: [],
      },
      {
        alias: "figma",
        file,
        entry: { url: "https://mcp.figma.com/mcp", disabled_tools: ["delete_file"], enabled: false, headers: { "X-Figma-Region": "us-east-1", Authorization: "Bearer ${FIGMA_OAUTH_TOKEN}" } },
        notes: [],
      },
    ]);
  });

  it("names a Codex file that is not TOML", async () => {
    const file = await put(join(where.home, ".codex", "config.toml"), `[mcp_servers.x\ncommand = 1\n`);
    expect(readHostServers("codex", where).problems.map((problem) => problem.message.split(": not valid TOML")[0])).toEqual([file]);
  });

  it("reads Windsurf's file: serverUrl and disabledTools as written", async () => {
    const file = await put(
      join(where.home, ".codeium", "windsurf", "mcp_config.json"),
      JSON.stringify({
        mcpServers: {
          github: { command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: { GITHUB_PERSONAL_ACCESS_TOKEN: "<YOUR_PERSONAL_ACCESS_TOKEN>" }, disabledTools: ["create_repository"] },
          figma: { serverUrl: "https://your-server-url/mcp", headers: { API_KEY: "value" }, alwaysAllow: ["get_file"] },
        },
      }),
    );
    expect(readHostServers("windsurf", where).servers).toEqual([
      {
        alias: "github",
        file,
        entry: { command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: { GITHUB_PERSONAL_ACCESS_TOKEN: "<YOUR_PERSONAL_ACCESS_TOKEN>" }, disabledTools: ["create_repository"] },
        notes: [],
      },
      { alias: "figma", file, entry: { serverUrl: "https://your-server-url/mcp", headers: { API_KEY: "value" } }, notes: ["alwaysAllow not carried over: mca asks before a server's tools run; allow them with --allow"] },
    ]);
  });

  it("finds nothing where a host has no files", () => {
    expect(readHostServers("windsurf", where)).toEqual({ searched: [join(where.home, ".codeium", "windsurf", "mcp_config.json")], found: [], servers: [], skipped: [], problems: [] });
  });
});
