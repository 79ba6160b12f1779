import { describe, expect, it } from "vitest";
import { metadataUrls, parseBearerChallenge } from "./discovery.js";

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
