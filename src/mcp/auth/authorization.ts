// The OAuth 2.1 steps against one authorization server: who the client is (pre-registered, Client ID
// Metadata Document, or dynamic registration, in the spec's order), the authorization request with PKCE
// S256 and `resource=`, the checks on the redirect (`state`, RFC 9207 `iss`), and the token requests.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { AuthServerMetadata } from "./discovery.js";
import type { DpopProver } from "./dpop.js";
import { signJwt, type SigningKey } from "./jwt.js";
import { AuthError, ENDPOINT_LIMITS, fetchEndpointJson, type EndpointLimits } from "./endpoint-json.js";

/** A client identity, valid at the one authorization server that issued or accepts it. */
export type ClientIdentity = {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret?: string;
  /** What registration answered; else chosen from the server's metadata at each token request. */
  readonly authMethod?: string;
  /** A dynamically registered client: the redirect URI it was registered with. */
  readonly redirectUri?: string;
};

export type ClientOptions = {
  /** A pre-registered client (the config's `oauth.clientId`); with a secret, used only where secretDestination allows. */
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** The authorization server the pre-registered client belongs to (`oauth.issuer`): the only one its secret goes to unasked. */
  readonly issuer?: string;
  /** An https URL serving this client's metadata document, used where the server supports them. */
  readonly clientMetadataUrl?: string;
  readonly clientName: string;
};

export type TokenSet = {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** Epoch milliseconds; undefined when the server did not say. */
  readonly expiresAt?: number;
  readonly scope?: string;
  /** `DPoP` for a token bound to the client's key (RFC 9449 §5); else a bearer token. */
  readonly tokenType?: string;
};

/** What a token request carries besides the grant, from the config: keys never stored with the login. */
export type TokenRequestExtras = {
  /** `private_key_jwt` (RFC 7523 §2.2): the client authenticates with an assertion signed by this key. */
  readonly assertionKey?: SigningKey;
  /** A DPoP proof on the request (RFC 9449 §5), and one retry with the server's nonce when it asks (§8). */
  readonly dpop?: DpopProver;
};

/** RFC 7523 §3 and draft-ietf-oauth-rfc7523bis: the audience of a client assertion is the issuer itself. */
const ASSERTION_LIFETIME_S = 60;
const CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

function clientAssertion(key: SigningKey, clientId: string, issuer: string, now: number = Date.now()): string {
  const iat = Math.floor(now / 1000);
  return signJwt(key, { typ: "JWT" }, { iss: clientId, sub: clientId, aud: issuer, iat, exp: iat + ASSERTION_LIFETIME_S, jti: randomUUID() });
}

/** MCP: pre-registered first, then a Client ID Metadata Document where supported, then dynamic registration. */
export async function identifyClient(
  metadata: AuthServerMetadata,
  options: ClientOptions,
  redirectUri: string,
  limits: EndpointLimits = ENDPOINT_LIMITS,
): Promise<ClientIdentity> {
  const { issuer } = metadata;
  if (options.clientId !== undefined) return { issuer, clientId: options.clientId, clientSecret: options.clientSecret };
  if (options.clientMetadataUrl !== undefined && metadata.clientIdMetadataDocumentSupported) {
    return { issuer, clientId: options.clientMetadataUrl, authMethod: "none" };
  }
  if (metadata.registrationEndpoint === undefined) {
    throw new AuthError(`the authorization server ${issuer} offers no registration: set oauth.clientId for this server in the config`);
  }
  const registration = JSON.stringify({
    client_name: options.clientName,
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    // SEP-837: a client that registers dynamically says what kind of application it is.
    application_type: "native",
  });
  const headers = { "content-type": "application/json", accept: "application/json" };
  const { status, json: body } = await fetchEndpointJson(metadata.registrationEndpoint, { method: "POST", headers, body: registration }, limits);
  if (!isSuccess(status) || body === undefined || typeof body.client_id !== "string") {
    throw new AuthError(`registration at ${issuer} failed (HTTP ${status})`);
  }
  return {
    issuer,
    clientId: body.client_id,
    clientSecret: typeof body.client_secret === "string" ? body.client_secret : undefined,
    authMethod: typeof body.token_endpoint_auth_method === "string" ? body.token_endpoint_auth_method : undefined,
    redirectUri,
  };
}

export type AuthorizationRequest = {
  readonly url: URL;
  readonly state: string;
  readonly verifier: string;
  readonly redirectUri: string;
};

function base64url(bytes: Buffer): string {
  return bytes.toString("base64url");
}

