// Finding who guards an MCP server (https://modelcontextprotocol.io/specification/draft/basic/authorization):
// the `WWW-Authenticate` challenge, the server's Protected Resource Metadata (RFC 9728), and its authorization
// server's metadata (RFC 8414 / OpenID discovery), each checked before anything is sent to that server.
import type { JsonObject } from "../jsonrpc.js";
import { AuthError, ENDPOINT_LIMITS, fetchEndpointJson, type EndpointLimits } from "./endpoint-json.js";

/** The parameters of a `Bearer` challenge that the flow uses. */
export type BearerChallenge = {
  readonly resourceMetadata?: string;
  readonly scope?: string;
  readonly error?: string;
};

export type ProtectedResource = {
  /** The resource identifier exactly as published: sent as `resource=` unchanged (RFC 8707). */
  readonly resource: string;
  readonly authorizationServers: readonly string[];
  readonly scopesSupported?: readonly string[];
};

export type AuthServerMetadata = {
  readonly issuer: string;
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  readonly registrationEndpoint?: string;
  readonly scopesSupported?: readonly string[];
  readonly tokenEndpointAuthMethods?: readonly string[];
  readonly clientIdMetadataDocumentSupported: boolean;
  readonly issParameterSupported: boolean;
  /** RFC 9449 §5.1 `dpop_signing_alg_values_supported`. */
  readonly dpopAlgorithms?: readonly string[];
  /** The 2025-03-26 default endpoints, assumed because no metadata document was found. */
  readonly defaulted: boolean;
};

/**
 * Reads `Bearer k="v", k2=v2` (RFC 6750 §3), or the same parameters of a `DPoP` challenge (RFC 9449 §7.1);
 * other schemes in the same header are skipped.
 */
export function parseBearerChallenge(header: string | undefined): BearerChallenge | undefined {
  if (header === undefined) return undefined;
  const start = header.search(/(^|,|\s)(Bearer|DPoP)(\s|$)/i);
  if (start < 0) return undefined;
  const params: Record<string, string> = {};
  const pattern = /([A-Za-z_]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))/g;
  for (const match of header.slice(start).replace(/^\W*(Bearer|DPoP)/i, "").matchAll(pattern)) {
    const [, key = "", quoted, bare] = match;
    params[key.toLowerCase()] = quoted === undefined ? (bare ?? "") : quoted.replace(/\\(.)/g, "$1");
  }
  return { resourceMetadata: params.resource_metadata, scope: params.scope, error: params.error };
}

/** What the server says to a request without a token: its `WWW-Authenticate`, if it asks for one. */
export async function probeChallenge(serverUrl: string, limits: EndpointLimits = ENDPOINT_LIMITS): Promise<string | undefined> {
  const response = await fetch(serverUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: {} }),
    signal: AbortSignal.timeout(limits.timeoutMs),
  });
  // Only the status and the header count: the body (perhaps a stream that stays open) is not read.
  await response.body?.cancel();
  return response.status === 401 ? (response.headers.get("www-authenticate") ?? undefined) : undefined;
}

/**
 * A well-known document, or undefined where there is none (not 2xx, not a JSON object, no connection) so
 * that the next candidate is tried; an answer over the cap or past the deadline stops discovery instead.
 */
async function wellKnownDocument(url: string, limits: EndpointLimits): Promise<JsonObject | undefined> {
  try {
    const answer = await fetchEndpointJson(url, { headers: { accept: "application/json" } }, limits);
    return answer.status >= 200 && answer.status < 300 ? answer.json : undefined;
  } catch (error) {
    if (error instanceof AuthError) throw error;
    return undefined;
  }
}

/** An absolute http: or https: URL. */
function isWebUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : undefined;
}

/**
 * RFC 9728 §3: the URL from the challenge, else `/.well-known/oauth-protected-resource/<path>`, else the
 * same at the root. The resource it names must be this server (RFC 9728 §3.3): the server URL itself or a
 * parent of it on the same origin — else a token for it could be replayed elsewhere. Undefined when the
 * server publishes none (a 2025-03-26 server, or one that takes no OAuth at all).
 */
export async function discoverProtectedResource(
  serverUrl: string,
  challenge: BearerChallenge | undefined,
  limits: EndpointLimits = ENDPOINT_LIMITS,
): Promise<ProtectedResource | undefined> {
  const server = new URL(serverUrl);
  const path = server.pathname === "/" ? "" : server.pathname.replace(/\/$/, "");
  const candidates = [
    ...(challenge?.resourceMetadata === undefined ? [] : [challenge.resourceMetadata]),
    `${server.origin}/.well-known/oauth-protected-resource${path}`,
    ...(path === "" ? [] : [`${server.origin}/.well-known/oauth-protected-resource`]),
  ];
  for (const candidate of candidates) {
    const document = await wellKnownDocument(candidate, limits);
    if (document === undefined) continue;
    const resource = document.resource;
    const authorizationServers = strings(document.authorization_servers) ?? [];
    if (typeof resource !== "string") throw new AuthError(`the protected resource metadata at ${candidate} names no resource`);
    if (!resourceCovers(resource, server)) {
      throw new AuthError(`the protected resource metadata names ${resource}, not this server (${server.origin}${server.pathname}): refused`);
    }
    if (authorizationServers.length === 0) throw new AuthError(`the protected resource metadata at ${candidate} names no authorization server`);
    return { resource, authorizationServers, scopesSupported: strings(document.scopes_supported) };
  }
  return undefined;
}

