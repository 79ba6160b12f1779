// Signed JWTs with node:crypto and nothing else (RFC 7515 compact form): the client assertion of
// `private_key_jwt` (RFC 7523 §2.2) and the DPoP proofs (RFC 9449). A key is an EC P-256 key (ES256) or an
// RSA key (RS256), read from a PEM file the config names; it never leaves this process.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { readFile } from "node:fs/promises";
import { describeError } from "../../kernel/index.js";
import type { JsonObject } from "../jsonrpc.js";
import { AuthError } from "./endpoint-json.js";

export type SigningAlgorithm = "ES256" | "RS256";

export type SigningKey = {
  readonly key: KeyObject;
  readonly algorithm: SigningAlgorithm;
  /** The public half as a JWK (RFC 7517), only the members RFC 7638 hashes. */
  readonly publicJwk: Readonly<Record<string, string>>;
};

/** The algorithm a key signs with: ES256 for P-256, RS256 for RSA of 2048 bits or more; else why not. */
function algorithmOf(key: KeyObject): SigningAlgorithm | string {
  if (key.asymmetricKeyType === "ec") {
    return key.asymmetricKeyDetails?.namedCurve === "prime256v1" ? "ES256" : `an EC key on ${String(key.asymmetricKeyDetails?.namedCurve)} (only P-256 is used)`;
  }
  if (key.asymmetricKeyType === "rsa") {
    return (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048 ? "RS256" : "an RSA key under 2048 bits";
  }
  return `a ${String(key.asymmetricKeyType)} key (only EC P-256 and RSA are used)`;
}

function publicJwkOf(key: KeyObject): Record<string, string> {
  const jwk = createPublicKey(key).export({ format: "jwk" });
  const { kty, crv, x, y, n, e } = jwk;
  if (kty === "EC" && crv !== undefined && x !== undefined && y !== undefined) return { crv, kty, x, y };
  if (kty === "RSA" && n !== undefined && e !== undefined) return { e, kty, n };
  throw new AuthError(`a ${String(kty)} key has no public JWK mca can send`);
}

/** A private key from PEM text; `where` names its file in errors. */
export function signingKeyFromPem(pem: string, where: string): SigningKey {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (error) {
    throw new AuthError(`${where} holds no private key in PEM form (${describeError(error)})`);
  }
  const algorithm = algorithmOf(key);
  if (algorithm !== "ES256" && algorithm !== "RS256") throw new AuthError(`${where} holds ${algorithm}`);
  return { key, algorithm, publicJwk: publicJwkOf(key) };
}

/** Read at each use: a key rotated on disk is taken up without a restart. */
export async function readSigningKey(file: string, field: string): Promise<SigningKey> {
  let pem: string;
  try {
    pem = await readFile(file, "utf8");
  } catch (error) {
    throw new AuthError(`cannot read ${field} ${JSON.stringify(file)}: ${describeError(error)}`);
  }
  return signingKeyFromPem(pem, `${field} ${JSON.stringify(file)}`);
}

/** A fresh P-256 key, for tests and the conformance driver (the config always names a file). */
export function generateSigningKey(): { readonly signingKey: SigningKey; readonly pem: string } {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const pem = privateKey.export({ format: "pem", type: "pkcs8" }).toString();
  return { signingKey: signingKeyFromPem(pem, "a generated key"), pem };
}

function segment(value: JsonObject): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
}

/** RFC 7515 compact serialisation; ES256 signatures are the raw r‖s of RFC 7518 §3.4, not DER. */
export function signJwt(signingKey: SigningKey, header: JsonObject, claims: JsonObject): string {
  const input = `${segment({ ...header, alg: signingKey.algorithm })}.${segment(claims)}`;
  const signature = sign("sha256", Buffer.from(input), signingKey.algorithm === "ES256" ? { key: signingKey.key, dsaEncoding: "ieee-p1363" } : signingKey.key);
  return `${input}.${signature.toString("base64url")}`;
}

/** RFC 7638: SHA-256 over the required members in lexicographic order, base64url. */
export function jwkThumbprint(jwk: Readonly<Record<string, string>>): string {
  const members = Object.keys(jwk).sort().map((name) => `${JSON.stringify(name)}:${JSON.stringify(jwk[name])}`);
  return createHash("sha256").update(`{${members.join(",")}}`).digest("base64url");
}