/** RFC 7636 S256, `state` against forgery, `resource=` (RFC 8707) with the resource exactly as published. */
export function buildAuthorizationRequest(
  metadata: AuthServerMetadata,
  client: ClientIdentity,
  input: { readonly redirectUri: string; readonly resource: string; readonly scope: string | undefined },
): AuthorizationRequest {
  const verifier = base64url(randomBytes(32));
  const state = base64url(randomBytes(16));
  const url = new URL(metadata.authorizationEndpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", client.clientId);
  url.searchParams.set("redirect_uri", input.redirectUri);
  url.searchParams.set("code_challenge", base64url(createHash("sha256").update(verifier).digest()));
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", state);
  url.searchParams.set("resource", input.resource);
  if (input.scope !== undefined && input.scope !== "") url.searchParams.set("scope", input.scope);
  return { url, state, verifier, redirectUri: input.redirectUri };
}

/**
 * The redirect's checks: `state` must be ours; RFC 9207 §2.4: a present `iss` must equal the issuer
 * (simple string comparison, no normalisation), and one the server advertised must be present.
 */
export function codeFromRedirect(redirect: URL, request: AuthorizationRequest, metadata: AuthServerMetadata): string {
  const params = redirect.searchParams;
  const iss = params.get("iss");
  if (iss !== null && iss !== metadata.issuer) throw new AuthError(`the authorization response came from issuer ${iss}, not ${metadata.issuer}: refused`);
  if (iss === null && metadata.issParameterSupported) throw new AuthError(`the authorization response from ${metadata.issuer} lacks the iss it advertises: refused`);
  if (params.get("state") !== request.state) throw new AuthError("the authorization response does not carry the state sent: refused");
  const error = params.get("error");
  if (error !== null) throw new AuthError(`the authorization server refused: ${error}${params.has("error_description") ? ` (${params.get("error_description")})` : ""}`);
  const code = params.get("code");
  if (code === null || code === "") throw new AuthError("the authorization response carries no code");
  return code;
}

/** client_secret_basic, client_secret_post or none: what registration said, else the best the server lists. */
function chooseAuthMethod(client: ClientIdentity, metadata: AuthServerMetadata): string {
  if (client.clientSecret === undefined) return "none";
  if (client.authMethod !== undefined) return client.authMethod;
  // RFC 8414 §2: absent, the default is client_secret_basic.
  const supported = metadata.tokenEndpointAuthMethods ?? ["client_secret_basic"];
  if (supported.includes("client_secret_basic")) return "client_secret_basic";
  if (supported.includes("client_secret_post")) return "client_secret_post";
  return "none";
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

export async function requestToken(
  metadata: AuthServerMetadata,
  client: ClientIdentity,
  grant: Record<string, string>,
  resource: string,
  limits: EndpointLimits = ENDPOINT_LIMITS,
  extras: TokenRequestExtras = {},
): Promise<TokenSet> {
  let answer = await sendTokenRequest(metadata, client, grant, resource, limits, extras);
  // RFC 9449 §8: "use_dpop_nonce" with a DPoP-Nonce header: once more, with a fresh proof carrying it.
  if (extras.dpop !== undefined && answer.status === 400 && answer.json?.error === "use_dpop_nonce" && answer.dpopNonce !== undefined) {
    extras.dpop.takeNonce(metadata.tokenEndpoint, answer.dpopNonce);
    answer = await sendTokenRequest(metadata, client, grant, resource, limits, extras);
  }
  const { status, json } = answer;
  if (!isSuccess(status) || json === undefined || typeof json.access_token !== "string") {
    const reason = typeof json?.error === "string" ? `: ${json.error}` : "";
    throw new AuthError(`the token request to ${metadata.issuer} failed (HTTP ${status}${reason})`);
  }
  const expiresIn = typeof json.expires_in === "number" ? json.expires_in : undefined;
  return {
    accessToken: json.access_token,
    refreshToken: typeof json.refresh_token === "string" ? json.refresh_token : grant.refresh_token,
    expiresAt: expiresIn === undefined ? undefined : Date.now() + expiresIn * 1000,
    scope: typeof json.scope === "string" ? json.scope : undefined,
    ...(typeof json.token_type === "string" ? { tokenType: json.token_type } : {}),
  };
}

/** One token request, its client authentication and proof made fresh (a replayed assertion or proof is refused). */
function sendTokenRequest(
  metadata: AuthServerMetadata,
  client: ClientIdentity,
  grant: Record<string, string>,
  resource: string,
  limits: EndpointLimits,
  extras: TokenRequestExtras,
): ReturnType<typeof fetchEndpointJson> {
  const body = new URLSearchParams({ ...grant, resource });
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
  const method = extras.assertionKey === undefined ? chooseAuthMethod(client, metadata) : "private_key_jwt";
  if (method === "client_secret_basic" && client.clientSecret !== undefined) {
    // RFC 6749 §2.3.1: both parts form-urlencoded before the base64.
    const pair = `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString("base64")}`;
  } else {
    body.set("client_id", client.clientId);
    if (method === "client_secret_post" && client.clientSecret !== undefined) body.set("client_secret", client.clientSecret);
    if (method === "private_key_jwt" && extras.assertionKey !== undefined) {
      body.set("client_assertion_type", CLIENT_ASSERTION_TYPE);
      body.set("client_assertion", clientAssertion(extras.assertionKey, client.clientId, metadata.issuer));
    }
  }
  if (extras.dpop !== undefined) headers.DPoP = extras.dpop.proof("POST", metadata.tokenEndpoint);
  return fetchEndpointJson(metadata.tokenEndpoint, { method: "POST", headers, body }, limits);
}

/**
 * MCP scope selection: the challenge's `scope`, else the resource's `scopes_supported`, else none; a
 * step-up asks for the union with what was asked before (SEP-2350); `offline_access` is added only where
 * the authorization server lists it (SEP-2207), so that a refresh token can be issued.
 */
export function chooseScope(challenged: string | undefined, resourceScopes: readonly string[] | undefined, previous: string | undefined, metadata: AuthServerMetadata): string | undefined {
  const wanted = new Set<string>((previous ?? "").split(" ").filter((scope) => scope !== ""));
  const fresh = challenged !== undefined ? challenged.split(" ") : (resourceScopes ?? []);
  for (const scope of fresh) if (scope !== "") wanted.add(scope);
  if (wanted.size === 0) return undefined;
  if (metadata.scopesSupported?.includes("offline_access")) wanted.add("offline_access");
  return [...wanted].join(" ");
}
