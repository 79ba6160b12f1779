import { createHash, createPublicKey, verify } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { generateSigningKey } from "../auth/jwt.js";
import { createOAuthSession } from "../auth/oauth-session.js";
import { createMemoryTokenStore } from "../auth/token-store.js";
import { isJsonObject, type JsonObject } from "../jsonrpc.js";
import { createMessageInbox } from "../test-support/http-message-inbox.js";
import { HttpFailure } from "./failure.js";
import { createHttpTransport } from "./transport.js";

const TOKEN = "bound-token";
const NONCE = "rs-nonce-1";

/** What the resource server saw of one request: the scheme it was given and the proof's claims, or why it refused. */
type Seen = { readonly authorization: string | undefined; readonly claims: JsonObject | string };

/** A proof checked the way a resource server does (RFC 9449 §4.3, §7.1): its header's key verifies it. */
function checkProof(proof: string | undefined): JsonObject | string {
  if (proof === undefined) return "no DPoP header";
  const [header = "", claims = "", signature = ""] = proof.split(".");
  const parsedHeader: unknown = JSON.parse(Buffer.from(header, "base64url").toString("utf8"));
  const parsedClaims: unknown = JSON.parse(Buffer.from(claims, "base64url").toString("utf8"));
  if (!isJsonObject(parsedHeader) || !isJsonObject(parsedClaims) || !isJsonObject(parsedHeader.jwk)) return "not a JWT";
  if (parsedHeader.typ !== "dpop+jwt") return "not a DPoP proof";
  const key = createPublicKey({ key: { ...parsedHeader.jwk }, format: "jwk" });
  const valid = verify("sha256", Buffer.from(`${header}.${claims}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url"));
  return valid ? parsedClaims : "the signature does not verify";
}

/**
 * A resource server that takes only a DPoP-bound token with a valid proof of the request, and a proof that
 * carries its nonce: the first proof without one is answered 401 `use_dpop_nonce` with `DPoP-Nonce` (§9).
 */
async function startDpopServer() {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      // Only the MCP endpoint is served: a login looking for metadata finds none.
      if (req.method !== "POST") return void res.writeHead(404).end();
      const body: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const claims = checkProof(typeof req.headers.dpop === "string" ? req.headers.dpop : undefined);
      seen.push({ authorization: req.headers.authorization, claims });
      if (req.headers.authorization !== `DPoP ${TOKEN}` || typeof claims === "string") {
        res.writeHead(401, { "Content-Type": "application/json", "WWW-Authenticate": 'DPoP error="invalid_token"' });
        return void res.end(JSON.stringify({ error: "invalid_token" }));
      }
      if (claims.nonce !== NONCE) {
        res.writeHead(401, { "Content-Type": "application/json", "WWW-Authenticate": 'DPoP error="use_dpop_nonce"', "DPoP-Nonce": NONCE });
        return void res.end(JSON.stringify({ error: "use_dpop_nonce" }));
      }
      const id = isJsonObject(body) ? body.id : null;
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id, result: { resultType: "complete", tools: [] } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address: AddressInfo | string | null = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(tokenType: string) {
  const server = await startDpopServer();
  cleanups.push(() => server.close());
  const dir = await mkdtemp(join(tmpdir(), "mca-dpop-transport-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const dpopKeyFile = join(dir, "dpop.pem");
  await writeFile(dpopKeyFile, generateSigningKey().pem);
  const store = createMemoryTokenStore();
  await store.save({ serverUrl: server.url, tokens: { accessToken: TOKEN, tokenType }, clients: [] });
  const auth = createOAuthSession({ label: "s", serverUrl: server.url, store, client: { clientName: "mca test" }, dpopKeyFile });
  const inbox = createMessageInbox();
  const transport = createHttpTransport({ label: "s", url: server.url, auth });
  cleanups.push(() => transport.close());
  await transport.start(inbox.handlers);
  return { server, inbox, transport };
}

const LIST = { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { protocolVersion: "2026-07-28" } } } as const;

describe("createHttpTransport with a DPoP-bound login", () => {
  it("sends a valid proof of each request and goes again once with the nonce the resource server asks for (RFC 9449 §9)", async () => {
    const { server, inbox, transport } = await setup("DPoP");
    await transport.send(LIST);
    expect(await inbox.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { resultType: "complete", tools: [] } });
    const ath = createHash("sha256").update(TOKEN).digest("base64url");
    const shown = server.seen.map(({ authorization, claims }) => ({
      authorization,
      claims: typeof claims === "string" ? claims : { ...claims, jti: typeof claims.jti, iat: typeof claims.iat },
    }));
    expect(shown).toEqual([
      { authorization: `DPoP ${TOKEN}`, claims: { jti: "string", iat: "number", htm: "POST", htu: server.url, ath } },
      { authorization: `DPoP ${TOKEN}`, claims: { jti: "string", iat: "number", htm: "POST", htu: server.url, ath, nonce: NONCE } },
    ]);
  });

  it("fails with the server's refusal when the token is a bearer token, with no proof sent", async () => {
    const { server, transport } = await setup("Bearer");
    const error = await transport.send(LIST).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpFailure);
    expect(server.seen[0]).toEqual({ authorization: `Bearer ${TOKEN}`, claims: "no DPoP header" });
  });
});
