// One server's login as the HTTP transport sees it: the `Authorization` header for each request (refreshed
// before it expires), and what to do when the server answers 401 or 403 `insufficient_scope` — refresh,
// step up, or run the whole authorization flow where someone can take it (else: "needs login").
import { describeError } from "../../kernel/index.js";
import { HttpFailure, LoginNeeded, plainRefusal } from "../http/failure.js";
import { McpError } from "../jsonrpc.js";
import {
  buildAuthorizationRequest,
  chooseScope,
  codeFromRedirect,
  identifyClient,
  requestToken,
  type ClientIdentity,
  type ClientOptions,
  type TokenRequestExtras,
  type TokenSet,
} from "./authorization.js";
import { createDpopProver, type DpopProver } from "./dpop.js";
import { machineGrantParams, type MachineGrant } from "./grants.js";
import { readSigningKey } from "./jwt.js";
import {
  discoverAuthServer,
  discoverLegacyAuthServer,
  discoverProtectedResource,
  parseBearerChallenge,
  probeChallenge,
  type AuthServerMetadata,
  type ProtectedResource,
} from "./discovery.js";
import { AuthError, type EndpointLimits } from "./endpoint-json.js";
import { chooseIssuer, describeIssuer, sameIssuer, secretDestination, type IssuerQuestion } from "./secret-destination.js";
import type { StoredLogin, TokenStore } from "./token-store.js";

/** Takes the user (or a test, or the conformance driver) to the authorization URL and back. */
export interface Authorizer {
  /** Where the authorization server sends the user back: a loopback URL. */
  readonly redirectUri: string;
  /** Resolves with the URL the authorization server redirected to. */
  visit(authorizationUrl: URL): Promise<URL>;
}

/** What the HTTP transport asks of a login. */
export interface HttpAuth {
  /** `Bearer <token>` (or `DPoP <token>`) for the next request, or undefined before any login. */
  authorization(): Promise<string | undefined>;
  /** RFC 9449 §7: the `DPoP` header of a request that carries a DPoP-bound token; undefined otherwise. */
  proof?(method: string, url: string): Promise<string | undefined>;
  /**
   * After a 401, or a 403 with `insufficient_scope`: true when a new token is ready and the request may go
   * again. A `DPoP-Nonce` with a `use_dpop_nonce` challenge (RFC 9449 §9) is taken for the next proof.
   */
  challenged(status: number, wwwAuthenticate: string | undefined, dpopNonce?: string): Promise<boolean>;
  /** A request carrying the current token went through. */
  accepted(): void;
}

/**
 * The server answered 401 but publishes no OAuth metadata of any era and takes no registration at the
 * 2025-03-26 default `/register`: a key it wants is no login's to give (`HTTP 401: <its reason>` is said instead).
 */
export class NoOAuthMetadata extends AuthError {}

/** A request challenged this many times is failed with the last challenge, whatever the login says. */
const MAX_AUTH_ROUNDS_PER_REQUEST = 4;

/**
 * Runs `attempt` with the login's current `Authorization` (and, for a request to `target`, its DPoP proof),
 * and again while the 401 or 403 it failed on is one the login answered with a new token or nonce;
 * otherwise the failure stands. Once `closed()`, nothing goes again.
 */
export async function withLogin<T>(
  auth: HttpAuth,
  closed: () => boolean,
  attempt: (authorization: string | undefined, dpop?: string) => Promise<T>,
  target?: { readonly method: string; readonly url: string },
): Promise<T> {
  for (let round = 1; ; round += 1) {
    const authorization = await auth.authorization();
    const dpop = target === undefined ? undefined : await auth.proof?.(target.method, target.url);
    try {
      const outcome = await attempt(authorization, dpop);
      if (authorization !== undefined) auth.accepted();
      return outcome;
    } catch (error) {
      if (!(error instanceof HttpFailure) || (error.status !== 401 && error.status !== 403) || round >= MAX_AUTH_ROUNDS_PER_REQUEST) throw error;
      if (closed()) throw error;
      const again = await auth.challenged(error.status, error.wwwAuthenticate, error.dpopNonce).catch((problem: unknown) => {
        throw problem instanceof NoOAuthMetadata ? plainRefusal(error) : problem;
      });
      if (!again) throw error;
    }
  }
}

