import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolContext } from "../kernel/index.js";
import { mountServers, type McpConfig } from "../mcp/index.js";
import { startOAuthLoopbackServer, type OAuthLoopbackServer } from "../mcp/test-support/oauth-loopback-server.js";
import { growingRedactor, loginDeps, loginStore, runMcpLogin, runMcpLogout, type LoginDepsForCommand } from "./mcp-login.js";
import { startupFailureLines } from "./mcp-servers.js";

const context: ToolContext = { signal: new AbortController().signal };
let server: OAuthLoopbackServer | undefined;
let configHome: string | undefined;
afterEach(async () => {
  await server?.close();
  if (configHome !== undefined) await rm(configHome, { recursive: true, force: true });
  server = configHome = undefined;
});

async function setUp() {
  server = await startOAuthLoopbackServer();
  configHome = await mkdtemp(join(tmpdir(), "mca-login-"));
  const env = { XDG_CONFIG_HOME: configHome };
  const config: McpConfig = { file: "mcp.config.json", servers: [{ alias: "tickets", transport: "http", url: server.url, headers: {}, enabled: true }] };
  const output: string[] = [];
  const secrets: string[] = [];
  const deps: LoginDepsForCommand = {
    config,
    env,
    out: (text) => output.push(text),
    err: (text) => output.push(text),
    interactive: true,
    // The browser of a user who agrees: it follows the authorization URL, whose redirect reaches mca's listener.
    openBrowser: async (url) => void (await fetch(url)).text(),
    addSecret: (secret) => secrets.push(secret),
  };
  const mount = () => mountServers(config, { clientVersion: "0.0.0-test", baseEnv: {}, onWarning: () => undefined, logins: loginDeps(env, (secret) => secrets.push(secret)) });
  return { server, env, config, deps, output, secrets, mount };
}

describe("mca mcp login", () => {
  it("shows a server that asks for a login as 'needs login', and its calls say how to log in", async () => {
    const { mount } = await setUp();
    const mounted = await mount();
    try {
      expect(mounted.statuses()).toMatchObject([{ alias: "tickets", state: "needs login", error: "needs a login (no stored token): run `mca mcp login tickets`" }]);
      const result = await mounted.findTool("mcp__tickets__list_tickets")?.run({}, context);
      // Each names the server once and the login once.
      expect(result).toEqual({ isError: true, text: 'MCP server "tickets" is not available: needs a login (no stored token): run `mca mcp login tickets`' });
      expect(startupFailureLines(mounted)).toEqual(["mcp: tickets (http): needs a login (no stored token): run `mca mcp login tickets`"]);
    } finally {
      await mounted.close();
    }
  });

  it("logs in through the browser and the loopback redirect, keeps the token in the user's config folder, and the server then works", async () => {
    const { server, env, deps, output, secrets, mount } = await setUp();
    expect(await runMcpLogin(deps, "tickets")).toBe(0);
    const [token] = server.tokens;
    const file = loginStore(env).fileFor(server.url);
    expect(file.startsWith(join(configHome ?? "", "mca", "oauth"))).toBe(true);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(output.join("")).toContain(`Open this URL to log in to tickets:\n  ${server.issuer}/authorize?`);
    expect(output.join("")).toContain(`Logged in to tickets; the token is kept in ${file}`);
    expect(output.join("")).not.toContain(token);
    expect(secrets).toContain(token);

    const mounted = await mount();
    try {
      expect(mounted.statuses()).toMatchObject([{ alias: "tickets", state: "connected", error: null }]);
      expect(mounted.tools.length).toBeGreaterThan(0);
    } finally {
      await mounted.close();
    }
  });

  it("waits for no browser without a terminal", async () => {
    const { deps, output, server } = await setUp();
    const { openBrowser: _unused, ...withoutBrowser } = deps;
    expect(await runMcpLogin({ ...withoutBrowser, interactive: false }, "tickets")).toBe(1);
    expect(output.join("")).toContain("run `mca mcp login tickets` in one");
    expect(server.tokens).toEqual([]);
  });

  it("refuses a server the config does not name", async () => {
    const { deps, output } = await setUp();
    expect(await runMcpLogin(deps, "nope")).toBe(1);
    expect(output.join("")).toBe('mca: no MCP server named "nope" in mcp.config.json\n');
  });
});

describe("mca mcp logout", () => {
  it("removes the stored login, and says so when there is none", async () => {
    const { server, env, deps, output } = await setUp();
    await runMcpLogin(deps, "tickets");
    output.length = 0;
    const file = loginStore(env).fileFor(server.url);
    expect(await runMcpLogout(deps, "tickets")).toBe(0);
    expect(await stat(file).catch(() => "gone")).toBe("gone");
    expect(await runMcpLogout(deps, "tickets")).toBe(0);
    expect(output).toEqual([`Logged out of tickets: removed ${file}\n`, "No login stored for tickets\n"]);
  });
});

describe("growingRedactor", () => {
  it("hides a secret added after it was made, in every text it redacts afterwards", () => {
    const { redact, add } = growingRedactor(["config-secret"]);
    expect(redact("config-secret and access-token-1")).toBe("[redacted] and access-token-1");
    add("access-token-1");
    expect(redact("config-secret and access-token-1")).toBe("[redacted] and [redacted]");
  });
});
