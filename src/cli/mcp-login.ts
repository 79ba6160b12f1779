// The user's side of MCP authorization: `mca mcp login <alias>` / `/mcp login <alias>` run the browser
// login of one HTTP server (the URL always printed, a browser opened where there is one, the redirect taken
// on 127.0.0.1), `mca mcp logout <alias>` forgets it, and the session reads stored logins from the user's
// config folder — never the project's — with every token added to what is redacted.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { userConfigDir } from "../config/index.js";
import { createRedactor, liveRedactor, secretsIn, type Redact } from "../kernel/index.js";
import {
  createOAuthSession,
  createTokenStore,
  McpError,
  startLoopbackAuthorizer,
  type LoginDeps,
  type LoopbackAuthorizer,
  type McpConfig,
  type TokenStore,
} from "../mcp/index.js";

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

/**
 * The session's redaction set, open to secrets learnt after start-up (tokens read from the store, issued,
 * or refreshed): `redact` always hides every secret added so far.
 */
export function growingRedactor(initial: readonly string[]): { readonly redact: Redact; add(secret: string): void } {
  const secrets = new Set(initial);
  let current = createRedactor(secrets);
  return {
    redact: liveRedactor(() => current),
    add(secret) {
      if (secrets.has(secret)) return;
      for (const part of secretsIn([secret])) secrets.add(part);
      current = createRedactor(secrets);
    },
  };
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
};

/** xdg-open / open / start, detached and unwaited: a machine without a browser still has the printed URL. */
export function openWithPlatformBrowser(url: URL): void {
  const [command, ...args] =
    process.platform === "darwin" ? ["open", url.href] : process.platform === "win32" ? ["cmd", "/c", "start", "", url.href] : ["xdg-open", url.href];
  if (command === undefined) return;
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
  if (server.transport !== "http") return `${alias} is a stdio server: it takes its credentials from its environment, not from a login`;
  return server;
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
        deps.out(`Open this URL to log in to ${alias}:\n  ${url.href}\n`);
        await open(url);
      },
    });
  } catch (error) {
    deps.err(`mca: cannot listen for the login's redirect on 127.0.0.1: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  try {
    const session = createOAuthSession({
      label: alias,
      serverUrl: server.url,
      store,
      client: { clientId: server.oauth?.clientId, clientSecret: server.oauth?.clientSecret, clientName: "mca" },
      scopes: server.oauth?.scopes?.join(" "),
      authorizer,
      ...(deps.addSecret === undefined ? {} : { onSecret: deps.addSecret }),
    });
    await session.login();
    deps.out(`Logged in to ${alias}; the token is kept in ${store.fileFor(server.url)} (mca mcp logout ${alias} removes it)\n`);
    return 0;
  } catch (error) {
    deps.err(`mca: ${error instanceof McpError || error instanceof Error ? error.message : String(error)}\n`);
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
