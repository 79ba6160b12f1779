import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { AuthError } from "./endpoint-json.js";
import { discoverAuthServer, discoverProtectedResource, metadataUrls, parseBearerChallenge } from "./discovery.js";

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** A loopback server answering GETs from a table of documents (`origin` is filled in), 404 elsewhere; it records the paths asked. */
async function documents(table: (origin: string) => Record<string, unknown>): Promise<{ origin: string; asked: string[] }> {
  const asked: string[] = [];
  let origin = "";
  server = http.createServer((request, response) => {
    asked.push(request.url ?? "");
    const document = table(origin)[request.url ?? ""];
    if (document === undefined) response.writeHead(404).end();
    else response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(document));
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
  return { origin, asked };
}

const asMetadata = (issuer: string, extra: Record<string, unknown> = {}) => ({
  issuer,
  authorization_endpoint: `${issuer}/authorize`,
  token_endpoint: `${issuer}/token`,
  code_challenge_methods_supported: ["S256"],
  ...extra,
});

describe("discoverProtectedResource", () => {
  it("falls back from the path-based well-known URL to the root one when the challenge names none", async () => {
    const { origin, asked } = await documents((at) => ({ "/.well-known/oauth-protected-resource": { resource: at, authorization_servers: [at] } }));
    expect(await discoverProtectedResource(`${origin}/mcp`, undefined)).toEqual({ resource: origin, authorizationServers: [origin], scopesSupported: undefined });
    expect(asked).toEqual(["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]);
  });

  it("refuses metadata that names another resource", async () => {
    const { origin } = await documents((at) => ({ "/.well-known/oauth-protected-resource/mcp": { resource: "https://evil.example.com/mcp", authorization_servers: [at] } }));
    await expect(discoverProtectedResource(`${origin}/mcp`, undefined)).rejects.toThrow("names https://evil.example.com/mcp, not this server");
  });
});

describe("discoverAuthServer", () => {
  it("refuses metadata whose issuer is not the one its URL was built from", async () => {
    const { origin } = await documents(() => ({ "/.well-known/oauth-authorization-server": asMetadata("https://attacker.example.com") }));
    await expect(discoverAuthServer(origin)).rejects.toThrow(/names issuer "https:\/\/attacker.example.com", not/);
  });

  it("refuses a server that does not advertise PKCE with S256", async () => {
    const { origin } = await documents((at) => ({ "/.well-known/oauth-authorization-server": asMetadata(at, { code_challenge_methods_supported: ["plain"] }) }));
    await expect(discoverAuthServer(origin)).rejects.toThrow("does not advertise PKCE with S256: refused");
  });

  it("refuses a file: authorization endpoint, which a browser would open as a local file", async () => {
    const { origin } = await documents((at) => ({ "/.well-known/oauth-authorization-server": asMetadata(at, { authorization_endpoint: "file:///etc/passwd" }) }));
    await expect(discoverAuthServer(origin)).rejects.toThrow(
      new AuthError(`the authorization server ${origin} names "file:///etc/passwd" as its authorization endpoint: only http: and https: URLs are used`),
    );
  });

  it("stops at metadata over the cap, instead of reading on or trying the next URL", async () => {
    const { origin, asked } = await documents(() => ({ "/.well-known/oauth-authorization-server": "x".repeat(4096) }));
    await expect(discoverAuthServer(origin, { maxBytes: 1024, timeoutMs: 5000 })).rejects.toThrow(
      new AuthError(`${origin}/.well-known/oauth-authorization-server sent more than 1024 bytes: refused`),
    );
    expect(asked).toEqual(["/.well-known/oauth-authorization-server"]);
  });

  it("reads OpenID Connect discovery where RFC 8414 metadata is missing", async () => {
    const { origin, asked } = await documents((at) => ({ "/.well-known/openid-configuration": asMetadata(at) }));
    expect(await discoverAuthServer(origin)).toMatchObject({ issuer: origin, tokenEndpoint: `${origin}/token` });
    expect(asked).toEqual(["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]);
  });
});

describe("parseBearerChallenge", () => {
  it("reads the quoted and bare parameters of a Bearer challenge", () => {
    const header = 'Bearer error="insufficient_scope", scope="a b", resource_metadata=https://x.example/prm';
    expect(parseBearerChallenge(header)).toEqual({ error: "insufficient_scope", scope: "a b", resourceMetadata: "https://x.example/prm" });
  });

  it("finds no Bearer challenge in a Basic one", () => {
    expect(parseBearerChallenge('Basic realm="x"')).toBeUndefined();
  });
});

describe("metadataUrls", () => {
  it("tries RFC 8414 then OpenID Connect with the issuer's path inserted, then OpenID Connect with it appended", () => {
    expect(metadataUrls("https://auth.example.com/tenant")).toEqual([
      "https://auth.example.com/.well-known/oauth-authorization-server/tenant",
      "https://auth.example.com/.well-known/openid-configuration/tenant",
      "https://auth.example.com/tenant/.well-known/openid-configuration",
    ]);
    expect(metadataUrls("https://auth.example.com")).toEqual([
      "https://auth.example.com/.well-known/oauth-authorization-server",
      "https://auth.example.com/.well-known/openid-configuration",
    ]);
  });
});
