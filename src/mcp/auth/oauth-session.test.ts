import { afterEach, describe, expect, it } from "vitest";
import { negotiateEra } from "../era.js";
import { LoginNeeded } from "../http/failure.js";
import { createHttpTransport } from "../http/transport.js";
import { McpError } from "../jsonrpc.js";
import { startOAuthLoopbackServer, type OAuthLoopbackServer } from "../test-support/oauth-loopback-server.js";
import { createWire, type Wire } from "../wire.js";
import { startLoopbackAuthorizer, type LoopbackAuthorizer } from "./loopback-redirect.js";
import { createOAuthSession, type OAuthSessionOptions } from "./oauth-session.js";
import { createMemoryTokenStore } from "./token-store.js";

let server: OAuthLoopbackServer | undefined;
let otherServer: OAuthLoopbackServer | undefined;
let authorizer: LoopbackAuthorizer | undefined;
afterEach(async () => {
  await authorizer?.close();
  await server?.close();
  await otherServer?.close();
  authorizer = server = otherServer = undefined;
});

/** The browser of a user who agrees to everything: it follows the authorization URL back to the listener. */
async function agreeingBrowser(): Promise<LoopbackAuthorizer> {
  authorizer = await startLoopbackAuthorizer({ open: async (url) => void (await fetch(url)).text() });
  return authorizer;
}

async function setUp(options: Partial<OAuthSessionOptions> & { expiresInSeconds?: number } = {}) {
  server = await startOAuthLoopbackServer({ expiresInSeconds: options.expiresInSeconds });
  const store = createMemoryTokenStore();
  const secrets: string[] = [];
  const session = createOAuthSession({
    label: "tickets",
    serverUrl: server.url,
    store,
    client: { clientName: "mca test" },
    onSecret: (secret) => secrets.push(secret),
    ...options,
  });
  return { server, store, session, secrets };
}

const challengeOf = (server: OAuthLoopbackServer): string => `Bearer resource_metadata="${server.issuer}/.well-known/oauth-protected-resource/mcp"`;

describe("createOAuthSession", () => {
  it("logs in on a 401 and stores the tokens under the server URL, telling each secret", async () => {
    const { server, store, session, secrets } = await setUp({ authorizer: await agreeingBrowser() });
    expect(await session.authorization()).toBeUndefined();
    expect(await session.challenged(401, challengeOf(server))).toBe(true);
    const [token] = server.tokens;
    expect(await session.authorization()).toBe(`Bearer ${token}`);
    const stored = await store.load(server.url);
    expect(stored).toMatchObject({ serverUrl: server.url, issuer: server.issuer, resource: server.url, tokens: { accessToken: token } });
    expect(stored.clients).toEqual([
      { issuer: server.issuer, clientId: "loopback-client", clientSecret: undefined, authMethod: "none", redirectUri: authorizer?.redirectUri },
    ]);
    expect(secrets).toContain(token);
    // RFC 8707: the same resource, exactly as published, on the authorization and the token request.
    expect(server.resources).toEqual([server.url, server.url]);
  });

  it("keeps its registered client for the next login on the same redirect URI, and registers again for another", async () => {
    const { server, store } = await setUp();
    const loginThrough = async (browser: LoopbackAuthorizer) =>
      createOAuthSession({ label: "tickets", serverUrl: server.url, store, client: { clientName: "mca test" }, authorizer: browser }).login();
    const first = await agreeingBrowser();
    await loginThrough(first);
    await loginThrough(first);
    const second = await startLoopbackAuthorizer({ open: async (url) => void (await fetch(url)).text() });
    try {
      await loginThrough(second);
    } finally {
      await second.close();
    }
    expect(server.registrations).toEqual([first.redirectUri, second.redirectUri]);
    expect((await store.load(server.url)).clients.map((client) => client.clientId)).toEqual(["loopback-client-2"]);
  });

  it("reports that the server needs a login when nobody can take the browser step", async () => {
    const { server, session } = await setUp();
    const error = await session.challenged(401, challengeOf(server)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LoginNeeded);
    expect(error).toMatchObject({ message: "needs a login (no stored token): run `mca mcp login tickets`" });
  });

  it("takes a login stored since it last read the store (mca mcp login in another terminal)", async () => {
    const { server, store, session } = await setUp();
    const loggedIn = createOAuthSession({ label: "tickets", serverUrl: server.url, store, client: { clientName: "mca test" }, authorizer: await agreeingBrowser() });
    expect(await session.authorization()).toBeUndefined();
    await loggedIn.login();
    expect(await session.challenged(401, challengeOf(server))).toBe(true);
    expect(await session.authorization()).toBe(`Bearer ${server.tokens[0]}`);
  });

  it("refreshes a token that is about to expire before it is sent", async () => {
    const { server, session } = await setUp({ authorizer: await agreeingBrowser(), expiresInSeconds: 30 });
    await session.login();
    const refreshed = await session.authorization();
    expect(server.grants).toEqual(["authorization_code", "refresh_token"]);
    expect(refreshed).toBe(`Bearer ${server.tokens[1]}`);
  });

  it("lets the HTTP transport log in on the first request and carry the token on every one after", async () => {
    const { server, session } = await setUp({ authorizer: await agreeingBrowser() });
    let wire: Wire | undefined;
    const open = async () => {
      await wire?.close();
      wire = createWire({ transport: createHttpTransport({ label: "tickets", url: server.url, auth: session }), clientVersion: "0.0.0" });
      await wire.start();
      return wire;
    };
    try {
      const { client: mounted } = await negotiateEra(open, { transport: "http" });
      expect((await mounted.listTools()).length).toBeGreaterThan(0);
      expect(server.grants).toEqual(["authorization_code"]);
    } finally {
      await wire?.close();
    }
  });
});