export type OAuthSessionOptions = {
  /** The alias: the `server` of the McpErrors raised here. */
  readonly label: string;
  readonly serverUrl: string;
  readonly store: TokenStore;
  readonly client: ClientOptions;
  /** Scopes the config asks for, used when the server's challenge names none. */
  readonly scopes?: string;
  /** Absent where nobody can log in (no terminal, a running chat): a challenge then reports "needs login". */
  readonly authorizer?: Authorizer;
  /** Told each new token and secret, so that the session can redact them everywhere. */
  readonly onSecret?: (secret: string) => void;
  /**
   * Asked before the config's client secret (and the client id configured with it) goes to an authorization
   * server the config does not name (see secretDestination); absent where nobody can answer, and then
   * nothing is sent there.
   */
  readonly confirmIssuer?: (question: IssuerQuestion) => Promise<boolean>;
  /** The cap and deadline of each answer from the authorization server; ENDPOINT_LIMITS by default. */
  readonly limits?: EndpointLimits;
  /** The config's grant that needs nobody at a browser (oauth.grant); the authorization code flow when absent. */
  readonly grant?: MachineGrant;
  /** `private_key_jwt`: the PEM file of the key the client authenticates with (oauth.privateKeyFile). */
  readonly privateKeyFile?: string;
  /** DPoP (RFC 9449): the PEM file of the key the tokens are bound to (oauth.dpopKeyFile). */
  readonly dpopKeyFile?: string;
};

/** SEP-2350 asks for a limit on re-authorizations a server keeps refusing; three in a row is ours. */
export const MAX_AUTHORIZATIONS_WITHOUT_SUCCESS = 3;
/** A token this close to its expiry is refreshed before use. */
const REFRESH_MARGIN_MS = 60_000;

export type OAuthSession = HttpAuth & {
  /** Runs the whole flow now (`mca mcp login`), whatever the stored tokens. */
  login(): Promise<void>;
};

