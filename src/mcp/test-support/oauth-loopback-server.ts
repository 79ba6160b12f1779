// A small authorization server and protected MCP server on one loopback port, for the login tests: it
// publishes its metadata, registers clients, answers the authorization URL with a redirect (as a user who
// always agrees would), checks PKCE at the token endpoint, and lets through to the tickets demo server only
// requests that carry a token it issued.
import { createHash } from "node:crypto";
import http from "node:http";
import { startTicketsServer } from "../../../servers/tickets.js";

export type OAuthLoopbackOptions = {
  /** Lifetime of each access token; tokens with little time left are refreshed by the client first. */
  readonly expiresInSeconds?: number;
};

export interface OAuthLoopbackServer {
  /** The protected MCP endpoint. */
  readonly url: string;
  readonly issuer: string;
  /** What the token endpoint was asked for, in order (`authorization_code`, `refresh_token`). */
  readonly grants: readonly string[];
  /** The `resource` of each authorization and token request, in order. */
  readonly resources: readonly string[];
  /** The redirect URIs of the clients registered so far, in order. */
  readonly registrations: readonly string[];
  /** The access tokens issued so far. */
  readonly tokens: readonly string[];
  /** The client secrets presented at the token endpoint (HTTP Basic or form), in order. */
  readonly clientSecrets: readonly string[];
  /** Every request this server received, whatever its route, in order. */
  readonly requests: readonly RecordedRequest[];
  /** The requests whose URL, any header (HTTP Basic credentials decoded) or body contains `text`. */
  requestsCarrying(text: string): readonly RecordedRequest[];
  /** From now on the protected resource metadata names this authorization server instead of its own. */
  moveTo(issuer: string): void;
  close(): Promise<void>;
}

export type RecordedRequest = {
  readonly method: string;
  /** Path and query. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
};

/**
 * A request's text as a listener could read it: the query and a form body decoded as well as raw, and HTTP
 * Basic credentials (only base64, each part form-urlencoded) decoded too.
 */
function readableText(request: RecordedRequest): string {
  const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? "")?.[1];
  const credentials = basic === undefined ? "" : Buffer.from(basic, "base64").toString("utf8");
  const query = new URL(request.url, "http://127.0.0.1").searchParams;
  const decoded = [...query.values(), ...new URLSearchParams(request.body).values(), ...credentials.split(":").map((part) => new URLSearchParams(`v=${part}`).get("v"))];
  return [request.method, request.url, JSON.stringify(request.headers), request.body, credentials, ...decoded].join("\n");
}

type Pending = { readonly challenge: string; readonly redirectUri: string };

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function json(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

export async function startOAuthLoopbackServer(options: OAuthLoopbackOptions = {}): Promise<OAuthLoopbackServer> {
  const tickets = await startTicketsServer({ port: 0 });
  const grants: string[] = [];
  const resources: string[] = [];
  const tokens: string[] = [];
  const registrations: string[] = [];
  const clientSecrets: string[] = [];
  const requests: RecordedRequest[] = [];
  let authorizationServer: string | undefined;
  const refreshTokens = new Set<string>();
  const codes = new Map<string, Pending>();
  let issued = 0;
  let origin = "";

  function issue(response: http.ServerResponse): void {
    issued += 1;
    const accessToken = `access-token-${issued}-${Date.now()}`;
    const refreshToken = `refresh-token-${issued}-${Date.now()}`;
    tokens.push(accessToken);
    refreshTokens.add(refreshToken);
    json(response, 200, { access_token: accessToken, token_type: "Bearer", expires_in: options.expiresInSeconds ?? 3600, refresh_token: refreshToken });
  }

  async function forward(request: http.IncomingMessage, body: string, response: http.ServerResponse): Promise<void> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === "string" && !["host", "authorization", "connection", "content-length"].includes(name)) headers[name] = value;
    }
    const answer = await fetch(tickets.url, { method: "POST", headers, body });
    response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
    response.end(Buffer.from(await answer.arrayBuffer()));
  }

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", origin);
    const route = `${request.method ?? ""} ${url.pathname}`;
    const body = await readBody(request);
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : (value ?? "")]));
    requests.push({ method: request.method ?? "", url: `${url.pathname}${url.search}`, headers, body });
    if (route === "GET /.well-known/oauth-protected-resource/mcp") {
      return json(response, 200, { resource: `${origin}/mcp`, authorization_servers: [authorizationServer ?? origin], scopes_supported: ["tickets"] });
    }
    if (route === "GET /.well-known/oauth-authorization-server") {
      return json(response, 200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none", "client_secret_basic"],
        authorization_response_iss_parameter_supported: true,
      });
    }
    if (route === "POST /register") {
      const registration: unknown = JSON.parse(body);
      const uris = typeof registration === "object" && registration !== null && "redirect_uris" in registration && Array.isArray(registration.redirect_uris) ? registration.redirect_uris : [];
      registrations.push(String(uris[0]));
      return json(response, 201, { client_id: `loopback-client${registrations.length === 1 ? "" : `-${registrations.length}`}`, token_endpoint_auth_method: "none" });
    }
    if (route === "GET /authorize") {
      const redirect = new URL(url.searchParams.get("redirect_uri") ?? "");
      const code = `code-${codes.size + 1}`;
      codes.set(code, { challenge: url.searchParams.get("code_challenge") ?? "", redirectUri: redirect.href });
      resources.push(url.searchParams.get("resource") ?? "");
      redirect.searchParams.set("code", code);
      redirect.searchParams.set("state", url.searchParams.get("state") ?? "");
      redirect.searchParams.set("iss", origin);
      response.writeHead(302, { location: redirect.href }).end();
      return;
    }
    if (route === "POST /token") {
      const form = new URLSearchParams(body);
      const grant = form.get("grant_type") ?? "";
      grants.push(grant);
      const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? "")?.[1];
      const secret = basic === undefined ? form.get("client_secret") : decodeURIComponent(Buffer.from(basic, "base64").toString("utf8").split(":")[1] ?? "");
      if (secret !== null) clientSecrets.push(secret);
      resources.push(form.get("resource") ?? "");
      if (grant === "authorization_code") {
        const pending = codes.get(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        if (pending === undefined || createHash("sha256").update(verifier).digest("base64url") !== pending.challenge) {
          return json(response, 400, { error: "invalid_grant" });
        }
        codes.delete(form.get("code") ?? "");
        return issue(response);
      }
      const refreshToken = form.get("refresh_token") ?? "";
      if (grant === "refresh_token" && refreshTokens.delete(refreshToken)) return issue(response);
      return json(response, 400, { error: "invalid_grant" });
    }
    if (route === "POST /mcp") {
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
      if (bearer !== undefined && tokens.includes(bearer)) return forward(request, body, response);
      const challenge = `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`;
      return json(response, 401, { error: "invalid_token" }, { "www-authenticate": challenge });
    }
    json(response, 404, { error: "not_found" });
  }

  const server = http.createServer((request, response) => {
    handle(request, response).catch(() => json(response, 500, { error: "server_error" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
  return {
    url: `${origin}/mcp`,
    issuer: origin,
    grants,
    resources,
    registrations,
    tokens,
    clientSecrets,
    requests,
    requestsCarrying: (text) => requests.filter((request) => readableText(request).includes(text)),
    moveTo(issuer) {
      authorizationServer = issuer;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await tickets.close();
    },
  };
}
