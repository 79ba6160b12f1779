import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HOST_NAMES, localMcpFile, MCP_SCOPES, userMcpFile } from "../config/index.js";
import { runMcpEditCommand, type McpEditDeps } from "./mcp-edit-commands.js";
import { HOSTS, SCOPES, type McpEditCommand } from "./mcp-edit-program.js";
import { hideSecrets } from "./server-entry-view.js";

const SECRET = "s3cr3t-value-0123456789";

let root: string;
let out: string;
let err: string;
let asked: string[];

function deps(confirm?: (question: string) => Promise<boolean | undefined>): McpEditDeps {
  const home = join(root, "home");
  return {
    projectDir: join(root, "project"),
    env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), SET_NOW: "1" },
    home,
    platform: "linux",
    confirm:
      confirm === undefined
        ? undefined
        : (question) => {
            asked.push(question);
            return confirm(question);
          },
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
  };
}

function add(name: string, target: string, more: Partial<Extract<McpEditCommand, { kind: "add" }>> = {}): McpEditCommand {
  return { kind: "add", scope: "local", transport: undefined, name, target, args: [], env: [], headers: [], ...more };
}

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "mca-mcp-commands-")));
  await mkdir(join(root, "project"));
  await mkdir(join(root, "home"));
  out = "";
  err = "";
  asked = [];
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("mca mcp add", () => {
  it("writes a literal secret to the file and never prints it, then or with get", async () => {
    const code = await runMcpEditCommand(deps(), add("github", "npx", { args: ["-y", "@modelcontextprotocol/server-github"], env: [`GITHUB_TOKEN=${SECRET}`] }));
    expect(code).toBe(0);
    expect(readFileSync(localMcpFile(deps().env), "utf8")).toContain(SECRET);
    expect(await runMcpEditCommand(deps(), { kind: "get", name: "github" })).toBe(0);
    expect(`${out}${err}`).not.toContain(SECRET);
    expect(out).toBe(
      [
        `added "github" to the local scope (${localMcpFile(deps().env)}): stdio npx -y @modelcontextprotocol/server-github  env: {"GITHUB_TOKEN":"[hidden]"}`,
        "github:",
        "  scope: local",
        `  file: ${localMcpFile(deps().env)}`,
        "  type: stdio",
        "  command: npx",
        '  args: ["-y","@modelcontextprotocol/server-github"]',
        '  env: {"GITHUB_TOKEN":"[hidden]"}',
        "",
      ].join("\n"),
    );
  });

  it("writes an http server with its headers, and says which variables are not set now", async () => {
    const command = add("linear", "https://mcp.linear.app/mcp", { scope: "user", transport: "http", headers: ["Authorization: Bearer ${LINEAR_TOKEN}"] });
    expect(await runMcpEditCommand(deps(), command)).toBe(0);
    expect(JSON.parse(readFileSync(userMcpFile(deps().env), "utf8"))).toEqual({
      mcpServers: { linear: { type: "http", url: "https://mcp.linear.app/mcp", headers: { Authorization: "Bearer ${LINEAR_TOKEN}" } } },
    });
    expect(err).toBe('note: LINEAR_TOKEN is not set now; mca skips "linear" until it is\n');
  });

  it("refuses a URL given as a command, and writes nothing", async () => {
    expect(await runMcpEditCommand(deps(), add("x", "https://example.com/mcp"))).toBe(2);
    expect(err).toBe("mca mcp add: https://example.com/mcp looks like a URL: add -t http (or -t sse) for a remote server, or -t stdio to run it as a command\n");
    expect(existsSync(join(root, "home", ".config"))).toBe(false);
  });

  it("refuses a header without a name, without echoing its value", async () => {
    expect(await runMcpEditCommand(deps(), add("x", "https://example.com/mcp", { transport: "http", headers: [SECRET] }))).toBe(2);
    expect(err).toBe(`mca mcp add: -H "(no separator)" must be written 'Name: value'\n`);
  });

  it("refuses a name the scope has, and says the same name in another scope is overridden", async () => {
    expect(await runMcpEditCommand(deps(), add("notes", "node", { scope: "user" }))).toBe(0);
    expect(await runMcpEditCommand(deps(), add("notes", "node"))).toBe(0);
    expect(err).toBe(`note: "notes" is in the user scope too (${userMcpFile(deps().env)}); the local one is used\n`);
    err = "";
    expect(await runMcpEditCommand(deps(), add("notes", "node"))).toBe(1);
    expect(err).toBe(`mca mcp add: ${localMcpFile(deps().env)}: "notes" is already in the local scope (${localMcpFile(deps().env)}): remove it first (mca mcp remove notes -s local)\n`);
  });
});

