import { afterEach, describe, expect, it } from "vitest";
import { createMcpClient } from "../client.js";
import { negotiateEra } from "../era.js";
import { LoginNeeded } from "../http/failure.js";
import { createHttpTransport } from "../http/transport.js";
import { McpError } from "../jsonrpc.js";
import { startOAuthLoopbackServer, type OAuthLoopbackServer } from "../test-support/oauth-loopback-server.js";
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
    let client: ReturnType<typeof createMcpClient> | undefined;
    const open = async () => {
      await client?.close();
      client = createMcpClient({ transport: createHttpTransport({ label: "tickets", url: server.url, auth: session }), clientVersion: "0.0.0" });
      await client.start();
      return client;
    };
    try {
      const { client: mounted } = await negotiateEra(open, { transport: "http" });
      expect((await mounted.listTools()).length).toBeGreaterThan(0);
      expect(server.grants).toEqual(["authorization_code"]);
    } finally {
      await client?.close();
    }
  });
});

describe("createOAuthSession with client credentials from the config", () => {
  const client = { clientId: "configured-client", clientSecret: "configured-secret-123", clientName: "mca test" };

  /** Logs in once at the server's own authorization server, then the server names another one. */
  async function movedServer(confirmIssuer?: OAuthSessionOptions["confirmIssuer"]) {
    const { server, store } = await setUp();
    const browser = await agreeingBrowser();
    const session = () => createOAuthSession({ label: "tickets", serverUrl: server.url, store, client, authorizer: browser, ...(confirmIssuer === undefined ? {} : { confirmIssuer }) });
    await session().login();
    otherServer = await startOAuthLoopbackServer();
    server.moveTo(otherServer.issuer);
    return { server, other: otherServer, store, login: () => session().login() };
  }

  it("binds them to the first authorization server they are sent to, and stores the binding", async () => {
    const { server, store } = await movedServer();
    expect(server.clientSecrets).toEqual([client.clientSecret]);
    expect((await store.load(server.url)).clientBinding).toEqual({ clientId: client.clientId, issuer: server.issuer });
  });

  it("sends nothing to another authorization server when nobody can be asked, and says why", async () => {
    const { server, other, store, login } = await movedServer();
    await expect(login()).rejects.toThrow(
      `login to tickets failed: the server now names authorization server ${other.issuer}, but the client id and secret in the config were set up for ${server.issuer}: not sent there; run \`mca mcp login tickets\` in a terminal to decide`,
    );
    expect({ resources: other.resources, grants: other.grants, secrets: other.clientSecrets }).toEqual({ resources: [], grants: [], secrets: [] });
    expect((await store.load(server.url)).clientBinding).toEqual({ clientId: client.clientId, issuer: server.issuer });
  });

  it("asks before sending them to another authorization server, and sends nothing when the answer is no", async () => {
    const asked: unknown[] = [];
    const { server, other, login } = await movedServer(async (change) => {
      asked.push(change);
      return false;
    });
    await expect(login()).rejects.toThrow(`the client id and secret in the config stay with ${server.issuer}: not sent to ${other.issuer}`);
    expect(asked).toEqual([{ server: "tickets", was: server.issuer, now: other.issuer, sendsSecret: true }]);
    expect({ resources: other.resources, grants: other.grants, secrets: other.clientSecrets }).toEqual({ resources: [], grants: [], secrets: [] });
  });

  it("takes a login stored without a binding as bound to the issuer of the client identity it kept", async () => {
    const { server, store } = await setUp();
    otherServer = await startOAuthLoopbackServer();
    server.moveTo(otherServer.issuer);
    await store.save({ serverUrl: server.url, issuer: server.issuer, clients: [{ issuer: server.issuer, clientId: client.clientId, clientSecret: client.clientSecret }] });
    const session = createOAuthSession({ label: "tickets", serverUrl: server.url, store, client: { clientId: client.clientId, clientName: "mca test" }, authorizer: await agreeingBrowser() });
    await expect(session.login()).rejects.toThrow(`but the client id in the config was set up for ${server.issuer}: not sent there`);
    expect(otherServer.resources).toEqual([]);
  });

  it("moves the binding to the new authorization server when the user agrees", async () => {
    const { server, other, store, login } = await movedServer(async () => true);
    await login();
    expect(other.clientSecrets).toEqual([client.clientSecret]);
    expect(await store.load(server.url)).toMatchObject({ issuer: other.issuer, clientBinding: { clientId: client.clientId, issuer: other.issuer } });
  });
});
