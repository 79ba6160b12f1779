// DPoP (RFC 9449): a proof of possession of the client's key on every token request and every request that
// carries the access token, so that a token that leaks is useless without the key. The server's nonce
// (`DPoP-Nonce`, §8 for the authorization server, §9 for the resource server) is kept per origin and put
// in the next proofs there.
import { createHash, randomUUID } from "node:crypto";
import { signJwt, type SigningKey } from "./jwt.js";

export interface DpopProver {
  /**
   * A fresh proof for one request: `htm` and `htu` (the URL without query and fragment, §4.2), `iat`, a
   * unique `jti`, the origin's last nonce, and `ath` (§4.1) when it carries an access token.
   */
  proof(method: string, url: string, accessToken?: string): string;
  /** The nonce a server sent: used in the next proofs to its origin. */
  takeNonce(url: string, nonce: string): void;
}

export function createDpopProver(signingKey: SigningKey, now: () => number = Date.now): DpopProver {
  const nonces = new Map<string, string>();
  return {
    proof(method, url, accessToken) {
      const target = new URL(url);
      const nonce = nonces.get(target.origin);
      const claims = {
        jti: randomUUID(),
        htm: method,
        htu: `${target.origin}${target.pathname}`,
        iat: Math.floor(now() / 1000),
        ...(nonce === undefined ? {} : { nonce }),
        ...(accessToken === undefined ? {} : { ath: createHash("sha256").update(accessToken, "ascii").digest("base64url") }),
      };
      return signJwt(signingKey, { typ: "dpop+jwt", jwk: signingKey.publicJwk }, claims);
    },
    takeNonce(url, nonce) {
      nonces.set(new URL(url).origin, nonce);
    },
  };
}
