// The grants that need nobody at a browser, for a server whose config names one: client credentials (the
// client's own secret or private-key JWT, RFC 6749 §4.4 / SEP-1046), a workload's identity token from a file
// as a JWT bearer assertion (RFC 7523 §2.1 / SEP-1933), and enterprise-managed authorization (SEP-990): the
// user's ID token from a file exchanged at the enterprise's identity provider (RFC 8693) for an ID-JAG,
// which is then the JWT bearer assertion at the MCP server's authorization server.
import { readFile } from "node:fs/promises";
import { describeError } from "../../kernel/index.js";
import { AuthError, ENDPOINT_LIMITS, fetchEndpointJson, type EndpointLimits } from "./endpoint-json.js";

export const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";
const ID_JAG_TYPE = "urn:ietf:params:oauth:token-type:id-jag";
/** A JWT in a file is a few kilobytes; more is no token. */
const MAX_TOKEN_FILE_BYTES = 64 * 1024;

/** The enterprise's identity provider, where the user's ID token is exchanged for an ID-JAG. */
export type IdentityProvider = {
  readonly tokenEndpoint: string;
  readonly clientId: string;
  readonly clientSecret?: string;
  /** A file holding the user's ID token from the provider (OpenID Connect), read at each exchange. */
  readonly idTokenFile: string;
};

/** How the config says tokens are got when no browser login is wanted. */
export type MachineGrant =
  | { readonly kind: "client_credentials" }
  | { readonly kind: "jwt_bearer"; readonly assertionFile: string }
  | { readonly kind: "token_exchange"; readonly idp: IdentityProvider };

export type GrantTarget = {
  /** The authorization server's issuer: the audience of an ID-JAG asked for. */
  readonly issuer: string;
  /** The MCP server as its metadata names it (RFC 8707). */
  readonly resource: string;
  readonly scope: string | undefined;
};

/** A token file's one token, read anew each time (workload tokens are rotated on disk). */
export async function readTokenFile(file: string, field: string): Promise<string> {
  let text: string;
  try {
    const bytes = await readFile(file);
    if (bytes.length > MAX_TOKEN_FILE_BYTES) throw new AuthError(`${field} ${JSON.stringify(file)} is larger than ${MAX_TOKEN_FILE_BYTES / 1024} KiB: no token`);
    text = bytes.toString("utf8").trim();
  } catch (error) {
    if (error instanceof AuthError) throw error;
    throw new AuthError(`cannot read ${field} ${JSON.stringify(file)}: ${describeError(error)}`);
  }
  if (!/^[A-Za-z0-9_=-]+\.[A-Za-z0-9_=-]*\.[A-Za-z0-9_=-]*$/.test(text)) throw new AuthError(`${field} ${JSON.stringify(file)} holds no JWT`);
  return text;
}

function withScope(params: Record<string, string>, scope: string | undefined): Record<string, string> {
  return scope === undefined || scope === "" ? params : { ...params, scope };
}

/** The grant parameters of the token request at the authorization server (the client's authentication is added there). */
export async function machineGrantParams(grant: MachineGrant, target: GrantTarget, limits: EndpointLimits = ENDPOINT_LIMITS): Promise<Record<string, string>> {
  switch (grant.kind) {
    case "client_credentials":
      return withScope({ grant_type: "client_credentials" }, target.scope);
    case "jwt_bearer":
      return withScope({ grant_type: JWT_BEARER_GRANT, assertion: await readTokenFile(grant.assertionFile, "oauth.assertionFile") }, target.scope);
    case "token_exchange":
      return withScope({ grant_type: JWT_BEARER_GRANT, assertion: await exchangeForIdJag(grant.idp, target, limits) }, target.scope);
    default: {
      const never: never = grant;
      throw new Error(`unknown grant ${JSON.stringify(never)}`);
    }
  }
}

/**
 * SEP-990 step one (RFC 8693 at the identity provider): the ID token as `subject_token`, an ID-JAG asked for,
 * for the authorization server (`audience`) and the MCP server (`resource`).
 */
async function exchangeForIdJag(idp: IdentityProvider, target: GrantTarget, limits: EndpointLimits): Promise<string> {
  const body = new URLSearchParams(
    withScope(
      {
        grant_type: TOKEN_EXCHANGE_GRANT,
        requested_token_type: ID_JAG_TYPE,
        subject_token: await readTokenFile(idp.idTokenFile, "oauth.idp.idTokenFile"),
        subject_token_type: ID_TOKEN_TYPE,
        audience: target.issuer,
        resource: target.resource,
      },
      target.scope,
    ),
  );
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
  if (idp.clientSecret === undefined) body.set("client_id", idp.clientId);
  else headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(idp.clientId)}:${encodeURIComponent(idp.clientSecret)}`).toString("base64")}`;
  const { status, json } = await fetchEndpointJson(idp.tokenEndpoint, { method: "POST", headers, body }, limits);
  if (status < 200 || status >= 300 || json === undefined || typeof json.access_token !== "string") {
    const reason = typeof json?.error === "string" ? `: ${json.error}` : "";
    throw new AuthError(`the token exchange at the identity provider failed (HTTP ${status}${reason})`);
  }
  if (json.issued_token_type !== undefined && json.issued_token_type !== ID_JAG_TYPE) {
    throw new AuthError(`the identity provider issued ${JSON.stringify(json.issued_token_type)}, not an ID-JAG`);
  }
  return json.access_token;
}
