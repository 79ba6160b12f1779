import { createPublicKey, verify } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isJsonObject } from "../jsonrpc.js";
import { startEndpointFake, type EndpointFake } from "../test-support/token-endpoint-fake.js";
import { requestToken } from "./authorization.js";
import type { AuthServerMetadata } from "./discovery.js";
import { AuthError } from "./endpoint-json.js";
import { JWT_BEARER_GRANT, machineGrantParams, readTokenFile } from "./grants.js";
import { generateSigningKey } from "./jwt.js";

const JWT = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3b3JrbG9hZCJ9.c2ln";
let fakes: EndpointFake[] = [];
let dir: string | undefined;
afterEach(async () => {
  await Promise.all(fakes.map((fake) => fake.close()));
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  fakes = [];
  dir = undefined;
});

async function file(name: string, text: string): Promise<string> {
  dir ??= await mkdtemp(join(tmpdir(), "mca-grants-"));
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

async function fake(...script: Parameters<typeof startEndpointFake>[0]): Promise<EndpointFake> {
  const started = await startEndpointFake(script);
  fakes.push(started);
  return started;
}

function metadataOf(origin: string): AuthServerMetadata {
  return { issuer: origin, authorizationEndpoint: `${origin}/authorize`, tokenEndpoint: `${origin}/token`, clientIdMetadataDocumentSupported: false, issParameterSupported: false, defaulted: false };
}

describe("requestToken with private_key_jwt (RFC 7523 §2.2)", () => {
  it("authenticates with an assertion from the client to the issuer, signed by the configured key", async () => {
    const as = await fake({ status: 200, body: { access_token: "t" } });
    const { signingKey } = generateSigningKey();
    const before = Math.floor(Date.now() / 1000);
    await requestToken(metadataOf(as.origin), { issuer: as.origin, clientId: "svc" }, { grant_type: "client_credentials" }, "https://mcp.example.com/mcp", undefined, { assertionKey: signingKey });
    const form = as.posts[0]?.form ?? {};
    expect({ ...form, client_assertion: "…" }).toEqual({
      grant_type: "client_credentials",
      resource: "https://mcp.example.com/mcp",
      client_id: "svc",
      client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      client_assertion: "…",
    });
    const [header = "", claims = "", signature = ""] = (form.client_assertion ?? "").split(".");
    const publicKey = createPublicKey({ key: { ...signingKey.publicJwk }, format: "jwk" });
    expect(verify("sha256", Buffer.from(`${header}.${claims}`), { key: publicKey, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url"))).toBe(true);
    const payload: unknown = JSON.parse(Buffer.from(claims, "base64url").toString("utf8"));
    expect(payload).toMatchObject({ iss: "svc", sub: "svc", aud: as.origin });
    expect(payload).toHaveProperty("jti");
    const { iat, exp } = isJsonObject(payload) ? payload : {};
    expect(Number(iat)).toBeGreaterThanOrEqual(before);
    expect(Number(exp) - Number(iat)).toBe(60);
    expect(as.posts[0]?.headers.authorization).toBeUndefined();
  });
});

describe("machineGrantParams", () => {
  const target = { issuer: "https://as.example.com", resource: "https://mcp.example.com/mcp", scope: "read" };

  it("asks for client credentials with the scope", async () => {
    expect(await machineGrantParams({ kind: "client_credentials" }, target)).toEqual({ grant_type: "client_credentials", scope: "read" });
  });

  it("sends the workload's token from its file as the JWT bearer assertion, read anew each time", async () => {
    const assertionFile = await file("token", `${JWT}\n`);
    expect(await machineGrantParams({ kind: "jwt_bearer", assertionFile }, { ...target, scope: undefined })).toEqual({ grant_type: JWT_BEARER_GRANT, assertion: JWT });
    await writeFile(assertionFile, "a.b.c");
    expect((await machineGrantParams({ kind: "jwt_bearer", assertionFile }, target)).assertion).toBe("a.b.c");
  });

  it("exchanges the ID token at the identity provider for an ID-JAG for this issuer and resource, then offers it as the assertion", async () => {
    const idp = await fake({ status: 200, body: { access_token: "jag.jag.jag", issued_token_type: "urn:ietf:params:oauth:token-type:id-jag", token_type: "N_A" } });
    const idTokenFile = await file("id-token", JWT);
    const grant = { kind: "token_exchange", idp: { tokenEndpoint: `${idp.origin}/token`, clientId: "idp-client", clientSecret: "idp-secret", idTokenFile } } as const;
    expect(await machineGrantParams(grant, target)).toEqual({ grant_type: JWT_BEARER_GRANT, assertion: "jag.jag.jag", scope: "read" });
    expect(idp.posts.map((post) => [post.path, post.headers.authorization, post.form])).toEqual([
      [
        "/token",
        `Basic ${Buffer.from("idp-client:idp-secret").toString("base64")}`,
        {
          grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
          requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
          subject_token: JWT,
          subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
          audience: "https://as.example.com",
          resource: "https://mcp.example.com/mcp",
          scope: "read",
        },
      ],
    ]);
  });

  it("refuses what the identity provider issues when it is not an ID-JAG", async () => {
    const idp = await fake({ status: 200, body: { access_token: "x", issued_token_type: "urn:ietf:params:oauth:token-type:access_token" } });
    const grant = { kind: "token_exchange", idp: { tokenEndpoint: `${idp.origin}/token`, clientId: "c", idTokenFile: await file("id", JWT) } } as const;
    await expect(machineGrantParams(grant, target)).rejects.toThrow('the identity provider issued "urn:ietf:params:oauth:token-type:access_token", not an ID-JAG');
  });
});

describe("readTokenFile", () => {
  it("names the file and the field when it holds no JWT or cannot be read", async () => {
    const path = await file("bad", "not a token");
    await expect(readTokenFile(path, "oauth.assertionFile")).rejects.toThrow(new AuthError(`oauth.assertionFile ${JSON.stringify(path)} holds no JWT`));
    await expect(readTokenFile(`${path}-missing`, "oauth.assertionFile")).rejects.toThrow(/^cannot read oauth.assertionFile ".*-missing": ENOENT/);
  });
});
