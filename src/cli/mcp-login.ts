// The user's side of MCP authorization: `mca mcp login <alias>` / `/mcp login <alias>` run the browser
// login of one HTTP server (the URL always printed, a browser opened where there is one, the redirect taken
// on 127.0.0.1), `mca mcp logout <alias>` forgets it, and the session reads stored logins from the user's
// config folder — never the project's — with every token added to what is redacted.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { userConfigDir } from "../config/index.js";
import { describeError } from "../kernel/index.js";
import {
  createOAuthSession,
  createTokenStore,
  describeIssuer,
  loginSettings,
  McpError,
  startLoopbackAuthorizer,
  type IssuerQuestion,
  type LoginDeps,
  type LoopbackAuthorizer,
  type McpConfig,
  type TokenStore,
} from "../mcp/index.js";
import type { TerminalLender } from "./terminal.js";
import { untrustedText } from "./untrusted-text.js";

type Env = Readonly<Record<string, string | undefined>>;

/** `<user config folder>/oauth`: one 0600 file per server URL. */
export function loginsFolder(env: Env): string {
  return join(userConfigDir(env), "oauth");
}

export function loginStore(env: Env): TokenStore {
  return createTokenStore(loginsFolder(env));
}

/**
 * What mountServers takes as `logins`: the stored logins, read-only in effect (a server that needs a new
 * one reports "needs login"), each token passed to `addSecret` so that no output or transcript shows it.
 */
export function loginDeps(env: Env, addSecret: (secret: string) => void): LoginDeps {
  return { store: loginStore(env), onSecret: addSecret };
}

export type LoginDepsForCommand = {
  readonly config: McpConfig | null;
  readonly env: Env;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Whether a person is there to take the browser step; without one nothing waits for a browser. */
  readonly interactive: boolean;
  /** Opens a URL in a browser; the platform's opener by default. Tests pass one that follows the URL. */
  readonly openBrowser?: (url: URL) => void | Promise<void>;
  /** Told each new token, as loginDeps' `addSecret` is. */
  readonly addSecret?: (secret: string) => void;
  /** The terminal for a question during the login (the chat lends its own; `mca mcp login`, the process's); absent, the question is answered no. */
  readonly lend?: TerminalLender;
};

export type BrowserCommand = { readonly command: string; readonly args: readonly string[] };

/**
 * The opener per platform, its URL one argument of an exec (no shell): on Windows `rundll32
 * url.dll,FileProtocolHandler`, not `cmd /c start`, whose parser would read `&` and `^` in the URL.
 */
const OPENERS: Readonly<Partial<Record<NodeJS.Platform, (href: string) => BrowserCommand>>> = {
  darwin: (href) => ({ command: "open", args: [href] }),
  win32: (href) => ({ command: "rundll32", args: ["url.dll,FileProtocolHandler", href] }),
};

/** Only a web page is shown or opened: a `file:` or any other URL an authorization server names is refused. */
function notWebPage(url: URL): Error | undefined {
  if (url.protocol === "http:" || url.protocol === "https:") return undefined;
  return new Error(`the login would open ${JSON.stringify(untrustedText(url.href))} in a browser: only http: and https: URLs are opened`);
}

export function browserCommand(url: URL, platform: NodeJS.Platform): BrowserCommand | Error {
  const refused = notWebPage(url);
  if (refused !== undefined) return refused;
  return (OPENERS[platform] ?? ((href) => ({ command: "xdg-open", args: [href] })))(url.href);
}

/** The platform's opener, detached and unwaited: a machine without a browser still has the printed URL. */
export function openWithPlatformBrowser(url: URL): void {
  const opener = browserCommand(url, process.platform);
  if (opener instanceof Error) throw opener;
  const { command, args } = opener;
  try {
    const child = spawn(command, args, { stdio: "ignore", detached: true });
    child.on("error", () => {});
    child.unref();
  } catch {
    // No opener on this machine: the URL printed above is the way.
  }
}

function httpServer(config: McpConfig | null, alias: string) {
  const server = config?.servers.find((candidate) => candidate.alias === alias);
  if (server === undefined) return `no MCP server named ${JSON.stringify(alias)} in ${config?.file ?? "the config (there is none)"}`;
  if (server.transport === "stdio") return `${alias} is a stdio server: it takes its credentials from its environment, not from a login`;
  return server;
}

/**
 * Whether the config's client secret may go, for this login, to an authorization server the config does not
 * name (both origins shown, as the server gave them made safe to print); no unless said.
 */
function askAboutIssuer(lend: TerminalLender): (question: IssuerQuestion) => Promise<boolean> {
  return async (question) => {
    const text = `${untrustedText(describeIssuer(question))}. Send the client id and secret from your config there, for this login? (setting oauth.issuer to it answers this for good)`;
    return (await lend(({ asker }) => asker.confirm(text, false))) === true;
  };
}

/** `mca mcp login <alias>` and `/mcp login <alias>`: 0 once logged in, 1 (with the reason on stderr) otherwise. */
export async function runMcpLogin(deps: LoginDepsForCommand, alias: string): Promise<number> {
  const server = httpServer(deps.config, alias);
  if (typeof server === "string") {
    deps.err(`mca: ${server}\n`);
    return 1;
  }
  if (!deps.interactive && deps.openBrowser === undefined) {
    deps.err(`mca: logging in to ${alias} takes a browser and a terminal to come back to; run \`mca mcp login ${alias}\` in one\n`);
    return 1;
  }
  const open = deps.openBrowser ?? openWithPlatformBrowser;
  const store = loginStore(deps.env);
  let authorizer: LoopbackAuthorizer;
  try {
    authorizer = await startLoopbackAuthorizer({
      ...(server.oauth?.callbackPort === undefined ? {} : { port: server.oauth.callbackPort }),
      open: async (url) => {
        const refused = notWebPage(url);
        if (refused !== undefined) throw refused;
        deps.out(`Open this URL to log in to ${alias}:\n  ${url.href}\n`);
        await open(url);
      },
    });
  } catch (error) {
    deps.err(`mca: cannot listen for the login's redirect on 127.0.0.1: ${describeError(error)}\n`);
    return 1;
  }
  try {
    const session = createOAuthSession({
      label: alias,
      serverUrl: server.url,
      store,
      ...loginSettings(server.oauth),
      authorizer,
      ...(deps.addSecret === undefined ? {} : { onSecret: deps.addSecret }),
      ...(deps.interactive && deps.lend !== undefined ? { confirmIssuer: askAboutIssuer(deps.lend) } : {}),
    });
    await session.login();
    deps.out(`Logged in to ${alias}; the token is kept in ${store.fileFor(server.url)} (mca mcp logout ${alias} removes it)\n`);
    return 0;
  } catch (error) {
    deps.err(`mca: ${describeError(error)}\n`);
    return 1;
  } finally {
    await authorizer.close();
  }
}

/** `mca mcp logout <alias>`: the stored tokens and client identities of that server's URL are deleted. */
export async function runMcpLogout(deps: Pick<LoginDepsForCommand, "config" | "env" | "out" | "err">, alias: string): Promise<number> {
  const server = httpServer(deps.config, alias);
  if (typeof server === "string") {
    deps.err(`mca: ${server}\n`);
    return 1;
  }
  const store = loginStore(deps.env);
  const removed = await store.remove(server.url);
  deps.out(removed ? `Logged out of ${alias}: removed ${store.fileFor(server.url)}\n` : `No login stored for ${alias}\n`);
  return 0;
}