function resourceCovers(resource: string, server: URL): boolean {
  let parsed: URL;
  try {
    parsed = new URL(resource);
  } catch {
    return false;
  }
  if (parsed.origin !== server.origin || parsed.hash !== "") return false;
  const base = parsed.pathname.replace(/\/$/, "");
  return base === "" || server.pathname === base || server.pathname.startsWith(`${base}/`);
}

/**
 * The spec's order of well-known URLs: for an issuer with a path, RFC 8414 with the path inserted, then
 * OpenID Connect with the path inserted, then OpenID Connect with the path appended; without a path,
 * RFC 8414 then OpenID Connect.
 */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  if (path === "") return [`${url.origin}/.well-known/oauth-authorization-server`, `${url.origin}/.well-known/openid-configuration`];
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

/**
 * RFC 8414 §3.3: "The issuer value returned MUST be identical to the authorization server's issuer
 * identifier value into which the well-known URI string was inserted" — compared as strings. PKCE is
 * required, so a server that does not advertise S256 is refused (MCP: absent methods mean no PKCE).
 */
export async function discoverAuthServer(issuer: string, limits: EndpointLimits = ENDPOINT_LIMITS): Promise<AuthServerMetadata> {
  const found = await findAuthServer(issuer, limits);
  if (found === undefined) throw new AuthError(`no authorization server metadata found for ${issuer}`);
  return found;
}

/** discoverAuthServer, with undefined where no well-known URL of the issuer answers with a document. */
async function findAuthServer(issuer: string, limits: EndpointLimits = ENDPOINT_LIMITS): Promise<AuthServerMetadata | undefined> {
  for (const candidate of metadataUrls(issuer)) {
    const document = await wellKnownDocument(candidate, limits);
    if (document === undefined) continue;
    if (document.issuer !== issuer) {
      throw new AuthError(`the authorization server metadata at ${candidate} names issuer ${JSON.stringify(document.issuer)}, not ${issuer}: refused`);
    }
    const { authorization_endpoint: authorizationEndpoint, token_endpoint: tokenEndpoint, registration_endpoint: registrationEndpoint } = document;
    if (typeof authorizationEndpoint !== "string" || typeof tokenEndpoint !== "string") {
      throw new AuthError(`the authorization server ${issuer} publishes no authorization or token endpoint`);
    }
    // The authorization endpoint is opened in a browser: a `file:` or `javascript:` one would run there.
    for (const [name, endpoint] of [["authorization", authorizationEndpoint], ["token", tokenEndpoint], ["registration", registrationEndpoint]]) {
      if (typeof endpoint === "string" && !isWebUrl(endpoint)) {
        throw new AuthError(`the authorization server ${issuer} names ${JSON.stringify(endpoint)} as its ${name} endpoint: only http: and https: URLs are used`);
      }
    }
    if (!(strings(document.code_challenge_methods_supported) ?? []).includes("S256")) {
      throw new AuthError(`the authorization server ${issuer} does not advertise PKCE with S256: refused`);
    }
    return {
      issuer,
      authorizationEndpoint,
      tokenEndpoint,
      registrationEndpoint: typeof registrationEndpoint === "string" ? registrationEndpoint : undefined,
      scopesSupported: strings(document.scopes_supported),
      tokenEndpointAuthMethods: strings(document.token_endpoint_auth_methods_supported),
      clientIdMetadataDocumentSupported: document.client_id_metadata_document_supported === true,
      issParameterSupported: document.authorization_response_iss_parameter_supported === true,
      dpopAlgorithms: strings(document.dpop_signing_alg_values_supported),
      defaulted: false,
    };
  }
  return undefined;
}

/**
 * The 2025-03-26 authorization (https://modelcontextprotocol.io/specification/2025-03-26/basic/authorization),
 * for a server that publishes no protected resource metadata: "The authorization base URL MUST be determined
 * from the MCP server URL by discarding any existing path component", its metadata is at
 * `<base>/.well-known/oauth-authorization-server`, and "For servers that do not implement OAuth 2.0
 * Authorization Server Metadata, clients MUST use the following default endpoint paths relative to the
 * authorization base URL: /authorize, /token, /register". The issuer is then the bare origin.
 */
export async function discoverLegacyAuthServer(serverUrl: string, limits: EndpointLimits = ENDPOINT_LIMITS): Promise<AuthServerMetadata> {
  const base = new URL(serverUrl).origin;
  return (await findAuthServer(base, limits)) ?? defaultEndpoints(base);
}

/** The 2025-03-26 default endpoints on `base`, taken on trust: `defaulted` says no document backs them (PKCE was required then). */
function defaultEndpoints(base: string): AuthServerMetadata {
  return {
    issuer: base,
    authorizationEndpoint: `${base}/authorize`,
    tokenEndpoint: `${base}/token`,
    registrationEndpoint: `${base}/register`,
    clientIdMetadataDocumentSupported: false,
    issParameterSupported: false,
    defaulted: true,
  };
}
