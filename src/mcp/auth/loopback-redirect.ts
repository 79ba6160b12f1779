// The user's way back from the browser (RFC 8252 §7.3): a listener on 127.0.0.1 — a free port, or the one
// the config names — that takes the authorization server's redirect once and answers with a page saying the
// login can be closed. Opening the browser is a seam: the CLI opens a real one, tests follow the URL.
import http from "node:http";
import type { Authorizer } from "./oauth-session.js";

/** A login nobody finishes is given up after this. */
export const LOGIN_WAIT_MS = 5 * 60_000;
const CALLBACK_PATH = "/callback";

export type LoopbackAuthorizer = Authorizer & { close(): Promise<void> };

export type LoopbackOptions = {
  /** 0 (the default) takes a free port. */
  readonly port?: number;
  /** Shows the authorization URL to the user (prints it, opens a browser): the redirect is awaited meanwhile. */
  readonly open: (authorizationUrl: URL) => void | Promise<void>;
  readonly waitMs?: number;
};

const DONE_PAGE = "<!doctype html><title>mca</title><p>The login is complete: you can close this page and return to mca.</p>\n";

export async function startLoopbackAuthorizer(options: LoopbackOptions): Promise<LoopbackAuthorizer> {
  let deliver: ((url: URL) => void) | undefined;
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method !== "GET" || url.pathname !== CALLBACK_PATH || deliver === undefined) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return;
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(DONE_PAGE);
    const taken = deliver;
    deliver = undefined;
    taken(new URL(`${url.pathname}${url.search}`, redirectUri));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const redirectUri = `http://127.0.0.1:${port}${CALLBACK_PATH}`;
  const waitMs = options.waitMs ?? LOGIN_WAIT_MS;

  return {
    redirectUri,
    async visit(authorizationUrl) {
      let timer: NodeJS.Timeout | undefined;
      const redirect = new Promise<URL>((resolve, reject) => {
        timer = setTimeout(() => {
          deliver = undefined;
          reject(new Error(`no answer from the browser within ${Math.round(waitMs / 1000)} s`));
        }, waitMs);
        deliver = (url) => {
          clearTimeout(timer);
          resolve(url);
        };
      });
      try {
        await options.open(authorizationUrl);
      } catch (error) {
        // Nothing was shown: no redirect is awaited, and no timer is left to fire later.
        clearTimeout(timer);
        deliver = undefined;
        throw error;
      }
      return redirect;
    },
    close() {
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
