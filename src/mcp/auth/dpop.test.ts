import { createHash, createPublicKey, verify } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { isJsonObject, type JsonObject } from "../jsonrpc.js";
import { startEndpointFake, type EndpointFake } from "../test-support/token-endpoint-fake.js";
import { requestToken } from "./authorization.js";
import type { AuthServerMetadata } from "./discovery.js";
import { createDpopProver } from "./dpop.js";
import { generateSigningKey } from "./jwt.js";

/** A proof checked the way a server does (RFC 9449 §4.3): its own header's key verifies it. */
function verifiedProof(proof: string): { header: JsonObject; claims: JsonObject } {
  const [header = "", claims = "", signature = ""] = proof.split(".");
  const parsedHeader: unknown = JSON.parse(Buffer.from(header, "base64url").toString("utf8"));
  const parsedClaims: unknown = JSON.parse(Buffer.from(claims, "base64url").toString("utf8"));
  if (!isJsonObject(parsedHeader) || !isJsonObject(parsedClaims) || !isJsonObject(parsedHeader.jwk)) throw new Error("not a DPoP proof");
  const key = createPublicKey({ key: { ...parsedHeader.jwk }, format: "jwk" });
  if (!verify("sha256", Buffer.from(`${header}.${claims}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url"))) throw new Error("the signature does not verify");
  return { header: parsedHeader, claims: parsedClaims };
}

const NOW_MS = 1_800_000_000_000;

describe("createDpopProver", () => {
  it("signs htm, htu without query or fragment, iat, a fresh jti and ath with the public key in its header", () => {
    const { signingKey } = generateSigningKey();
    const prover = createDpopProver(signingKey, () => NOW_MS);
    const first = verifiedProof(prover.proof("POST", "https://mcp.example.com/mcp?x=1#f", "tok-1"));
    const second = verifiedProof(prover.proof("POST", "https://mcp.example.com/mcp", "tok-1"));
    expect(first.header).toEqual({ typ: "dpop+jwt", jwk: signingKey.publicJwk, alg: "ES256" });
    expect({ ...first.claims, jti: "…" }).toEqual({
      jti: "…",
      htm: "POST",
      htu: "https://mcp.example.com/mcp",
      iat: NOW_MS / 1000,
      ath: createHash("sha256").update("tok-1").digest("base64url"),
    });
    expect(first.claims.jti).not.toBe(second.claims.jti);
    expect(first.header.jwk).not.toHaveProperty("d");
  });

  it("puts a server's nonce in the next proofs to that origin only", () => {
    const prover = createDpopProver(generateSigningKey().signingKey);
    prover.takeNonce("https://as.example.com/token", "n-1");
    expect(verifiedProof(prover.proof("POST", "https://as.example.com/other")).claims.nonce).toBe("n-1");
    expect(verifiedProof(prover.proof("POST", "https://mcp.example.com/mcp")).claims).not.toHaveProperty("nonce");
  });
});

describe("requestToken with DPoP", () => {
  let fake: EndpointFake | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  function metadataOf(origin: string): AuthServerMetadata {
    return { issuer: origin, authorizationEndpoint: `${origin}/authorize`, tokenEndpoint: `${origin}/token`, clientIdMetadataDocumentSupported: false, issParameterSupported: false, defaulted: false };
  }

  it("retries once with a fresh proof carrying the nonce the token endpoint asks for (RFC 9449 §8)", async () => {
    fake = await startEndpointFake([
      { status: 400, body: { error: "use_dpop_nonce" }, headers: { "DPoP-Nonce": "as-nonce-1" } },
      { status: 200, body: { access_token: "bound", token_type: "DPoP" } },
    ]);
    const dpop = createDpopProver(generateSigningKey().signingKey);
    const client = { issuer: fake.origin, clientId: "c1" };
    const tokens = await requestToken(metadataOf(fake.origin), client, { grant_type: "client_credentials" }, "https://mcp.example.com/mcp", undefined, { dpop });
    expect(tokens).toEqual({ accessToken: "bound", refreshToken: undefined, expiresAt: undefined, scope: undefined, tokenType: "DPoP" });
    const [first, second] = fake.posts.map((post) => verifiedProof(String(post.headers.dpop)).claims);
    expect(first).not.toHaveProperty("nonce");
    expect(second).toMatchObject({ htm: "POST", htu: `${fake.origin}/token`, nonce: "as-nonce-1" });
    expect(first?.jti).not.toBe(second?.jti);
  });

  it("does not retry a refusal that asks for no nonce", async () => {
    fake = await startEndpointFake([{ status: 400, body: { error: "invalid_dpop_proof" } }]);
    const dpop = createDpopProver(generateSigningKey().signingKey);
    const failure = requestToken(metadataOf(fake.origin), { issuer: fake.origin, clientId: "c1" }, { grant_type: "client_credentials" }, "r", undefined, { dpop });
    await expect(failure).rejects.toThrow(`the token request to ${fake.origin} failed (HTTP 400: invalid_dpop_proof)`);
    expect(fake.posts.length).toBe(1);
  });
});
