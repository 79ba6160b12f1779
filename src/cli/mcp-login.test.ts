import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Chalk } from "chalk";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolContext } from "../kernel/index.js";
import { mountServers, type McpConfig } from "../mcp/index.js";
import { startOAuthLoopbackServer, type OAuthLoopbackServer } from "../mcp/test-support/oauth-loopback-server.js";
import { browserCommand, loginDeps, loginStore, openWithPlatformBrowser, runMcpLogin, runMcpLogout, type LoginDepsForCommand } from "./mcp-login.js";
import { startupFailureLines } from "./mcp-servers.js";
import type { TerminalLender } from "./terminal.js";
import { createScriptedAsker, type ScriptedAnswer } from "./test-support/scripted-asker.js";

const context: ToolContext = { signal: new AbortController().signal };
let server: OAuthLoopbackServer | undefined;
let otherServer: OAuthLoopbackServer | undefined;
let configHome: string | undefined;
afterEach(async () => {
  await server?.close();
  await otherServer?.close();
  if (configHome !== undefined) await rm(configHome, { recursive: true, force: true });
  server = otherServer = configHome = undefined;
});

async function setUp(oauth?: { readonly clientId: string; readonly clientSecret?: string; readonly issuer?: string }) {
  server = await startOAuthLoopbackServer();
  configHome = await mkdtemp(join(tmpdir(), "mca-login-"));
  const env = { XDG_CONFIG_HOME: configHome };
  const spec = { alias: "tickets", transport: "http" as const, url: server.url, headers: {}, enabled: true, ...(oauth === undefined ? {} : { oauth }) };
  const config: McpConfig = { file: "mcp.config.json", servers: [spec] };
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

describe("mca mcp login with a client secret in the config", () => {
  const SECRET = "configured-secret-123";
  const CLIENT = { clientId: "configured-client", clientSecret: SECRET };

  /** A terminal whose user gives the scripted answers; the questions asked are in `asker.transcript`. */
  function terminal(answers: readonly ScriptedAnswer[]) {
    const asker = createScriptedAsker(answers);
    const lend: TerminalLender = (question) => question({ asker, chalk: new Chalk({ level: 0 }) });
    return { asker, lend };
  }

  /** The MCP server on one port names an authorization server on another (a fake issuer recording every request). */
  async function issuerOnAnotherPort(issuer?: (other: OAuthLoopbackServer) => string) {
    otherServer = await startOAuthLoopbackServer();
    const other = otherServer;
    const setup = await setUp({ ...CLIENT, ...(issuer === undefined ? {} : { issuer: issuer(other) }) });
    setup.server.moveTo(other.issuer);
    return { ...setup, other };
  }

  it("sends it to an authorization server on the MCP server's own origin without the oauth.issuer field", async () => {
    const { server, deps } = await setUp(CLIENT);
    const { asker, lend } = terminal([]);
    expect(await runMcpLogin({ ...deps, lend }, "tickets")).toBe(0);
    expect({ secrets: server.clientSecrets, asked: asker.transcript }).toEqual({ secrets: [SECRET], asked: [] });
  });

  it("fails without a terminal when the server names an issuer on another origin, and that issuer receives nothing", async () => {
    const { server, other, deps, output } = await issuerOnAnotherPort();
    expect(await runMcpLogin({ ...deps, interactive: false }, "tickets")).toBe(1);
    expect(output).toEqual([
      `mca: login to tickets failed: tickets (at ${server.issuer}) names authorization server ${other.issuer}, which is not on the server's own origin, and the config names no oauth.issuer: ` +
        `the client secret in the config is not sent there unasked; if the client is registered there, set "oauth.issuer": "${other.issuer}" for this server in the config, or run \`mca mcp login tickets\` in a terminal to be asked\n`,
    ]);
    expect({ carrying: other.requestsCarrying(SECRET), requests: other.requests.length }).toEqual({ carrying: [], requests: 0 });
  });

  it("logs in there without asking when oauth.issuer names that issuer", async () => {
    const { other, deps } = await issuerOnAnotherPort((issuer) => issuer.issuer);
    expect(await runMcpLogin({ ...deps, interactive: false }, "tickets")).toBe(0);
    expect(other.clientSecrets).toEqual([SECRET]);
  });

  it("asks in a terminal, showing both origins, and sends nothing when the answer is no", async () => {
    const { server, other, deps, output } = await issuerOnAnotherPort();
    const { asker, lend } = terminal([false]);
    expect(await runMcpLogin({ ...deps, lend }, "tickets")).toBe(1);
    expect(asker.transcript).toEqual([
      `confirm: tickets (at ${server.issuer}) names authorization server ${other.issuer}, which is not on the server's own origin, and the config names no oauth.issuer. ` +
        "Send the client id and secret from your config there, for this login? (setting oauth.issuer to it answers this for good)",
    ]);
    expect(output).toEqual([
      `mca: login to tickets failed: tickets (at ${server.issuer}) names authorization server ${other.issuer}, which is not on the server's own origin, and the config names no oauth.issuer: the client secret in the config was not sent there\n`,
    ]);
    expect({ carrying: other.requestsCarrying(SECRET), requests: other.requests.length }).toEqual({ carrying: [], requests: 0 });
  });

  it("logs in there once the user agrees", async () => {
    const { other, deps } = await issuerOnAnotherPort();
    const { lend } = terminal([true]);
    expect(await runMcpLogin({ ...deps, lend }, "tickets")).toBe(0);
    expect(other.clientSecrets).toEqual([SECRET]);
  });

  it("asks about an issuer that is not the configured one even on the MCP server's own origin", async () => {
    otherServer = await startOAuthLoopbackServer();
    const { server, deps } = await setUp({ ...CLIENT, issuer: otherServer.issuer });
    const { asker, lend } = terminal([false]);
    expect(await runMcpLogin({ ...deps, lend }, "tickets")).toBe(1);
    expect(asker.transcript).toEqual([
      `confirm: tickets (at ${server.issuer}) names authorization server ${server.issuer}, which is not the config's oauth.issuer (${otherServer.issuer}). ` +
        "Send the client id and secret from your config there, for this login? (setting oauth.issuer to it answers this for good)",
    ]);
    expect(server.requestsCarrying(SECRET)).toEqual([]);
  });
});

describe("browserCommand", () => {
  const url = new URL("https://auth.example.com/authorize?a=1&b=^x");

  it("gives the URL as one argument of the platform's opener, never to a shell (rundll32 on Windows)", () => {
    const commands = (["linux", "darwin", "win32", "freebsd"] as const).map((platform) => browserCommand(url, platform));
    expect(commands).toEqual([
      { command: "xdg-open", args: [url.href] },
      { command: "open", args: [url.href] },
      { command: "rundll32", args: ["url.dll,FileProtocolHandler", url.href] },
      { command: "xdg-open", args: [url.href] },
    ]);
  });

  it("refuses a URL that is not http: or https:", () => {
    expect(browserCommand(new URL("file:///etc/passwd"), "linux")).toEqual(new Error('the login would open "file:///etc/passwd" in a browser: only http: and https: URLs are opened'));
    expect(() => openWithPlatformBrowser(new URL("javascript:alert(1)"))).toThrow("only http: and https: URLs are opened");
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
