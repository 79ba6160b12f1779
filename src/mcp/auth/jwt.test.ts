import { createPublicKey, generateKeyPairSync, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AuthError } from "./endpoint-json.js";
import { generateSigningKey, jwkThumbprint, signingKeyFromPem, signJwt } from "./jwt.js";

function decode(jwt: string): { header: unknown; claims: unknown; signed: Buffer; signature: Buffer } {
  const [header = "", claims = "", signature = ""] = jwt.split(".");
  return {
    header: JSON.parse(Buffer.from(header, "base64url").toString("utf8")),
    claims: JSON.parse(Buffer.from(claims, "base64url").toString("utf8")),
    signed: Buffer.from(`${header}.${claims}`),
    signature: Buffer.from(signature, "base64url"),
  };
}

describe("signJwt", () => {
  it("signs ES256 with the raw r‖s signature RFC 7518 asks for, verifiable with the public JWK", () => {
    const { signingKey } = generateSigningKey();
    const jwt = decode(signJwt(signingKey, { typ: "JWT" }, { sub: "a" }));
    expect(jwt.header).toEqual({ typ: "JWT", alg: "ES256" });
    expect(jwt.claims).toEqual({ sub: "a" });
    expect(jwt.signature.length).toBe(64);
    const publicKey = createPublicKey({ key: { ...signingKey.publicJwk }, format: "jwk" });
    expect(verify("sha256", jwt.signed, { key: publicKey, dsaEncoding: "ieee-p1363" }, jwt.signature)).toBe(true);
  });

  it("signs RS256 with an RSA key", () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const signingKey = signingKeyFromPem(privateKey.export({ format: "pem", type: "pkcs8" }).toString(), "key.pem");
    const jwt = decode(signJwt(signingKey, {}, { iss: "c" }));
    expect(jwt.header).toEqual({ alg: "RS256" });
    expect(Object.keys(signingKey.publicJwk)).toEqual(["e", "kty", "n"]);
    expect(verify("sha256", jwt.signed, createPublicKey({ key: { ...signingKey.publicJwk }, format: "jwk" }), jwt.signature)).toBe(true);
  });

  it("refuses a key it would not sign with, naming its file", () => {
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "secp384r1" });
    const pem = privateKey.export({ format: "pem", type: "pkcs8" }).toString();
    expect(() => signingKeyFromPem(pem, 'oauth.dpopKeyFile "k.pem"')).toThrow(new AuthError('oauth.dpopKeyFile "k.pem" holds an EC key on secp384r1 (only P-256 is used)'));
    expect(() => signingKeyFromPem("not a key", "k.pem")).toThrow(AuthError);
  });
});

describe("jwkThumbprint", () => {
  it("hashes the required members in lexicographic order whatever order they come in (RFC 7638 §3)", () => {
    const reordered = { y: "Y", x: "X", kty: "EC", crv: "P-256" };
    // sha256('{"crv":"P-256","kty":"EC","x":"X","y":"Y"}'), computed apart.
    expect(jwkThumbprint(reordered)).toBe(jwkThumbprint({ crv: "P-256", kty: "EC", x: "X", y: "Y" }));
    expect(jwkThumbprint(reordered)).toBe("bgglx7X3dhYynPAS9NzKrnkDooOuGP1sTYNHoSL1BkU");
  });
});
