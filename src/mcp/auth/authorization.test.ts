import http from "node:http";
import { describe, expect, it } from "vitest";
import { chooseScope, codeFromRedirect, requestToken, type AuthorizationRequest } from "./authorization.js";
import type { AuthServerMetadata } from "./discovery.js";
import { AuthError } from "./endpoint-json.js";

const METADATA: AuthServerMetadata = {
  issuer: "https://auth.example.com/tenant",
  authorizationEndpoint: "https://auth.example.com/tenant/authorize",
  tokenEndpoint: "https://auth.example.com/tenant/token",
  clientIdMetadataDocumentSupported: false,
  issParameterSupported: true,
  defaulted: false,
};
const REQUEST: AuthorizationRequest = { url: new URL(METADATA.authorizationEndpoint), state: "s-1", verifier: "v", redirectUri: "http://127.0.0.1:1/callback" };

function redirect(params: Record<string, string>): URL {
  const url = new URL(REQUEST.redirectUri);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url;
}

describe("codeFromRedirect", () => {
  it("takes the code of a redirect with our state and the issuer's iss", () => {
    expect(codeFromRedirect(redirect({ code: "c", state: "s-1", iss: METADATA.issuer }), REQUEST, METADATA)).toBe("c");
  });

  it("refuses an iss that differs, even by a trailing slash, and a missing one the server advertises", () => {
    expect(() => codeFromRedirect(redirect({ code: "c", state: "s-1", iss: `${METADATA.issuer}/` }), REQUEST, METADATA)).toThrow(/refused/);
    expect(() => codeFromRedirect(redirect({ code: "c", state: "s-1" }), REQUEST, METADATA)).toThrow(/lacks the iss/);
  });

  it("refuses a redirect with another state", () => {
    expect(() => codeFromRedirect(redirect({ code: "c", state: "forged", iss: METADATA.issuer }), REQUEST, METADATA)).toThrow(/state/);
  });
});

describe("chooseScope", () => {
  it("takes the challenge's scope first, then the resource's, then none", () => {
    expect(chooseScope("a", ["b"], undefined, METADATA)).toBe("a");
    expect(chooseScope(undefined, ["b", "c"], undefined, METADATA)).toBe("b c");
    expect(chooseScope(undefined, undefined, undefined, METADATA)).toBeUndefined();
  });

  it("asks a step-up for the union with what was asked before, and offline_access where the server lists it", () => {
    expect(chooseScope("write", undefined, "read", { ...METADATA, scopesSupported: ["read", "write", "offline_access"] })).toBe("read write offline_access");
  });
});

describe("requestToken", () => {
  it("gives up on a token endpoint that never answers when the deadline passes", async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", () => resolve()));
    const address = silent.address();
    const tokenEndpoint = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/token`;
    try {
      const grant = { grant_type: "authorization_code", code: "c" };
      const error = await requestToken({ ...METADATA, tokenEndpoint }, { issuer: METADATA.issuer, clientId: "c" }, grant, "https://x.example/mcp", { maxBytes: 1024, timeoutMs: 100 }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toEqual(new AuthError(`${tokenEndpoint} did not answer within 0.1 s: given up`));
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