describe("mca mcp add-json", () => {
  it("writes nothing for an entry the reader would skip, and names the problem", async () => {
    const json = `{ "type": "http", "url": "https://example.com/mcp", "headers": { "Bad Name": "${SECRET}" } }`;
    expect(await runMcpEditCommand(deps(), { kind: "add-json", scope: "project", name: "api", json })).toBe(2);
    expect(err).toBe('mca mcp add-json: the JSON given:1:66: mcpServers.api.headers["Bad Name"]: is not a valid HTTP header name; nothing was written\n');
    expect(existsSync(join(root, "project", ".mcp.json"))).toBe(false);
  });

  it("writes nothing for text that is not JSON, naming the place in it", async () => {
    expect(await runMcpEditCommand(deps(), { kind: "add-json", scope: "user", name: "api", json: `{ "command": }` })).toBe(2);
    expect(err).toBe("mca mcp add-json: the JSON given:1:14: invalid JSON: unexpected '}', expected a value; nothing was written\n");
    expect(existsSync(userMcpFile(deps().env))).toBe(false);
  });

  it("writes the entry into the project's .mcp.json as given", async () => {
    const entry = { command: "node", args: ["server.js"], env: { MODE: "${SET_NOW}" } };
    expect(await runMcpEditCommand(deps(), { kind: "add-json", scope: "project", name: "local-tool", json: JSON.stringify(entry) })).toBe(0);
    expect(JSON.parse(readFileSync(join(root, "project", ".mcp.json"), "utf8"))).toEqual({ mcpServers: { "local-tool": entry } });
    expect(err).toBe("");
  });
});

describe("mca mcp get", () => {
  it("shows every scope that has the name, the narrowest used, header values hidden but templates", async () => {
    const json = JSON.stringify({ type: "http", url: `https://example.com/mcp?key=${SECRET}`, headers: { Authorization: `Bearer ${SECRET}`, "X-Ref": "${REF}" } });
    await runMcpEditCommand(deps(), { kind: "add-json", scope: "user", name: "api", json });
    await runMcpEditCommand(deps(), { kind: "add-json", scope: "project", name: "api", json: `{ "command": "api-server" }` });
    out = "";
    expect(await runMcpEditCommand(deps(), { kind: "get", name: "api" })).toBe(0);
    expect(out).toBe(
      [
        "api:",
        "  scope: project (used: the narrowest scope wins)",
        `  file: ${join(root, "project", ".mcp.json")}`,
        "  command: api-server",
        "api:",
        "  scope: user (not used: a narrower scope has it)",
        `  file: ${userMcpFile(deps().env)}`,
        "  type: http",
        "  url: https://example.com/mcp?key=[hidden]",
        '  headers: {"Authorization":"[hidden]","X-Ref":"${REF}"}',
        "",
      ].join("\n"),
    );
    expect(out).not.toContain(SECRET);
  });

  it("says when no scope has the name", async () => {
    expect(await runMcpEditCommand(deps(), { kind: "get", name: "none" })).toBe(1);
    expect(err).toBe('mca mcp get: no server "none" in any scope\n');
  });
});

describe("mca mcp remove", () => {
  it("removes from the one scope that has the name", async () => {
    await runMcpEditCommand(deps(), add("notes", "node", { scope: "user" }));
    out = "";
    expect(await runMcpEditCommand(deps(), { kind: "remove", scope: undefined, name: "notes" })).toBe(0);
    expect(out).toBe(`removed "notes" from the user scope (${userMcpFile(deps().env)})\n`);
    expect(JSON.parse(readFileSync(userMcpFile(deps().env), "utf8"))).toEqual({ mcpServers: {} });
  });

  it("refuses to guess when several scopes have the name, naming them", async () => {
    await runMcpEditCommand(deps(), add("notes", "node", { scope: "user" }));
    await runMcpEditCommand(deps(), add("notes", "node"));
    err = "";
    expect(await runMcpEditCommand(deps(), { kind: "remove", scope: undefined, name: "notes" })).toBe(1);
    expect(err).toBe(`mca mcp remove: "notes" is in local (${localMcpFile(deps().env)}), user (${userMcpFile(deps().env)}): name the scope with -s local|user\n`);
    expect(await runMcpEditCommand(deps(), { kind: "remove", scope: "user", name: "notes" })).toBe(0);
  });
});