describe("createOAuthSession with a client secret from the config", () => {
  const client = { clientId: "configured-client", clientSecret: "configured-secret-123", clientName: "mca test" };
  const nothingSent = (issuer: OAuthLoopbackServer) => ({ requests: issuer.requests, carrying: issuer.requestsCarrying(client.clientSecret) });

  /** An MCP server whose protected resource metadata names an authorization server on another port (another origin). */
  async function elsewhere() {
    const { server, store } = await setUp();
    otherServer = await startOAuthLoopbackServer();
    server.moveTo(otherServer.issuer);
    const browser = await agreeingBrowser();
    const session = (options: Partial<OAuthSessionOptions> = {}) => createOAuthSession({ label: "tickets", serverUrl: server.url, store, client, authorizer: browser, ...options });
    return { server, other: otherServer, store, session };
  }

  it("sends it to an authorization server on the MCP server's own origin without asking", async () => {
    const asked: unknown[] = [];
    const { server, session } = await setUp({ client, authorizer: await agreeingBrowser(), confirmIssuer: async (question) => {
        asked.push(question);
        return true;
      },
    });
    await session.login();
    expect({ secrets: server.clientSecrets, asked }).toEqual({ secrets: [client.clientSecret], asked: [] });
  });

  it("sends nothing to an authorization server on another origin when nobody can be asked, and names both origins and oauth.issuer", async () => {
    const { server, other, session } = await elsewhere();
    await expect(session().login()).rejects.toThrow(
      `login to tickets failed: tickets (at ${server.issuer}) names authorization server ${other.issuer}, which is not on the server's own origin, and the config names no oauth.issuer: ` +
        `the client secret in the config is not sent there unasked; if the client is registered there, set "oauth.issuer": "${other.issuer}" for this server in the config, or run \`mca mcp login tickets\` in a terminal to be asked`,
    );
    expect(nothingSent(other)).toEqual({ requests: [], carrying: [] });
  });

  it("asks before anything goes to another origin's authorization server, showing both origins, and sends nothing on no", async () => {
    const asked: unknown[] = [];
    const { server, other, session } = await elsewhere();
    await expect(session({
        confirmIssuer: async (question) => {
          asked.push(question);
          return false;
        },
      }).login()).rejects.toThrow(`names authorization server ${other.issuer}, which is not on the server's own origin, and the config names no oauth.issuer: the client secret in the config was not sent there`);
    expect(asked).toEqual([{ server: "tickets", serverOrigin: server.issuer, issuer: other.issuer, issuerOrigin: other.issuer }]);
    expect(nothingSent(other)).toEqual({ requests: [], carrying: [] });
  });

  it("sends it there for the one login the user agreed to, and asks again at the next", async () => {
    let answers = 0;
    const { other, session } = await elsewhere();
    const agreeing = session({
      confirmIssuer: async () => {
        answers += 1;
        return true;
      },
    });
    await agreeing.login();
    await agreeing.login();
    expect({ secrets: other.clientSecrets, answers }).toEqual({ secrets: [client.clientSecret, client.clientSecret], answers: 2 });
  });

  it("sends it to the issuer the config names (oauth.issuer) without asking", async () => {
    const { other, session } = await elsewhere();
    await session({ client: { ...client, issuer: other.issuer } }).login();
    expect(other.clientSecrets).toEqual([client.clientSecret]);
  });

  it("does not send it unasked to the MCP server's own origin once the config names another issuer", async () => {
    const { server, session } = await setUp({ client: { ...client, issuer: "https://auth.example.com" }, authorizer: await agreeingBrowser() });
    await expect(session.login()).rejects.toThrow(`tickets (at ${server.issuer}) names authorization server ${server.issuer}, which is not the config's oauth.issuer (https://auth.example.com)`);
    expect(server.requestsCarrying(client.clientSecret)).toEqual([]);
  });

  it("does not obey the binding an earlier version recorded on first use", async () => {
    const { server, other, store, session } = await elsewhere();
    // What an earlier version kept after the server named the attacker's issuer first.
    const earlier = { serverUrl: server.url, clients: [], clientBinding: { clientId: client.clientId, issuer: other.issuer } };
    await store.save(earlier);
    await expect(session().login()).rejects.toThrow("the client secret in the config is not sent there unasked");
    expect(nothingSent(other)).toEqual({ requests: [], carrying: [] });
  });

  it("refreshes at the issuer the login came from, but not once the config names another", async () => {
    const { server, store, session } = await setUp({ client, authorizer: await agreeingBrowser(), expiresInSeconds: 30 });
    await session.login();
    await session.authorization();
    expect(server.grants).toEqual(["authorization_code", "refresh_token"]);
    const reconfigured = createOAuthSession({ label: "tickets", serverUrl: server.url, store, client: { ...client, issuer: "https://auth.example.com" } });
    expect(await reconfigured.authorization()).toBe(`Bearer ${server.tokens[1]}`);
    expect(server.grants).toEqual(["authorization_code", "refresh_token"]);
  });
});
