import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { AuthError, fetchEndpointJson } from "./endpoint-json.js";

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** A loopback server whose every request is answered by `handle`; resolves with its origin. */
async function serve(handle: http.RequestListener): Promise<string> {
  server = http.createServer(handle);
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
}

/** Writes 64 KiB chunks for as long as the client reads; the count of bytes sent is kept. */
function endless(sent: { bytes: number }): http.RequestListener {
  const chunk = Buffer.alloc(64 * 1024, "x");
  return (_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    const pump = (): void => {
      while (!response.destroyed && response.write(chunk)) sent.bytes += chunk.length;
      if (!response.destroyed) response.once("drain", pump);
    };
    pump();
  };
}

describe("fetchEndpointJson", () => {
  it("reads a JSON answer with its status, and an error body as well", async () => {
    const origin = await serve((request, response) => {
      const status = request.url === "/token" ? 400 : 200;
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(status === 200 ? { issuer: "x" } : { error: "invalid_grant" }));
    });
    const metadata = await fetchEndpointJson(`${origin}/meta`, { headers: {} });
    const refused = await fetchEndpointJson(`${origin}/token`, { method: "POST", headers: {}, body: "grant_type=x" });
    expect([metadata.status, metadata.json, refused.status, refused.json]).toEqual([200, { issuer: "x" }, 400, { error: "invalid_grant" }]);
  });

  it("does not follow a redirect with a request that carries a body (client credentials), and says so", async () => {
    const received: string[] = [];
    const origin = await serve((request, response) => {
      received.push(`${request.method ?? ""} ${request.url ?? ""}`);
      if (request.url?.startsWith("/token") === true) response.writeHead(307, { location: "/elsewhere" }).end();
      else response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    await expect(fetchEndpointJson(`${origin}/token?x=1`, { method: "POST", headers: {}, body: "client_secret=s3cret" })).rejects.toEqual(
      new AuthError(`${origin}/token answered with a redirect (HTTP 307): not followed, since the request carries client credentials`),
    );
    expect(received).toEqual(["POST /token?x=1"]);
  });

  it("stops reading a body that never ends at the cap, naming the URL and the cap", async () => {
    const sent = { bytes: 0 };
    const origin = await serve(endless(sent));
    const error = await fetchEndpointJson(`${origin}/.well-known/oauth-authorization-server?x=secret`, { headers: {} }).catch((caught: unknown) => caught);
    expect(error).toEqual(new AuthError(`${origin}/.well-known/oauth-authorization-server sent more than 1 MiB: refused`));
    // The read stopped near the cap: what the socket buffers beyond it is all that was sent.
    expect(sent.bytes).toBeLessThan(16 * 1024 * 1024);
  });

  it("gives up on a server that never answers when the deadline passes", async () => {
    const origin = await serve(() => undefined);
    const error = await fetchEndpointJson(`${origin}/token`, { method: "POST", headers: {}, body: "" }, { maxBytes: 1024, timeoutMs: 100 }).catch((caught: unknown) => caught);
    expect(error).toEqual(new AuthError(`${origin}/token did not answer within 0.1 s: given up`));
  });

  it("gives up on a body that trickles past the deadline", async () => {
    const origin = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write("{");
    });
    const error = await fetchEndpointJson(`${origin}/meta`, { headers: {} }, { maxBytes: 1024, timeoutMs: 100 }).catch((caught: unknown) => caught);
    expect(error).toEqual(new AuthError(`${origin}/meta did not answer within 0.1 s: given up`));
  });
});
