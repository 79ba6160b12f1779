import { afterEach, describe, expect, it } from "vitest";
import type { McpClient } from "../client.js";
import { negotiateEra } from "../era.js";
import { createHttpTransport } from "../http/transport.js";
import { startApiKeyServer, type ApiKeyServer, type Refusal } from "../test-support/api-key-server.js";
import { createWire, type Wire } from "../wire.js";
import { startLoopbackAuthorizer, type LoopbackAuthorizer } from "./loopback-redirect.js";
import { createOAuthSession, type Authorizer } from "./oauth-session.js";
import { createMemoryTokenStore } from "./token-store.js";

const KEY = "k-2f9d7c";
let server: ApiKeyServer | undefined;
let browser: LoopbackAuthorizer | undefined;
afterEach(async () => {
  await server?.close();
  await browser?.close();
  server = browser = undefined;
});

/** Mounts the server as mca does for an HTTP server with a login (none possible here unless `authorizer`). */
async function mount(url: string, headers: Record<string, string>, authorizer?: Authorizer): Promise<McpClient> {
  const auth = createOAuthSession({ label: "keyed", serverUrl: url, store: createMemoryTokenStore(), client: { clientName: "mca test" }, ...(authorizer === undefined ? {} : { authorizer }) });
  let wire: Wire | undefined;
  const open = async () => {
    await wire?.close();
    wire = createWire({ transport: createHttpTransport({ label: "keyed", url, headers, auth }), clientVersion: "0.0.0" });
    await wire.start();
    return wire;
  };
  try {
    return (await negotiateEra(open, { transport: "http" })).client;
  } catch (error) {
    await wire?.close();
    throw error;
  }
}

const HINT = 'the server publishes no OAuth metadata, so if it takes an API key or token, set it in "headers" for this server in the config';

describe("a 401 from a server that publishes no OAuth metadata (fastmcp, mcp-proxy)", () => {
  const cases: ReadonlyArray<readonly [string, Refusal, string]> = [
    ["a text body", { kind: "text", body: "missing or wrong X-Api-Key" }, '"missing or wrong X-Api-Key"'],
    ["a JSON body's error", { kind: "json", body: { error: "missing or wrong X-Api-Key" } }, '"missing or wrong X-Api-Key"'],
    ["a JSON-RPC error", { kind: "json-rpc", message: "Unauthorized: missing or wrong X-Api-Key" }, '"Unauthorized: missing or wrong X-Api-Key"'],
    ["the challenge's error_description", { kind: "challenge", description: "API key required" }, '"API key required"'],
  ];
  for (const [how, refusal, reason] of cases) {
    it(`says HTTP 401 with the server's reason from ${how}, and where a key goes`, async () => {
      server = await startApiKeyServer(KEY, refusal);
      const error = await mount(server.url, {}).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ message: `HTTP 401: ${reason}; ${HINT}`, server: "keyed" });
    });
  }

  it("escapes what the server says before it is shown", async () => {
    server = await startApiKeyServer(KEY, { kind: "text", body: "no key\u001b[2J\u0007 given" });
    const error = await mount(server.url, {}).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ message: `HTTP 401: "no key\\u001b[2J\\u0007 given"; ${HINT}` });
  });

  it("looks for every era's metadata, tries the 2025-03-26 registration, and opens no browser before it says so", async () => {
    server = await startApiKeyServer(KEY, { kind: "text", body: "missing or wrong X-Api-Key" });
    const visited: string[] = [];
    browser = await startLoopbackAuthorizer({ open: async (url) => void visited.push(url.toString()) });
    const error = await mount(server.url, {}, browser).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ message: `HTTP 401: "missing or wrong X-Api-Key"; ${HINT}` });
    expect(server.requests).toEqual([
      "POST /mcp",
      "GET /.well-known/oauth-protected-resource/mcp",
      "GET /.well-known/oauth-protected-resource",
      "GET /.well-known/oauth-authorization-server",
      "GET /.well-known/openid-configuration",
      "POST /register",
    ]);
    expect(visited).toEqual([]);
  });

  it("lets the requests through once the key is in the headers", async () => {
    server = await startApiKeyServer(KEY, { kind: "text", body: "missing or wrong X-Api-Key" });
    const client = await mount(server.url, { "X-Api-Key": KEY });
    try {
      expect((await client.listTools()).length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });
});
