import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createOAuthSession } from "./oauth-session.js";
import { generateSigningKey } from "./jwt.js";
import { createMemoryTokenStore } from "./token-store.js";

const SERVER_URL = "http://127.0.0.1:9/mcp";
let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

function claimsOf(proof: string | undefined): unknown {
  return JSON.parse(Buffer.from((proof ?? "").split(".")[1] ?? "", "base64url").toString("utf8"));
}

async function sessionWith(tokenType: string) {
  dir = await mkdtemp(join(tmpdir(), "mca-dpop-"));
  const dpopKeyFile = join(dir, "dpop.pem");
  await writeFile(dpopKeyFile, generateSigningKey().pem);
  const store = createMemoryTokenStore();
  await store.save({ serverUrl: SERVER_URL, tokens: { accessToken: "bound-token", tokenType }, clients: [] });
  return createOAuthSession({ label: "s", serverUrl: SERVER_URL, store, client: { clientName: "mca test" }, dpopKeyFile });
}

describe("an OAuth session with a DPoP key", () => {
  it("presents a DPoP-bound token with the DPoP scheme and a proof of the request that carries it", async () => {
    const session = await sessionWith("DPoP");
    expect(await session.authorization()).toBe("DPoP bound-token");
    expect(claimsOf(await session.proof?.("POST", SERVER_URL))).toMatchObject({ htm: "POST", htu: SERVER_URL });
    expect(claimsOf(await session.proof?.("POST", SERVER_URL))).toHaveProperty("ath");
  });

  it("takes the server's nonce from a use_dpop_nonce challenge and goes again without a new login (RFC 9449 §9)", async () => {
    const session = await sessionWith("DPoP");
    await session.authorization();
    expect(await session.challenged(401, 'DPoP error="use_dpop_nonce", resource_metadata="x"', "rs-nonce-1")).toBe(true);
    expect(claimsOf(await session.proof?.("POST", SERVER_URL))).toMatchObject({ nonce: "rs-nonce-1" });
  });

  it("sends a bearer token as it is, with no proof", async () => {
    const session = await sessionWith("Bearer");
    expect(await session.authorization()).toBe("Bearer bound-token");
    expect(await session.proof?.("POST", SERVER_URL)).toBeUndefined();
  });
});
