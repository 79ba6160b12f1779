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

async function setUp(oauth?: { readonly clientId: string; readonly clientSecret?: string }) {
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

describe("mca mcp login, when the server names another authorization server than its configured client's", () => {
  /** A terminal whose user gives the scripted answers; the questions asked are in `asker.transcript`. */
  function terminal(answers: readonly ScriptedAnswer[]) {
    const asker = createScriptedAsker(answers);
    const lend: TerminalLender = (question) => question({ asker, chalk: new Chalk({ level: 0 }) });
    return { asker, lend };
  }

  async function moved() {
    const setup = await setUp({ clientId: "configured-client", clientSecret: "configured-secret-123" });
    expect(await runMcpLogin(setup.deps, "tickets")).toBe(0);
    otherServer = await startOAuthLoopbackServer();
    setup.server.moveTo(otherServer.issuer);
    setup.output.length = 0;
    return { ...setup, other: otherServer };
  }

  it("asks whether to send the client secret there, and sends nothing when the answer is no", async () => {
    const { server, other, deps, output } = await moved();
    const { asker, lend } = terminal([false]);
    expect(await runMcpLogin({ ...deps, lend }, "tickets")).toBe(1);
    expect(asker.transcript).toEqual([`confirm: tickets now names authorization server ${other.issuer} (was ${server.issuer}): send your client secret there?`]);
    expect(output).toEqual([`mca: login to tickets failed: the client id and secret in the config stay with ${server.issuer}: not sent to ${other.issuer}\n`]);
    expect({ resources: other.resources, secrets: other.clientSecrets }).toEqual({ resources: [], secrets: [] });
  });

  it("logs in there once the user agrees", async () => {
    const { other, deps } = await moved();
    const { lend } = terminal([true]);
    expect(await runMcpLogin({ ...deps, lend }, "tickets")).toBe(0);
    expect(other.clientSecrets).toEqual(["configured-secret-123"]);
  });

  it("fails without sending anything when there is no terminal to ask", async () => {
    const { server, other, deps, output } = await moved();
    expect(await runMcpLogin({ ...deps, interactive: false }, "tickets")).toBe(1);
    expect(output.join("")).toContain(`names authorization server ${other.issuer}, but the client id and secret in the config were set up for ${server.issuer}: not sent there`);
    expect({ resources: other.resources, secrets: other.clientSecrets }).toEqual({ resources: [], secrets: [] });
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