describe("mca mcp import", () => {
  async function cursorFile(servers: object): Promise<string> {
    const file = join(root, "home", ".cursor", "mcp.json");
    await mkdir(join(root, "home", ".cursor"), { recursive: true });
    await writeFile(file, JSON.stringify({ mcpServers: servers }));
    return file;
  }

  it("shows what it would add, asks, and adds after a yes; a name the scope has is skipped with a line", async () => {
    const file = await cursorFile({ search: { url: "https://search.example/mcp", headers: { API_KEY: SECRET } }, notes: { command: "node" } });
    await runMcpEditCommand(deps(), add("notes", "other"));
    out = "";
    expect(await runMcpEditCommand(deps(async () => true), { kind: "import", host: "cursor", scope: "local", yes: false })).toBe(0);
    expect(asked).toEqual(["Add it to the local scope?"]);
    expect(out).toBe(
      [
        `  skipped notes (${file}): already in the local scope (${localMcpFile(deps().env)})`,
        `cursor: 1 server to add to the local scope (${localMcpFile(deps().env)}):`,
        `  search  https://search.example/mcp  headers: {"API_KEY":"[hidden]"}  (from ${file})`,
        "added search",
        "",
      ].join("\n"),
    );
    const store = JSON.parse(readFileSync(localMcpFile(deps().env), "utf8"));
    expect(store.projects[join(root, "project")].mcpServers.search).toEqual({ url: "https://search.example/mcp", headers: { API_KEY: SECRET } });
  });

  it("adds nothing after a no", async () => {
    await cursorFile({ notes: { command: "node" } });
    expect(await runMcpEditCommand(deps(async () => false), { kind: "import", host: "cursor", scope: "user", yes: false })).toBe(0);
    expect(out.endsWith("nothing was added\n")).toBe(true);
    expect(existsSync(userMcpFile(deps().env))).toBe(false);
  });

  it("skips an entry the reader would not start, naming why", async () => {
    const file = await cursorFile({ bad: { url: "ftp://x" } });
    expect(await runMcpEditCommand(deps(), { kind: "import", host: "cursor", scope: "local", yes: true })).toBe(0);
    expect(out).toBe(`  skipped bad (${file}): mcpServers.bad.url: must be an http:// or https:// URL\nnothing to add from cursor to the local scope\n`);
  });

  it("shows beside a server what the reader would not use of it", async () => {
    await cursorFile({ notes: { command: "node", colour: "blue" } });
    expect(await runMcpEditCommand(deps(), { kind: "import", host: "cursor", scope: "local", yes: true })).toBe(0);
    expect(out.split("\n")[2]).toMatch(/^ {4}mcpServers\.notes\.colour: unknown field, ignored \(mca reads: /);
  });

  it("says where it looked when the host has no files", async () => {
    expect(await runMcpEditCommand(deps(), { kind: "import", host: "windsurf", scope: "local", yes: true })).toBe(1);
    expect(err).toBe(`mca mcp import: no windsurf configuration found (looked for ${join(root, "home", ".codeium", "windsurf", "mcp_config.json")})\n`);
  });
});

describe("mca mcp command declarations", () => {
  it("offer the scopes and hosts the config folder knows", () => {
    expect([SCOPES, HOSTS]).toEqual([MCP_SCOPES, HOST_NAMES]);
  });
});

describe("hideSecrets", () => {
  it("hides a token-like argument's value, a URL's password and query values, and oauth's client secret", () => {
    const entry = { command: "srv", args: ["--api-key", "abc", "--token=xyz", "--port", "80"], url: "https://u:pw@h.example/mcp?t=1", oauth: { clientId: "id", clientSecret: "cs" } };
    expect(hideSecrets(entry)).toEqual({
      command: "srv",
      args: ["--api-key", "[hidden]", "--token=[hidden]", "--port", "80"],
      url: "https://u:hidden@h.example/mcp?t=[hidden]",
      oauth: { clientId: "id", clientSecret: "[hidden]" },
    });
  });
});
