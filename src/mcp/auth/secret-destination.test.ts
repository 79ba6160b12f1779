import { describe, expect, it } from "vitest";
import { chooseIssuer, describeIssuer, issuerProblem, sameIssuer, secretDestination, type DestinationInput } from "./secret-destination.js";

const SERVER = "https://mcp.example.com/mcp";

describe("secretDestination", () => {
  const cases: readonly { readonly what: string; readonly input: Omit<DestinationInput, "server" | "serverUrl">; readonly verdict: string }[] = [
    { what: "the config's issuer", input: { configuredIssuer: "https://auth.example.com", issuer: "https://auth.example.com" }, verdict: "configured" },
    { what: "the config's issuer with a trailing slash", input: { configuredIssuer: "https://auth.example.com/", issuer: "https://auth.example.com" }, verdict: "configured" },
    { what: "the config's issuer, host in capitals", input: { configuredIssuer: "https://auth.example.com", issuer: "https://AUTH.example.com" }, verdict: "configured" },
    { what: "another path than the config's", input: { configuredIssuer: "https://auth.example.com/a", issuer: "https://auth.example.com/b" }, verdict: "elsewhere" },
    { what: "the server's origin, the config naming another issuer", input: { configuredIssuer: "https://auth.example.com", issuer: "https://mcp.example.com" }, verdict: "elsewhere" },
    { what: "the server's origin, the config naming none", input: { configuredIssuer: undefined, issuer: "https://mcp.example.com/tenant" }, verdict: "server-origin" },
    { what: "the server's origin over http", input: { configuredIssuer: undefined, issuer: "http://mcp.example.com" }, verdict: "elsewhere" },
    { what: "the server's host on another port", input: { configuredIssuer: undefined, issuer: "https://mcp.example.com:8443" }, verdict: "elsewhere" },
    { what: "a subdomain of the server's host", input: { configuredIssuer: undefined, issuer: "https://auth.mcp.example.com" }, verdict: "elsewhere" },
    { what: "the server's host as user info before another host", input: { configuredIssuer: undefined, issuer: "https://mcp.example.com@evil.example" }, verdict: "elsewhere" },
    { what: "text that is no URL", input: { configuredIssuer: undefined, issuer: "not a url" }, verdict: "elsewhere" },
  ];

  for (const { what, input, verdict } of cases) {
    it(`judges ${what}: ${verdict}`, () => {
      expect(secretDestination({ server: "tickets", serverUrl: SERVER, ...input }).verdict).toBe(verdict);
    });
  }

  it("gives what to ask about another issuer: both origins, as parsed", () => {
    expect(secretDestination({ server: "tickets", serverUrl: SERVER, configuredIssuer: undefined, issuer: "https://evil.example/x/" })).toEqual({
      verdict: "elsewhere",
      question: { server: "tickets", serverOrigin: "https://mcp.example.com", issuer: "https://evil.example/x", issuerOrigin: "https://evil.example" },
    });
  });

  it("shows an issuer that is no URL quoted, with nothing a terminal would obey", () => {
    const destination = secretDestination({ server: "tickets", serverUrl: SERVER, configuredIssuer: undefined, issuer: "https://evil\u202e.example\u001b[2J" });
    expect(destination).toEqual({
      verdict: "elsewhere",
      question: { server: "tickets", serverOrigin: "https://mcp.example.com", issuer: '"https://evil\\u202e.example\\u001b[2J"', issuerOrigin: '"https://evil\\u202e.example\\u001b[2J"' },
    });
  });
});

describe("describeIssuer", () => {
  it("says whether the config names an issuer, and which", () => {
    const question = { server: "tickets", serverOrigin: "https://mcp.example.com", issuer: "https://evil.example", issuerOrigin: "https://evil.example" };
    expect([describeIssuer(question), describeIssuer({ ...question, configuredIssuer: "https://auth.example.com" })]).toEqual([
      "tickets (at https://mcp.example.com) names authorization server https://evil.example, which is not on the server's own origin, and the config names no oauth.issuer",
      "tickets (at https://mcp.example.com) names authorization server https://evil.example, which is not the config's oauth.issuer (https://auth.example.com)",
    ]);
  });
});

describe("issuerProblem", () => {
  it("takes https URLs anywhere and http URLs on this machine only", () => {
    const accepted = ["https://auth.example.com", "https://auth.example.com/tenant1", "http://127.0.0.1:8080", "http://localhost:9000/as", "http://[::1]:4000"];
    expect(accepted.map(issuerProblem)).toEqual(accepted.map(() => undefined));
  });

  it("refuses plain http off this machine, other schemes, a query, a fragment and user info", () => {
    const refused = ["http://auth.example.com", "http://192.168.1.5", "ftp://auth.example.com", "https://auth.example.com?x=1", "https://auth.example.com#a", "https://user@auth.example.com", "auth.example.com"];
    expect(refused.map((text) => issuerProblem(text) !== undefined)).toEqual(refused.map(() => true));
  });
});

describe("chooseIssuer", () => {
  it("takes the config's issuer when the resource lists it, else the first listed", () => {
    const listed = ["https://first.example", "https://auth.example.com"];
    expect([chooseIssuer(listed, "https://auth.example.com/"), chooseIssuer(listed, "https://other.example"), chooseIssuer(listed, undefined)]).toEqual([
      "https://auth.example.com",
      "https://first.example",
      "https://first.example",
    ]);
  });
});

describe("sameIssuer", () => {
  it("compares where requests go, not spelling", () => {
    expect([sameIssuer("https://a.example/x/", "https://A.example/x"), sameIssuer("https://a.example:443", "https://a.example"), sameIssuer("https://a.example", "http://a.example"), sameIssuer("x", "x")]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});