export function createOAuthSession(options: OAuthSessionOptions): OAuthSession {
  const { label: server, serverUrl, store, limits } = options;
  let stored: StoredLogin | undefined;
  let metadata: AuthServerMetadata | undefined;
  let attemptsWithoutSuccess = 0;
  /** One flow at a time: requests challenged together wait for the same one. */
  let running: Promise<boolean> | undefined;
  let prover: Promise<DpopProver> | undefined;

  /** The session's one DPoP prover: its nonces outlive each request. */
  function dpopProver(): Promise<DpopProver> | undefined {
    const file = options.dpopKeyFile;
    if (file === undefined) return undefined;
    if (prover === undefined) {
      prover = readSigningKey(file, "oauth.dpopKeyFile").then((key) => createDpopProver(key));
      // A key that could not be read is tried again at the next use.
      prover.catch(() => (prover = undefined));
    }
    return prover;
  }

  /** The keys a token request needs, read from their files at each request (a rotated key is taken up). */
  async function extras(): Promise<TokenRequestExtras> {
    const assertionKey = options.privateKeyFile === undefined ? undefined : await readSigningKey(options.privateKeyFile, "oauth.privateKeyFile");
    const dpop = await dpopProver();
    return { ...(assertionKey === undefined ? {} : { assertionKey }), ...(dpop === undefined ? {} : { dpop }) };
  }

  async function current(): Promise<StoredLogin> {
    if (stored === undefined) {
      stored = await store.load(serverUrl);
      for (const secret of secretsOf(stored)) options.onSecret?.(secret);
    }
    return stored;
  }

  async function remember(next: StoredLogin): Promise<void> {
    stored = next;
    for (const secret of secretsOf(next)) options.onSecret?.(secret);
    await store.save(next);
  }

  async function metadataFor(issuer: string): Promise<AuthServerMetadata> {
    if (metadata?.issuer === issuer) return metadata;
    // A 2025-03-26 login's issuer is the server's own origin, perhaps with no metadata behind it but the defaults.
    const ownOrigin = issuer === new URL(serverUrl).origin;
    metadata = ownOrigin ? await discoverLegacyAuthServer(serverUrl, limits) : await discoverAuthServer(issuer, limits);
    return metadata;
  }

  /**
   * RFC 9728 metadata, else the 2025-03-26 way: the authorization server at the server's origin, its metadata
   * or default endpoints there, the server URL as the resource. Where nothing of OAuth is published at all and
   * no login could find out more, the 401 is no login's to answer (NoOAuthMetadata).
   */
  async function protectedResource(challenge: string | undefined): Promise<ProtectedResource> {
    const published = await discoverProtectedResource(serverUrl, parseBearerChallenge(challenge), limits);
    if (published !== undefined) return published;
    metadata = await discoverLegacyAuthServer(serverUrl, limits);
    if (metadata.defaulted && options.authorizer === undefined) throw noOAuth();
    return { resource: serverUrl, authorizationServers: [metadata.issuer] };
  }

  function noOAuth(): NoOAuthMetadata {
    const shown = `${new URL(serverUrl).origin}${new URL(serverUrl).pathname}`;
    return new NoOAuthMetadata(
      `${shown} asks for authorization but publishes no OAuth metadata (RFC 9728 or RFC 8414) and takes no registration at /register; if it takes an API key or token, set it in "headers" for this server in the config`,
    );
  }

  /** identifyClient, where a registration refused at assumed default endpoints says the server takes no OAuth at all. */
  async function clientAt(authServer: AuthServerMetadata, redirectUri: string): Promise<ClientIdentity> {
    try {
      return await identifyClient(authServer, options.client, redirectUri, limits);
    } catch (error) {
      if (authServer.defaulted && error instanceof AuthError) throw noOAuth();
      throw error;
    }
  }

  async function refresh(login: StoredLogin): Promise<boolean> {
    const refreshToken = login.tokens?.refreshToken;
    const client = login.clients.find((candidate) => candidate.issuer === login.issuer);
    if (refreshToken === undefined || login.issuer === undefined || login.resource === undefined || client === undefined) return false;
    // A refresh sends the secret only where it already went for this login; not once the config names another issuer.
    const configuredIssuer = options.client.issuer;
    if (carriesConfiguredSecret(client) && configuredIssuer !== undefined && !sameIssuer(login.issuer, configuredIssuer)) return false;
    try {
      const grant = { grant_type: "refresh_token", refresh_token: refreshToken };
      const tokens = await requestToken(await metadataFor(login.issuer), client, grant, login.resource, limits, await extras());
      await remember({ ...login, tokens });
      return true;
    } catch {
      // A refused refresh token is spent: the next challenge runs the whole flow.
      await remember({ ...login, tokens: undefined });
      return false;
    }
  }

  function needsLogin(why: string): LoginNeeded {
    // The server is named by whoever shows it ("MCP server "x" is not available: needs a login …").
    return new LoginNeeded(`needs a login (${why}): run \`mca mcp login ${server}\``, server);
  }

  /** A client identity that is the config's pre-registered client with its secret: the one the destination rule guards. */
  function carriesConfiguredSecret(client: ClientIdentity): boolean {
    const { clientId, clientSecret } = options.client;
    return clientSecret !== undefined && (client.clientId === clientId || client.clientSecret === clientSecret);
  }

  /**
   * Before anything of a login goes to `issuer`: the config's client secret (and the id configured with it)
   * goes unasked only where secretDestination allows; elsewhere only when the user says yes, for this login.
   */
  async function clearForSecret(issuer: string): Promise<void> {
    // A workload's identity token is a bearer credential like the secret: whoever gets it can use it.
    if (options.client.clientSecret === undefined && options.grant?.kind !== "jwt_bearer") return;
    const destination = secretDestination({ server, serverUrl, configuredIssuer: options.client.issuer, issuer });
    if (destination.verdict !== "elsewhere") return;
    const { question } = destination;
    if (options.confirmIssuer === undefined) {
      throw new AuthError(
        `${describeIssuer(question)}: the client secret in the config is not sent there unasked; if the client is registered there, set "oauth.issuer": ${JSON.stringify(question.issuer)} for this server in the config, or run \`mca mcp login ${server}\` in a terminal to be asked`,
      );
    }
    if (!(await options.confirmIssuer(question))) throw new AuthError(`${describeIssuer(question)}: the client secret in the config was not sent there`);
  }

  async function authorize(challenge: string | undefined, skipRefresh: boolean): Promise<boolean> {
    const bearer = parseBearerChallenge(challenge);
    const login = await current();
    const resource = await protectedResource(challenge);
    const issuer = chooseIssuer(resource.authorizationServers, options.client.issuer);
    // SEP-2352: a server that moved to another authorization server gets a client identity of its own there.
    if (!skipRefresh && issuer === login.issuer && (await refresh(login))) return true;
    if (options.grant !== undefined) return machineLogin(options.grant, login, resource, issuer, bearer?.scope);
    if (options.authorizer === undefined) {
      // Another mca (`mca mcp login` in a second terminal) may have stored a login since this one was read.
      const reread = await store.load(serverUrl);
      if (reread.tokens !== undefined && reread.tokens.accessToken !== login.tokens?.accessToken) {
        stored = undefined;
        await current();
        return true;
      }
      throw needsLogin(login.tokens === undefined ? "no stored token" : "the stored token was refused");
    }
    if (attemptsWithoutSuccess >= MAX_AUTHORIZATIONS_WITHOUT_SUCCESS) return false;
    attemptsWithoutSuccess += 1;
    await clearForSecret(issuer);
    const authServer = await metadataFor(issuer);
    const { authorizer } = options;
    // A client registered for another redirect URI (another loopback port) is registered again.
    const known = login.clients.find((candidate) => candidate.issuer === issuer && (candidate.redirectUri ?? authorizer.redirectUri) === authorizer.redirectUri);
    const client: ClientIdentity = known ?? (await clientAt(authServer, authorizer.redirectUri));
    const previous = issuer === login.issuer ? login.scope : undefined;
    const scope = chooseScope(bearer?.scope ?? options.scopes, resource.scopesSupported, previous, authServer);
    const request = buildAuthorizationRequest(authServer, client, { redirectUri: authorizer.redirectUri, resource: resource.resource, scope });
    const code = codeFromRedirect(await authorizer.visit(request.url), request, authServer);
    const grant = { grant_type: "authorization_code", code, code_verifier: request.verifier, redirect_uri: request.redirectUri };
    const tokens: TokenSet = await requestToken(authServer, client, grant, resource.resource, limits, await extras());
    const clients = [...login.clients.filter((candidate) => candidate.issuer !== issuer), client];
    await remember({ serverUrl, issuer, resource: resource.resource, scope, tokens, clients });
    return true;
  }

  /** A grant that needs nobody at a browser: asked for wherever the session runs, with the same limits and guards. */
  async function machineLogin(grant: MachineGrant, login: StoredLogin, resource: ProtectedResource, issuer: string, challenged: string | undefined): Promise<boolean> {
    if (attemptsWithoutSuccess >= MAX_AUTHORIZATIONS_WITHOUT_SUCCESS) return false;
    attemptsWithoutSuccess += 1;
    const { clientId, clientSecret } = options.client;
    if (clientId === undefined) throw new AuthError(`oauth.grant ${JSON.stringify(grant.kind)} needs oauth.clientId`);
    await clearForSecret(issuer);
    const authServer = await metadataFor(issuer);
    const client: ClientIdentity = { issuer, clientId, ...(clientSecret === undefined ? {} : { clientSecret }) };
    const previous = issuer === login.issuer ? login.scope : undefined;
    const scope = chooseScope(challenged ?? options.scopes, resource.scopesSupported, previous, authServer);
    const params = await machineGrantParams(grant, { issuer, resource: resource.resource, scope }, limits);
    const tokens = await requestToken(authServer, client, params, resource.resource, limits, await extras());
    await remember({ serverUrl, issuer, resource: resource.resource, scope, tokens, clients: login.clients.filter((candidate) => candidate.issuer !== issuer) });
    return true;
  }

  function once(run: () => Promise<boolean>): Promise<boolean> {
    running ??= run().finally(() => {
      running = undefined;
    });
    return running;
  }

  function asMcpError(error: unknown): McpError {
    if (error instanceof McpError) return error;
    if (error instanceof AuthError) return new McpError("protocol", `login to ${server} failed: ${error.message}`, { server });
    return new McpError("unreachable", `login to ${server} failed: ${describeError(error)}`, { server });
  }

  return {
    async authorization() {
      const login = await current();
      const expiresAt = login.tokens?.expiresAt;
      if (expiresAt !== undefined && expiresAt - Date.now() < REFRESH_MARGIN_MS) {
        await once(() => refresh(login)).catch(() => false);
      }
      const tokens = stored?.tokens;
      if (tokens === undefined) return undefined;
      return `${isDpopBound(tokens) && options.dpopKeyFile !== undefined ? "DPoP" : "Bearer"} ${tokens.accessToken}`;
    },
    async proof(method, url) {
      const tokens = stored?.tokens;
      const dpop = dpopProver();
      if (tokens === undefined || dpop === undefined || !isDpopBound(tokens)) return undefined;
      return (await dpop).proof(method, url, tokens.accessToken);
    },
    async challenged(status, wwwAuthenticate, dpopNonce) {
      const dpop = dpopProver();
      if (dpopNonce !== undefined && dpop !== undefined && parseBearerChallenge(wwwAuthenticate)?.error === "use_dpop_nonce") {
        (await dpop).takeNonce(serverUrl, dpopNonce);
        return true;
      }
      // A 403 is a step-up (more scopes): a refresh would only bring the same ones back.
      const stepUp = status === 403;
      if (stepUp && parseBearerChallenge(wwwAuthenticate)?.error !== "insufficient_scope") return false;
      try {
        return await once(() => authorize(wwwAuthenticate, stepUp));
      } catch (error) {
        // withLogin turns it into the server's own refusal, which it holds.
        if (error instanceof NoOAuthMetadata) throw error;
        throw asMcpError(error);
      }
    },
    accepted() {
      attemptsWithoutSuccess = 0;
    },
    async login() {
      attemptsWithoutSuccess = 0;
      try {
        const challenge = await probeChallenge(serverUrl, limits);
        await once(() => authorize(challenge, true).then((done) => done || Promise.reject(new AuthError("no token was issued"))));
      } catch (error) {
        throw asMcpError(error);
      }
    },
  };
}

function isDpopBound(tokens: TokenSet): boolean {
  return tokens.tokenType?.toLowerCase() === "dpop";
}

function secretsOf(login: StoredLogin): string[] {
  const secrets = [login.tokens?.accessToken, login.tokens?.refreshToken, ...login.clients.map((client) => client.clientSecret)];
  return secrets.filter((secret): secret is string => secret !== undefined);
}
